// A word-level diff of two texts (the sample view's two final outputs, issue 29): the texts cut into
// words and the runs of space between them, and the shortest edit script between the two word
// lists (Myers, "An O(ND) difference algorithm", 1986), so equal words line up and the rest are
// removed (only in the first text) or added (only in the second). Pure: the page runs it.

export interface DiffPart {
  op: 'same' | 'removed' | 'added';
  text: string;
}

/** Words and the spaces after them: "a  b\n" → ["a  ", "b\n"]; leading space is a token of its own. */
export function wordTokens(text: string): string[] {
  return text.match(/^\s+|\S+\s*/g) ?? [];
}

/** Tokens compare by their word (trailing spaces aside), so a reflowed line still lines up. */
function key(token: string): string {
  return token.trimEnd();
}

/** The edit script between `a` and `b` as runs of equal, removed and added tokens (in order: removals before additions). */
function myers(a: string[], b: string[]): DiffPart[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && key(a[x]) === key(b[y])) { x++; y++; }
      v[offset + k] = x;
      if (x >= n && y >= m) { found = true; break; }
    }
  }
  // Walk back through the frontiers saved at the start of each step (trace[d]).
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text = text + last.text;
    else parts.push({ op, text });
  };
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const frontier = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && frontier[offset + k - 1] < frontier[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = frontier[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) { push('same', b[y - 1]); x--; y--; }
    if (d > 0) {
      if (x === prevX) push('added', b[prevY]);
      else push('removed', a[prevX]);
    }
    x = prevX;
    y = prevY;
  }
  return parts.reverse();
}

/** Above this many words on either side the texts are compared on their first words only (the rest is said). */
export const MAX_DIFF_WORDS = 20_000;

export interface WordDiff {
  parts: DiffPart[];
  /** Words left out of the comparison at the end of each text (too long). */
  cut: [number, number];
  removed: number;
  added: number;
  same: number;
}

/** The word diff of `before` (the baseline's output) and `after` (the candidate's). */
export function wordDiff(before: string, after: string): WordDiff {
  const a = wordTokens(before);
  const b = wordTokens(after);
  const cut: [number, number] = [Math.max(0, a.length - MAX_DIFF_WORDS), Math.max(0, b.length - MAX_DIFF_WORDS)];
  // Common head and tail first: most pairs of outputs differ in a few places.
  const aa = a.slice(0, MAX_DIFF_WORDS);
  const bb = b.slice(0, MAX_DIFF_WORDS);
  let head = 0;
  while (head < aa.length && head < bb.length && key(aa[head]) === key(bb[head])) head++;
  let tail = 0;
  while (tail < aa.length - head && tail < bb.length - head && key(aa[aa.length - 1 - tail]) === key(bb[bb.length - 1 - tail])) tail++;
  const middle = myers(aa.slice(head, aa.length - tail), bb.slice(head, bb.length - tail));
  const parts: DiffPart[] = [];
  const add = (p: DiffPart) => {
    if (!p.text) return;
    const last = parts[parts.length - 1];
    if (last && last.op === p.op) last.text += p.text;
    else parts.push({ ...p });
  };
  add({ op: 'same', text: bb.slice(0, head).join('') });
  for (const p of middle) add(p);
  add({ op: 'same', text: bb.slice(bb.length - tail).join('') });
  // Only the last word of either text has no space after it: one that is not last here gets one.
  for (let k = 0; k < parts.length - 1; k++) if (!/\s$/.test(parts[k].text)) parts[k].text += ' ';
  const count = (op: DiffPart['op']) => parts.filter((p) => p.op === op).reduce((s, p) => s + wordTokens(p.text).filter((t) => t.trim()).length, 0);
  return { parts, cut, removed: count('removed'), added: count('added'), same: count('same') };
}
