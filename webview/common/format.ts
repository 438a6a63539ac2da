// Number and label formatting for the report. Pure functions (unit-tested); no DOM.
import type { MetricName } from '../../src/core/types';
import { formatMetric } from '../../src/common/format';

export { formatBinRange, formatCount, formatMetric, kindAxes } from '../../src/common/format';

/** "0.043 [0.031, 0.056]", or just the value when there is no interval. */
export function formatWithInterval(value: number | null | undefined, interval?: [number, number] | null): string {
  const v = formatMetric(value);
  if (!interval) return v;
  return `${v} [${formatMetric(interval[0])}, ${formatMetric(interval[1])}]`;
}

/** A per-instance value in the table: up to 4 decimals, "—" when unknown. */
export function formatCell(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(4);
}

export interface MetricInfo {
  label: string;
  /** One line shown as the card's tooltip. */
  help: string;
}

export const METRIC_INFO: Record<MetricName, MetricInfo> = {
  stderr: { label: 'Std. error', help: 'Standard error of the mean score, as Inspect computes it: sample SD / sqrt(n).' },
  accuracy: { label: 'Accuracy', help: 'Share of instances whose predicted class is right.' },
  auc: { label: 'ROC AUC', help: 'Area under the ROC curve; ties count one half.' },
  macro_f1: { label: 'Macro-F1', help: 'Unweighted mean of per-class F1.' },
  raft_score: { label: 'RAFT score', help: 'Mean macro-F1 over the RAFT tasks scored.' },
  brier: { label: 'Brier score', help: 'Mean squared error of the predicted probabilities.' },
  nbr: { label: 'Normalised Brier', help: 'Multiclass Brier score / 2, in [0, 1].' },
  log_loss: { label: 'Log loss', help: 'Negative mean log-likelihood (scores clipped to [1e-15, 1 - 1e-15]).' },
  ece: { label: 'ECE', help: 'Expected calibration error over equal-width bins, weighted by bin size.' },
  ece_quantile: { label: 'ECE (equal-count)', help: 'Unweighted mean calibration gap over equal-count bins.' },
  mce: { label: 'MCE', help: 'Largest calibration gap over the non-empty equal-width bins.' },
  mce_quantile: { label: 'MCE (equal-count)', help: 'Largest calibration gap over the equal-count bins.' },
  ks: { label: 'KS calibration error', help: 'Kolmogorov-Smirnov calibration error (Gupta et al. 2021).' },
  smece: { label: 'Smooth ECE', help: 'Kernel-smoothed calibration error at the bandwidth where it equals the bandwidth (Błasiok & Nakkiran 2023): no bins to choose.' },
  smece_sigma: { label: 'smECE bandwidth σ*', help: 'The Gaussian kernel bandwidth at which smooth ECE equals σ; the smoothed reliability curve is drawn at it.' },
  ece_classwise: { label: 'Classwise ECE', help: 'Mean over classes of the equal-width ECE of each class probability against 1[gold = class] (Kull et al. 2019).' },
  hmr: { label: 'HMR', help: 'Harmonic mean of R_O and R_U (rewards for suppressing over- and underconfidence).' },
  r_o: { label: 'R_O', help: '1 - mean confidence of the wrong answers: low when the model is overconfident.' },
  r_u: { label: 'R_U', help: '1 - mean (1 - confidence) of the right answers: low when the model is underconfident.' },
  hmr_beta: { label: 'HMR_β', help: 'F-measure form of HMR; β > 1 weighs underconfidence more.' },
  mse: { label: 'MSE', help: 'Mean squared error between predicted and true probability.' },
  tvd: { label: 'TVD', help: 'Mean absolute difference (total variation distance of two Bernoullis).' },
  kl: { label: 'KL', help: 'Mean KL(true || predicted) of two Bernoullis.' },
  spearman: { label: 'Spearman ρ', help: 'Rank correlation of predicted and true probability.' },
  acc_norm: { label: 'Accuracy (length-normalised)', help: 'lm-eval acc_norm: the choice with the highest loglikelihood per character is the prediction.' },
  perplexity: { label: 'Perplexity', help: 'exp(-mean loglikelihood of the target continuation), as lm-eval reports it.' },
  judge_score: { label: 'Judge score', help: "Mean of the judge's valid grades on its own scale (MT-Bench 1-10); invalid grades (-1) are left out." },
  win_rate: { label: 'Win rate', help: "AlpacaEval: percent of comparisons won against the baseline, a draw half. FastChat pairs: wins / pairs (ties count 0)." },
  win_rate_adjusted: { label: 'Win rate (ties ½)', help: "FastChat's win_rate_adjusted: (wins + ties / 2) / pairs under the two-order rule." },
  rating: { label: 'Arena rating', help: 'Bradley-Terry rating on the Elo scale (400 log10 odds), models centred on 1000; bootstrap interval over battles.' },
  position_bias: { label: 'Position bias', help: "Share of pairs judged in both orders whose two verdicts differ: the judge's answer depends on which answer it saw first." },
  length_bias: { label: 'Length bias', help: "Correlation between a comparison's outcome and how much longer the answer was (characters)." },
  agreement: { label: 'Agreement with humans', help: 'Share of samples where the judge gives the same verdict as the human.' },
  kappa: { label: "Cohen's κ", help: "Judge-human agreement beyond chance: (p_o - p_e) / (1 - p_e)." },
  confidence_auroc: { label: 'Confidence AUROC', help: "How well the stated confidence tells right answers from wrong ones: the chance that a right answer's confidence is above a wrong one's (ties count ½)." },
  confidence_brier: { label: 'Confidence Brier', help: 'Mean squared gap between the stated confidence and correctness (1 right, 0 wrong).' },
};

