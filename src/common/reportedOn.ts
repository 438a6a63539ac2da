// Reported figures over more samples than the file holds (an lm-eval samples file written with
// --limit, or cut short, beside a results file over the whole task): they stand beside the
// recomputed figures with the count they were computed on ("reported 0.5107 on 609 samples"), and
// are never flagged as disagreeing with them. Pure; shared by the core, src/documents/ and webview/.

/** Whether the report's reported figures are over more samples than it scored (Report.reportedOn > n). */
export function reportedOnMore(r: { n: number; reportedOn?: number }): boolean {
  return r.reportedOn !== undefined && r.reportedOn > r.n;
}

/** " on 609 samples" after a reported figure computed on more samples than the file holds; '' otherwise. */
export function reportedOnText(r: { n: number; reportedOn?: number }): string {
  return reportedOnMore(r) ? ` on ${r.reportedOn!.toLocaleString('en-US')} samples` : '';
}
