// Which metrics each kind of report has, in which order, and which one is the headline: the one
// table the core (what to compute and bootstrap), the CLI table, the webview's cards and the
// extension's one-line summaries all read. It lives in src/common because the webview, which must
// not run core code, needs it as much as the core does.
import type { FormatName, Kind, MetricName } from '../core/types';

export const KIND_METRICS = {
  binary: {
    computed: [
      'accuracy', 'auc', 'brier', 'nbr', 'log_loss', 'ece', 'ece_quantile', 'mce', 'mce_quantile', 'ks',
      'hmr', 'r_o', 'r_u', 'hmr_beta', 'smece', 'smece_sigma',
    ],
    // NBR of a binary score equals its Brier score, so it gets no card of its own.
    cards: ['ece', 'smece', 'ece_quantile', 'auc', 'brier', 'log_loss', 'accuracy', 'mce', 'mce_quantile', 'ks'],
    summary: ['ece', 'auc', 'brier', 'accuracy'],
  },
  confidence: {
    computed: [
      'accuracy', 'brier', 'log_loss', 'ece', 'ece_quantile', 'mce', 'mce_quantile', 'ks', 'hmr', 'r_o', 'r_u', 'hmr_beta',
      'perplexity', 'smece', 'smece_sigma', 'confidence_auroc', 'confidence_brier',
    ],
    // perplexity is lm-eval's (computed and shown when the file has it). confidence_brier equals
    // brier here (both are of the confidence against correctness): one card, brier's.
    cards: ['accuracy', 'perplexity', 'ece', 'smece', 'ece_quantile', 'brier', 'confidence_auroc', 'mce', 'mce_quantile', 'ks'],
    summary: ['accuracy', 'ece', 'hmr', 'brier'],
  },
  multiclass: {
    computed: [
      'accuracy', 'macro_f1', 'brier', 'nbr', 'log_loss', 'ece', 'ece_quantile', 'mce', 'mce_quantile', 'ks',
      'hmr', 'r_o', 'r_u', 'hmr_beta', 'acc_norm', 'perplexity', 'smece', 'smece_sigma', 'ece_classwise',
      'confidence_auroc', 'confidence_brier',
    ],
    // acc_norm and perplexity are lm-eval's (computed and shown when the file has them);
    // confidence_auroc and confidence_brier when the only probability is the answer's stated confidence.
    cards: ['accuracy', 'acc_norm', 'perplexity', 'macro_f1', 'ece', 'smece', 'ece_classwise', 'ece_quantile', 'brier', 'nbr', 'log_loss', 'confidence_auroc', 'confidence_brier', 'mce', 'mce_quantile', 'ks'],
    summary: ['accuracy', 'macro_f1', 'ece', 'brier'],
  },
  probability: {
    computed: ['mse', 'tvd', 'kl', 'spearman'],
    cards: ['mse', 'tvd', 'kl', 'spearman'],
    summary: ['mse', 'tvd', 'kl', 'spearman'],
  },
  // Per-sample scores without a gold label: their figures are the scores' own means (taskMetrics),
  // and a judge file's (src/core/judges/): the file-wide ones here, each model's in Report.groups.
  scores: {
    computed: ['judge_score', 'win_rate', 'win_rate_adjusted', 'rating', 'position_bias', 'length_bias', 'agreement', 'kappa'],
    cards: ['judge_score', 'win_rate', 'position_bias', 'length_bias', 'agreement', 'kappa'],
    summary: ['judge_score', 'win_rate', 'position_bias', 'kappa'],
  },
} as const satisfies Record<Kind, {
  /**
   * Every metric of METRIC_NAMES a report of this kind may carry, in that order; the ones it can
   * bootstrap get intervals. (Binary reports also carry the rates of RATE_NAMES, kept apart.)
   */
  computed: readonly MetricName[];
  /** The report panel's metric cards, in order (R_O, R_U, HMR and HMR_β have a panel of their own). */
  cards: readonly MetricName[];
  /** The one-line summary (tree, CodeLens, status bar, quick pick), headline first. */
  summary: readonly MetricName[];
}>;

/** The metrics of the HMR panel (shown beside the cards, not as cards). */
export const HMR_METRICS: readonly MetricName[] = ['r_o', 'r_u', 'hmr', 'hmr_beta'];

/** RAFT's leaderboard ranks by macro-F1, so a RAFT report leads with it whatever its kind. */
const FORMAT_HEADLINE: Partial<Record<FormatName, MetricName>> = { raft: 'macro_f1', alpacaeval: 'win_rate', 'mt-bench': 'judge_score', arena: 'rating', 'arena-hard': 'win_rate' };

/** The one number that stands for a report: ECE for risk scores, MSE for probabilities, macro-F1 for RAFT, else accuracy. */
export function headlineMetric(r: { format: FormatName; kind: Kind }): MetricName {
  // A scores report has no set metric: 'accuracy' stands in (it is absent, so nothing is shown for it).
  return FORMAT_HEADLINE[r.format] ?? (KIND_METRICS[r.kind].summary as readonly MetricName[])[0] ?? 'accuracy';
}

/** `list` with the report's headline moved to the front. */
function headlineFirst(r: { format: FormatName; kind: Kind }, list: readonly MetricName[]): MetricName[] {
  const head = headlineMetric(r);
  return [head, ...list.filter((m) => m !== head)];
}

/**
 * Cards a format adds to its kind's. None today: Inspect's stderr is no figure to rank by (it
 * showed as a card with "lower is better"); it is the accuracy card's interval and the Error bars
 * table's standard error instead (issue 28.6).
 */
const FORMAT_CARDS: Partial<Record<FormatName, readonly MetricName[]>> = {};

/** The metric cards of a report, headline first. */
export function cardMetrics(r: { format: FormatName; kind: Kind }): MetricName[] {
  return headlineFirst(r, [...(FORMAT_CARDS[r.format] ?? []), ...KIND_METRICS[r.kind].cards]);
}

/** The one-line summary's metrics of a report, headline first. */
export function summaryMetrics(r: { format: FormatName; kind: Kind }): MetricName[] {
  return headlineFirst(r, KIND_METRICS[r.kind].summary);
}
