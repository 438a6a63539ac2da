// Aligning runs of one benchmark instance by instance (issue 7, "Core"): by ID when the files have
// them (folktexts' index, RAFT `ID`, lm-eval `doc_id`, ALMANACS question id, the generic id
// column), by row order only when no file has IDs and the row counts agree (with a warning).
// Instances missing from some run are counted per run, reported as problems and left out.
//
// The aligned instances come in ascending ID order, not in any file's row order, so shuffling a
// file's rows changes nothing downstream (the paired bootstrap draws by aligned position). Whole-
// number IDs are merged through one sort of a Float64Array per run; other IDs go through Maps.
import type { PredictionSet, RowProblem } from '../types';
import { sortWithOrder } from '../metrics/sort';

export interface AlignRun {
  /** Shown in problems. */
  path: string;
  set: PredictionSet;
}

export interface Alignment {
  /** Aligned instances. */
  n: number;
  /** rows[r][k]: the row of run r's set that holds aligned instance k. */
  rows: Uint32Array[];
  /** Per run: scored rows left out (not in every run, or a repeated ID). */
  unmatched: number[];
  by: 'id' | 'row-order';
  /** The ID of each aligned instance (as text), when aligned by ID. */
  ids?: string[];
  /** Warnings and infos about the alignment, each naming its file. */
  problems: RowProblem[];
}

/** Why runs cannot be compared: shown as the whole answer, and nothing is written anywhere. */
export class CompareError extends Error {
  /** `notApplicable`: the runs are read, but compare has no comparison of their kind (the message says why). */
  constructor(message: string, readonly notApplicable = false) {
    super(message);
  }
}

/** IDs listed in an unmatched-rows problem before "...". */
const EXAMPLES = 3;

/** Align the runs' sets (two or more). Throws CompareError when there is nothing to compare. */
export function alignRuns(runs: readonly AlignRun[]): Alignment {
  const withIds = runs.filter((r) => hasIds(r.set));
  if (withIds.length === 0) return alignByRowOrder(runs);
  if (withIds.length < runs.length) {
    const without = runs.filter((r) => !hasIds(r.set)).map((r) => r.path);
    throw new CompareError(`Cannot align the runs: ${without.join(', ')} ${without.length === 1 ? 'has' : 'have'} no instance IDs while ${withIds.map((r) => r.path).join(', ')} ${withIds.length === 1 ? 'has' : 'have'}; give every file an ID column (or none).`);
  }
  const numeric = runs.every((r) => r.set.idNumbers !== undefined);
  const a = numeric ? alignNumeric(runs) : alignText(runs);
  if (a.n === 0) throw new CompareError(`No instance is in every run: the files share no ID (${runs.map((r) => describeIds(r.set)).join('; ')}).`);
  return a;
}

function hasIds(set: PredictionSet): boolean {
  return set.idNumbers !== undefined || set.ids !== undefined;
}

function alignByRowOrder(runs: readonly AlignRun[]): Alignment {
  const counts = runs.map((r) => r.set.n);
  if (counts.some((c) => c !== counts[0])) {
    throw new CompareError(`Cannot align the runs: no file has instance IDs and the row counts differ (${runs.map((r, i) => `${r.path}: ${counts[i]}`).join(', ')}).`);
  }
  const identity = new Uint32Array(counts[0]);
  for (let i = 0; i < identity.length; i++) identity[i] = i;
  return {
    n: counts[0],
    rows: runs.map(() => identity),
    unmatched: runs.map(() => 0),
    by: 'row-order',
    problems: [{
      line: 1, severity: 'warning', code: 'missing-field', path: runs[0].path,
      message: `No file has instance IDs: the ${counts[0]} rows of each run are paired by row order, which is right only if every file lists the same instances in the same order.`,
    }],
  };
}

