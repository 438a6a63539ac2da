// Which instances of two runs are the same instance: by ID when both files have IDs, else by row
// order. Runs in the scoring worker (plain Node, no vscode).
import type { Report } from '../core/types';

/** Index pairs (baseline row, run row) of the instances both have: by ID, else by row order. */
export function alignPairs(a: Pick<Report, 'instances'>, b: Pick<Report, 'instances'>): { left: Uint32Array; right: Uint32Array; byId: boolean } {
  const ia = a.instances!;
  const ib = b.instances!;
  if (ia.ids && ib.ids) {
    const at = new Map<string, number>();
    ib.ids.forEach((id, j) => { if (!at.has(id)) at.set(id, j); });
    const left: number[] = [];
    const right: number[] = [];
    ia.ids.forEach((id, i) => {
      const j = at.get(id);
      if (j !== undefined) { left.push(i); right.push(j); }
    });
    return { left: Uint32Array.from(left), right: Uint32Array.from(right), byId: true };
  }
  const n = Math.min(ia.lines.length, ib.lines.length);
  const seq = Uint32Array.from({ length: n }, (_, i) => i);
  return { left: seq, right: seq.slice(), byId: false };
}