/** Where a metric is defined: its entry in the bundled docs/metrics.md (the heading is the JSON key). */
export function metricDocAnchor(name: MetricName): string {
  return `docs/metrics.md#${name}`;
}

/** A card's tooltip: the one-line definition, the value with its interval, and where to read more. */
export function metricTooltip(name: MetricName, valueText: string): string {
  return `${METRIC_INFO[name].help}\n${valueText}\nDefinition: ${metricDocAnchor(name)} (the ? button opens it)`;
}

/**
 * Whether a reported figure disagrees with the recomputed one: the core's tolerance (report.ts
 * `agrees`), so a benchmark that printed 4 decimals is not flagged.
 */
export function disagrees(recomputed: number | null | undefined, reported: number | null | undefined): boolean {
  if (reported === null || reported === undefined || !Number.isFinite(reported)) return false;
  if (recomputed === null || recomputed === undefined || !Number.isFinite(recomputed)) return false;
  return Math.abs(reported - recomputed) > Math.max(5e-4, 1e-3 * Math.abs(recomputed));
}

/**
 * The sentence under R_O / R_U / HMR. R_O rewards low confidence on wrong answers, R_U high
 * confidence on right ones: whichever reward is lower names the way the model leans.
 */
export function leaningSentence(
  rO: number | null | undefined, rU: number | null | undefined, counts?: { right: number; wrong: number },
): string {
  if (rO == null || rU == null || !Number.isFinite(rO) || !Number.isFinite(rU)) {
    return 'R_O and R_U are not available for this report.';
  }
  // With no wrong (or no right) answer one reward is 1 by definition and says nothing.
  if (counts && counts.wrong === 0 && counts.right === 0) return 'No instance has a known correctness: R_O and R_U say nothing here.';
  if (counts && counts.wrong === 0) {
    return `Every answer is right, so R_O is 1 by definition. R_U (${formatMetric(rU)}): the right answers fall short of full confidence by ${formatMetric(1 - rU)} on average${1 - rU >= 0.02 ? ', so the model leans underconfident' : ''}.`;
  }
  if (counts && counts.right === 0) {
    return `Every answer is wrong, so R_U is 1 by definition. R_O (${formatMetric(rO)}): the wrong answers carry ${formatMetric(1 - rO)} confidence on average${1 - rO >= 0.02 ? ', so the model leans overconfident' : ''}.`;
  }
  const diff = rO - rU;
  if (Math.abs(diff) < 0.02) {
    return `R_O (${formatMetric(rO)}) and R_U (${formatMetric(rU)}) are within 0.02: the model leans neither over- nor underconfident.`;
  }
  // 1 - R_O is the mean confidence of the wrong answers; 1 - R_U the mean shortfall from full
  // confidence of the right ones.
  const wrongConfidence = formatMetric(1 - rO);
  const rightShortfall = formatMetric(1 - rU);
  if (diff < 0) {
    return `R_O (${formatMetric(rO)}) is lower than R_U (${formatMetric(rU)}): the model leans overconfident. Its wrong answers carry ${wrongConfidence} confidence on average, while its right answers fall short of full confidence by only ${rightShortfall}.`;
  }
  return `R_U (${formatMetric(rU)}) is lower than R_O (${formatMetric(rO)}): the model leans underconfident. Its right answers fall short of full confidence by ${rightShortfall} on average, while its wrong answers carry only ${wrongConfidence} confidence.`;
}
