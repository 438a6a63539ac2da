// The parts of a report's intervals pass not made yet, shared between the scoring workers (issue
// 28.11): parts made ahead in the idle worker are kept at a click, the workers make the rest side
// by side (ReportScoring.scoreParts). Pure: no vscode.

/**
 * The shares (index, span) that make the parts of `count` not `done`: at most `workers`, each a run
 * of neighbouring parts; the longest run is halved until there are as many shares as workers (or
 * every share is one part). Nothing done, two workers, two parts: the two halves of the pass.
 */
export function sharesOf(count: number, done: readonly unknown[], workers: number): { index: number; span: number }[] {
  const shares: { index: number; span: number }[] = [];
  for (let index = 0; index < count; index++) {
    if (done[index]) continue;
    const last = shares.at(-1);
    if (last && last.index + last.span === index) last.span++;
    else shares.push({ index, span: 1 });
  }
  for (;;) {
    if (shares.length >= workers) break;
    let longest = 0;
    for (let k = 1; k < shares.length; k++) if (shares[k].span > shares[longest].span) longest = k;
    const share = shares[longest];
    if (!share || share.span < 2) break;
    const half = Math.ceil(share.span / 2);
    shares.splice(longest, 1, { index: share.index, span: half }, { index: share.index + half, span: share.span - half });
  }
  return shares;
}
