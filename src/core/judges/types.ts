// What a report says of an LLM-as-judge file (Report.judge): judged scores per model, pairwise
// preferences and win rates, arena ratings, and the judge's own reliability. Filled by the judge
// readers of this folder; the shapes grow with them.

export interface JudgeReport {
  /** judged: a grade on the judge's scale (MT-Bench single); pairwise: preferences between two outputs; arena: ratings over many pairs. */
  kind: 'judged' | 'pairwise' | 'arena';
  /** The judge(s) as the file names them. */
  judges?: string[];
  /** Verdicts that could not be read (MT-Bench's -1, an "error" verdict): counted, left out of every figure. */
  invalid: number;
  /** Everything else the reader computes, by name (win rates, counts, ratings, biases, agreement). */
  [figure: string]: unknown;
}
