// The judge panels' figures in words and the numbers derived from Report.judge on the page
// (issue 27): the predicted win probabilities from the ratings, the position and length bias and
// the judge's agreement with humans said as sentences, each with its interval. Pure: no DOM.
import type { Report } from '../../src/core/types';
import { formatCount, formatMetric } from '../../src/common/format';

type Judge = NonNullable<Report['judge']>;
type Rating = NonNullable<Judge['ratings']>[number];

/** P(row model beats column model) = 1 / (1 + 10^((R_col − R_row) / 400)), docs/metrics.md#rating. */
export function winProbability(ratingRow: number, ratingColumn: number): number {
  return 1 / (1 + 10 ** ((ratingColumn - ratingRow) / 400));
}

/** The matrix of predicted win probabilities, models in the ratings' order (best first). */
export function winProbabilityMatrix(ratings: readonly Pick<Rating, 'rating'>[]): number[][] {
  return ratings.map((r) => ratings.map((c) => winProbability(r.rating, c.rating)));
}

/** "0.27 [0.20, 0.35]" */
function withInterval(value: number | null, interval: [number, number] | null | undefined, digits = 3): string {
  return `${formatMetric(value, digits)}${interval ? ` (95% interval ${formatMetric(interval[0], digits)} to ${formatMetric(interval[1], digits)})` : ''}`;
}

function percent(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : `${(100 * value).toFixed(digits)}%`;
}

/** Position bias in words: how often the verdict changed with the order, and which way. */
export function positionBiasWords(bias: NonNullable<Judge['position_bias']>): string {
  if (!bias.pairs) return 'No pair was judged validly in both orders.';
  const interval = bias.interval ? ` (95% Wilson interval ${percent(bias.interval[0])} to ${percent(bias.interval[1])})` : '';
  const parts = [
    `The judge's verdict changed when the two answers were swapped on ${formatCount(bias.differ)} of ${formatCount(bias.pairs)} pairs: ${percent(bias.rate)}${interval}.`,
  ];
  if (bias.differ) {
    parts.push(`Of those, the answer shown first won in both orders ${formatCount(bias.first_shown)} times, the answer shown second ${formatCount(bias.second_shown)} times, and ${formatCount(bias.tie_in_one)} were a win in one order and a tie in the other.`);
    if (bias.first_shown > 2 * bias.second_shown && bias.first_shown >= 5) parts.push('The judge leans towards the answer it reads first.');
    else if (bias.second_shown > 2 * bias.first_shown && bias.second_shown >= 5) parts.push('The judge leans towards the answer it reads second.');
  }
  parts.push('Under the two-order rule a pair whose orders disagree counts as a tie.');
  return parts.join(' ');
}

/** Length bias in words: the correlation of the outcome with the length difference, and what it means. */
export function lengthBiasWords(bias: NonNullable<Judge['length_bias']>): string {
  if (bias.correlation === null) return `No correlation over ${formatCount(bias.n)} comparisons (too few, or one side of it does not vary).`;
  const r = bias.correlation;
  const i = bias.interval;
  const reading = i && i[0] > 0 ? 'the judge favours the longer answer (the interval is above 0).'
    : i && i[1] < 0 ? 'the judge favours the shorter answer (the interval is below 0).'
      : 'no clear relation between length and verdict (the interval includes 0).';
  return `Pearson's correlation between the outcome and the difference in length is ${withInterval(r, i)} over ${formatCount(bias.n)} comparisons (${bias.of}): ${reading}`;
}

/** The judge against humans in one sentence: agreement and Cohen's kappa with its interval. */
export function agreementWords(a: NonNullable<Judge['agreement']>[number]): string {
  const kappa = a.kappa === null ? 'Cohen\'s kappa is undefined (chance agreement is 1)' : `Cohen's kappa ${withInterval(a.kappa, a.kappa_interval)}`;
  return `${a.judge} against ${a.human} on ${formatCount(a.n)} samples judged by both: they agree on ${percent(a.agreement)} of them (${formatMetric(a.agreement)}); ${kappa}, which takes out the agreement expected by chance.`;
}

/** Invalid verdicts in one sentence, or null when there are none. */
export function invalidWords(judge: Judge): string | null {
  if (!judge.invalid) return null;
  const lines = judge.invalid_lines?.length ? ` (first on line${judge.invalid_lines.length === 1 ? '' : 's'} ${judge.invalid_lines.slice(0, 5).join(', ')}${judge.invalid_lines.length > 5 ? ', …' : ''})` : '';
  return `${formatCount(judge.invalid)} verdict${judge.invalid === 1 ? ' was' : 's were'} invalid: ${judge.invalid_what ?? 'the judge\'s verdict could not be read'}${lines}. They are left out of n and of every figure on this page.`;
}

/** "7.021 [5.429, 8.613]", or "9.000 (one question: no interval)". */
export function meanText(m: { mean: number | null; interval: [number, number] | null; questions: number }): string {
  if (m.mean === null) return '—';
  if (m.interval) return `${formatMetric(m.mean)} [${formatMetric(m.interval[0])}, ${formatMetric(m.interval[1])}]`;
  return `${formatMetric(m.mean)} (${m.questions < 2 ? 'one question: no interval' : 'no interval'})`;
}