/** Whole-number IDs: sort each run's IDs once, then walk the sorted lists together. */
function alignNumeric(runs: readonly AlignRun[]): Alignment {
  const sortedRuns = runs.map((r) => sortWithOrder(r.set.idNumbers!));
  const k = runs.length;
  const pos = new Array<number>(k).fill(0);
  const cap = Math.min(...runs.map((r) => r.set.n));
  const rows = runs.map(() => new Uint32Array(cap));
  const ids: number[] = [];
  let n = 0;
  for (;;) {
    // The largest of the current heads: every run advances to it; if all sit on it, it is common.
    let target = -Infinity;
    let done = false;
    for (let r = 0; r < k; r++) {
      const { sorted } = sortedRuns[r];
      if (pos[r] >= sorted.length || sorted[pos[r]] !== sorted[pos[r]]) { done = true; break; } // end or NaN (no ID)
      if (sorted[pos[r]] > target) target = sorted[pos[r]];
    }
    if (done) break;
    let all = true;
    for (let r = 0; r < k; r++) {
      const { sorted } = sortedRuns[r];
      while (pos[r] < sorted.length && sorted[pos[r]] < target) pos[r]++;
      if (pos[r] >= sorted.length || sorted[pos[r]] !== target) all = false;
    }
    if (!all) continue;
    for (let r = 0; r < k; r++) {
      rows[r][n] = sortedRuns[r].order[pos[r]]; // stable sort: the first row with this ID
      const { sorted } = sortedRuns[r];
      while (pos[r] < sorted.length && sorted[pos[r]] === target) pos[r]++; // repeats are left out
    }
    ids.push(target);
    n++;
  }
  const trimmed = rows.map((r) => r.slice(0, n));
  return finish(runs, trimmed, n, ids.map(String));
}

/** Text IDs (or a mix): a Map per run, then the IDs common to all, sorted. */
function alignText(runs: readonly AlignRun[]): Alignment {
  const maps = runs.map((r) => {
    const map = new Map<string, number>();
    const n = r.set.n;
    for (let i = 0; i < n; i++) {
      const id = idText(r.set, i);
      if (id !== '' && !map.has(id)) map.set(id, i);
    }
    return map;
  });
  const common = [...maps[0].keys()].filter((id) => maps.every((m) => m.has(id)));
  common.sort(compareIds);
  const rows = maps.map((m) => Uint32Array.from(common, (id) => m.get(id)!));
  return finish(runs, rows, common.length, common);
}

/** Numeric order for whole numbers (so "9" < "10"), text order otherwise. */
function compareIds(a: string, b: string): number {
  const na = /^\d{1,15}$/.test(a) ? Number(a) : NaN;
  const nb = /^\d{1,15}$/.test(b) ? Number(b) : NaN;
  if (na === na && nb === nb) return na - nb;
  if (na === na) return -1;
  if (nb === nb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function idText(set: PredictionSet, i: number): string {
  if (set.idNumbers) {
    const v = set.idNumbers[i];
    return v === v ? String(v) : '';
  }
  return set.ids?.[i] ?? '';
}

/** Unmatched counts and their problems. */
function finish(runs: readonly AlignRun[], rows: Uint32Array[], n: number, ids: string[]): Alignment {
  const problems: RowProblem[] = [];
  const unmatched = runs.map((run, r) => {
    const left = run.set.n - n;
    if (left > 0) problems.push(unmatchedProblem(run, rows[r], left));
    return left;
  });
  return { n, rows, unmatched, by: 'id', ids, problems };
}

function unmatchedProblem(run: AlignRun, kept: Uint32Array, left: number): RowProblem {
  const used = new Uint8Array(run.set.n);
  for (let k = 0; k < kept.length; k++) used[kept[k]] = 1;
  const examples: string[] = [];
  let first = -1;
  for (let i = 0; i < run.set.n && examples.length < EXAMPLES; i++) {
    if (used[i]) continue;
    if (first < 0) first = i;
    const id = idText(run.set, i);
    examples.push(`${id === '' ? '(no ID)' : JSON.stringify(id)} on line ${run.set.lines[i]}`);
  }
  return {
    line: first >= 0 ? run.set.lines[first] : 1, severity: 'warning', code: 'missing-field', path: run.path,
    message: `${left} scored row${left === 1 ? ' is' : 's are'} left out of the comparison: ${left === 1 ? 'its ID is' : 'their IDs are'} not in every run, or repeated (${examples.join(', ')}${left > examples.length ? ', ...' : ''}).`,
  };
}

function describeIds(set: PredictionSet): string {
  const shown: string[] = [];
  for (let i = 0; i < set.n && shown.length < 2; i++) shown.push(JSON.stringify(idText(set, i)));
  return `${set.n} rows, e.g. ${shown.join(', ')}`;
}
