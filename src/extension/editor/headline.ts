// Which numbers summarise a report in one line (tree, CodeLens, status bar), and how they read.
// Plain functions of a Report: no vscode import, so they are easy to test and reuse.
import type { MetricName, Report } from '../../core/types';
import { headlineMetric, summaryMetrics } from '../../common/metricTable';

export const METRIC_LABELS: Record<MetricName, string> = {
  accuracy: 'acc', auc: 'AUC', macro_f1: 'macro-F1', raft_score: 'RAFT score', brier: 'Brier', nbr: 'NBR',
  log_loss: 'log loss', ece: 'ECE', ece_quantile: 'ECE (equal-count)', mce: 'MCE', mce_quantile: 'MCE (equal-count)',
  ks: 'KS', smece: 'smECE', smece_sigma: 'smECE σ*', ece_classwise: 'classwise ECE', hmr: 'HMR', r_o: 'R_O', r_u: 'R_U', hmr_beta: 'HMR_β', mse: 'MSE', tvd: 'TVD', kl: 'KL', spearman: 'Spearman',
  acc_norm: 'acc_norm', perplexity: 'perplexity',
  stderr: 'stderr',
  judge_score: 'judge score', win_rate: 'win rate', win_rate_adjusted: 'win rate (ties ½)', rating: 'rating',
  position_bias: 'position bias', length_bias: 'length bias', agreement: 'agreement', kappa: 'κ',
  confidence_auroc: 'confidence AUROC', confidence_brier: 'confidence Brier',
};

/** The few numbers the CodeLens and status bar show, headline first (the table is in src/common/metricTable.ts). */
export function lensMetrics(r: Pick<Report, 'format' | 'kind' | 'metrics'>): MetricName[] {
  const names = summaryMetrics(r);
  // Leave out what the file cannot have (no confidence: no ECE), keep a null the file should have had.
  return names.filter((m) => m === names[0] || m in r.metrics);
}

export function formatNumber(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || Number.isNaN(v)) return 'n/a';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '-∞';
  return v.toFixed(digits);
}

export function metricText(r: Pick<Report, 'metrics'>, m: MetricName): string {
  return `${METRIC_LABELS[m]} ${formatNumber(r.metrics[m])}`;
}

/** "n=1000 (3 skipped, 5 unlabeled)". */
export function countText(r: Pick<Report, 'n' | 'skipped' | 'unlabeled'>): string {
  const extra = [r.skipped ? `${r.skipped} skipped` : '', r.unlabeled ? `${r.unlabeled} unlabeled` : ''].filter(Boolean);
  return `n=${r.n}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

/** "ECE 0.043 · AUC 0.871 · Brier 0.162 · acc 0.810 · n=1000 (3 skipped)" (no prefix). */
export function summaryLine(r: Report): string {
  if (r.fatal && r.n === 0) return `cannot score: ${oneLine(r.fatal)}`;
  if (r.summary) return `${r.summary.source}: ${plural(r.summary.figures.length, 'figure')}`;
  const scores = ownScores(r);
  if (scores.length) return [...scores.slice(0, 3).map((t) => `${t.name} ${formatNumber(t.mean)}`), countText(r)].join(' · ');
  const models = judgeModels(r);
  if (models) {
    const shown = models.rows.slice(0, 3).map((g) => `${g.model} ${formatNumber(g.value)}`);
    const more = models.rows.length > 3 ? [`${models.rows.length - 3} more`] : [];
    return [`${METRIC_LABELS[models.metric]} by model: ${[...shown, ...more].join(', ')}`, countText(r)].join(' · ');
  }
  return [...lensMetrics(r).map((m) => metricText(r, m)), countText(r)].join(' · ');
}

/** The short form for the tree and the status bar: "ECE 0.043". */
export function headlineText(r: Report): string {
  if (r.fatal && r.n === 0) return 'cannot score';
  if (r.summary) return plural(r.summary.figures.length, 'figure');
  const scores = ownScores(r);
  if (scores.length) return `${scores[0].name} ${formatNumber(scores[0].mean)}`;
  const models = judgeModels(r);
  if (models) return `${plural(models.rows.length, 'model')}, best ${METRIC_LABELS[models.metric]} ${formatNumber(models.rows[0].value)}`;
  return metricText(r, headlineMetric(r));
}

/**
 * A judge file of several models has no figure for the whole file (one over several models would
 * be wrong): its one line gives each model's figure instead, best first, rather than "n/a".
 */
function judgeModels(r: Report): { metric: MetricName; rows: { model: string; value: number | null }[] } | undefined {
  const metric = r.judge?.headline;
  if (!metric || typeof r.metrics[metric] === 'number' || r.groups?.column !== 'model' || r.groups.groups.length < 2) return undefined;
  const rows = r.groups.groups.map((g) => ({ model: g.value, value: g.metrics[metric] ?? null }));
  // Every judge headline (a judge's score, a win rate, a rating) is better higher; unknown figures last.
  rows.sort((x, y) => (y.value ?? -Infinity) - (x.value ?? -Infinity));
  return { metric, rows };
}

/** A table of per-sample scores without a judge (Ragas): its figures are its scores' means, not a judge score. */
function ownScores(r: Report): NonNullable<Report['taskMetrics']> {
  return r.kind === 'scores' && !r.judge ? r.taskMetrics ?? [] : [];
}

/** Problems counted for the tree: info notes (hidden test split) are not problems. */
export function problemCount(reports: Report[]): number {
  let n = 0;
  for (const r of reports) for (const p of r.problems) if (p.severity !== 'info') n++;
  return n;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** All non-empty metrics of a report as [label, value] rows, for tooltips. */
export function metricRows(r: Report): [string, string][] {
  const rows: [string, string][] = [];
  for (const [name, value] of Object.entries(r.metrics) as [MetricName, number | null][]) {
    if (value === undefined) continue;
    const ci = r.intervals[name];
    rows.push([METRIC_LABELS[name] ?? name, formatNumber(value, 4) + (ci ? ` [${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : '')]);
  }
  return rows;
}

/** Mean of the tasks' macro-F1: RAFT's benchmark score, for a run folder in the tree. */
export function raftScore(reports: Report[]): number | null {
  const f1 = reports.filter((r) => r.format === 'raft').map((r) => r.metrics.macro_f1).filter((v): v is number => typeof v === 'number');
  return f1.length ? f1.reduce((a, b) => a + b, 0) / f1.length : null;
}

function oneLine(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
