// A multiple-choice HELM run declares its classes: the letters of each request's output_mapping.
// A completion that is no letter ("The ..." from a model that answered in prose) is still shown as
// a predicted class, but macro-F1 must average over the declared letters only (docs/metrics.md:
// "all of the task's classes when the task declares them"), as sklearn's
// f1_score(gold, pred, labels=letters, average='macro') does.
import type { MulticlassSet } from '../types';

/** The letters the requests offer, in letter order (A, B, C, ...). */
export function declaredLetters(mappings: readonly Record<string, string>[]): string[] {
  const letters = new Set<string>();
  for (const m of mappings) for (const k of Object.keys(m)) letters.add(k);
  return [...letters].sort((a, b) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The set with `declared` first in its class list (a declared letter nobody gave or predicted is
 * added: its F1 is 0, as it is for sklearn given labels=), the other answers after them, gold and
 * pred renumbered, and declaredClasses set so the macro mean runs over the declared ones.
 */
export function withDeclaredClasses(set: MulticlassSet, declared: readonly string[]): MulticlassSet {
  const declaredSet = new Set(declared);
  const classes = [...declared, ...set.classes.filter((c) => !declaredSet.has(c))];
  const indexOf = new Map(classes.map((c, i) => [c, i]));
  const remap = Int32Array.from(set.classes, (c) => indexOf.get(c)!);
  const renumber = (v: Int32Array) => Int32Array.from(v, (k) => (k >= 0 ? remap[k] : k));
  return { ...set, classes, declaredClasses: declared.length, gold: renumber(set.gold), pred: renumber(set.pred) };
}
