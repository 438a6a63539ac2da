// What every summary reader shares: a list of figures with unique names, the words for a missing or
// non-finite value, and the ParseResult a summary becomes (its figures in `reported`, n = 0, no
// fatal). The readers are summaryJson.ts (results and stats files) and summaryTables.ts (tables).
import type { ParseResult, RowProblem, SummaryFigure, SummaryInfo } from '../types';
import { readNumberText } from './numbers';

/**
 * Names a metric goes by, for telling a table or an object of metrics from other data. Not "score"
 * or "correct": a table of predictions has those, one row per sample.
 */
const METRIC_WORD = /(?:^|[^a-z0-9])(acc|accuracy|acc_norm|f1|f1_score|auc|auroc|roc_auc|pr_auc|brier|brier_score|brier_score_loss|ece|ece_quantile|mce|loss|log_loss|logloss|nll|mse|rmse|mae|r2|precision|recall|bleu|chrf|ter|rouge\w*|exact_match|em|quasi_exact_match|win_rate|winrate|length_controlled_winrate|pass@\d+|perplexity|ppl|mcc|kappa|spearman|pearson|balanced_accuracy|tpr|fpr|tnr|fnr|ppr|kl|tvd|hmr|stderr|standard_error|naive_average|weighted_average|average_precision)(?:$|[^a-z0-9])/i;

/** Whether a column or key name is a metric's (accuracy, brier_score_loss, arc_easy/acc, pass@1, win_rate). */
export function isMetricName(name: string): boolean {
  return METRIC_WORD.test(name.trim().toLowerCase().replace(/[-\s]+/g, '_'));
}

/** A value of a summary: a number (NaN and infinities kept, as the file gives them), null when absent, undefined when it is no number. */
export function figureValue(raw: unknown): number | null | undefined {
  if (typeof raw === 'number') return raw;
  if (raw === null) return null;
  if (typeof raw !== 'string') return undefined;
  const t = readNumberText(raw);
  if (t.kind === 'number') return t.value;
  if (t.kind === 'missing' || raw.trim() === '-') return null;
  if (t.kind === 'non-finite') {
    const s = raw.trim().toLowerCase();
    return s.startsWith('-') && s.includes('inf') ? -Infinity : s.includes('inf') ? Infinity : NaN;
  }
  return undefined;
}

/** Figures in file order, each name made unique ("acc", then "acc (2)") so `reported` keeps them all. */
export class FigureList {
  readonly figures: SummaryFigure[] = [];
  private readonly seen = new Map<string, number>();

  add(f: SummaryFigure): void {
    const count = (this.seen.get(f.name) ?? 0) + 1;
    this.seen.set(f.name, count);
    this.figures.push(count === 1 ? f : { ...f, name: `${f.name} (${count})` });
  }
}

/**
 * The parse result of a summary: its figures by name in `reported`, nothing scored and no fatal.
 * A summary without one figure is not one: `fatal` says what the file holds instead.
 */
export function summaryResult(
  info: SummaryInfo, problems: RowProblem[] = [], extra: Pick<ParseResult, 'task' | 'sourceModel'> = {},
): ParseResult {
  if (!info.figures.length) {
    const fatal = `It looks like ${info.source}, but it holds no figure (no numeric value) to show.`;
    return { format: 'summary', set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message: fatal }], skipped: 0, unlabeled: 0, fatal, ...extra };
  }
  const reported: Record<string, number | null> = {};
  for (const f of info.figures) reported[f.name] = f.value;
  return { format: 'summary', set: null, problems, skipped: 0, unlabeled: 0, reported, summary: info, ...extra };
}

/** The parse result of a file that looked like a summary and could not be read as one. */
export function summaryFailure(message: string): ParseResult {
  return { format: 'summary', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
}
