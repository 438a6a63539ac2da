// Small prediction sets built in memory for the comparison tests (seeded, so every run is the same).
import type { BinarySet, MulticlassSet, ParseResult, ProbabilitySet } from '../../../src/core/types';
import type { CompareRunInput } from '../../../src/core/compare/compare';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';

export interface BinaryRows {
  id: number[];
  score: number[];
  label: number[];
}

/** n instances with IDs 1000 + 7 i, labels ~ 40% positive, and two systems' scores of some skill. */
export function twoBinaryRuns(n: number, seed = 1): [BinaryRows, BinaryRows] {
  const rand = mulberry32(seed);
  const id: number[] = [];
  const label: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    id.push(1000 + 7 * i);
    const y = rand() < 0.4 ? 1 : 0;
    label.push(y);
    const noise = rand();
    a.push(Math.round((0.25 * y + 0.75 * noise) * 1000) / 1000);
    b.push(Math.round((0.4 * y + 0.6 * (0.5 * noise + 0.5 * rand())) * 1000) / 1000);
  }
  return [{ id, score: a, label }, { id: id.slice(), score: b, label: label.slice() }];
}

export function binaryRun(path: string, rows: BinaryRows, ids: 'numbers' | 'text' | 'none' = 'numbers'): CompareRunInput {
  const set: BinarySet = {
    kind: 'binary', n: rows.id.length, lines: Uint32Array.from(rows.id, (_, i) => i + 2),
    score: Float64Array.from(rows.score), label: Uint8Array.from(rows.label),
  };
  if (ids === 'numbers') set.idNumbers = Float64Array.from(rows.id);
  if (ids === 'text') set.ids = rows.id.map((v) => `q${v}`);
  return { path, parsed: parsed('folktexts', set) };
}

export function parsed(format: ParseResult['format'], set: ParseResult['set'], task?: string): ParseResult {
  return { format, set, problems: [], skipped: 0, unlabeled: 0, ...(task ? { task } : {}) };
}

/** The rows at the given positions, in that order. */
export function pick(rows: BinaryRows, at: number[]): BinaryRows {
  return { id: at.map((i) => rows.id[i]), score: at.map((i) => rows.score[i]), label: at.map((i) => rows.label[i]) };
}

export function shuffled(n: number, seed: number): number[] {
  const rand = mulberry32(seed);
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [p[i], p[j]] = [p[j], p[i]];
  }
  return p;
}

export function multiclassRun(path: string, classes: string[], gold: number[], pred: number[], ids: string[], task?: string): CompareRunInput {
  const set: MulticlassSet = {
    kind: 'multiclass', n: gold.length, lines: Uint32Array.from(gold, (_, i) => i + 2), ids,
    classes, classesKnown: true, gold: Int32Array.from(gold), pred: Int32Array.from(pred),
  };
  return { path, parsed: parsed('raft', set, task) };
}

export function probabilityRun(path: string, pred: number[], gold: number[], ids: string[]): CompareRunInput {
  const set: ProbabilitySet = {
    kind: 'probability', n: gold.length, lines: Uint32Array.from(gold, (_, i) => i + 2), ids,
    predProb: Float64Array.from(pred), goldProb: Float64Array.from(gold),
  };
  return { path, parsed: parsed('almanacs', set) };
}
