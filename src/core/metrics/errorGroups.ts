// Error groups: the mistakes of a labelled set counted by (gold, predicted) pair, most frequent
// first, so "where does it fail?" starts from the pairs that cost the most. Free-text answers
// (MulticlassSet.freeText) have no classes: their wrong answers are grouped by the answer itself,
// trimmed and case-folded, and shown as the model wrote them (the group's most frequent spelling,
// spaces collapsed): an error message or a name in lower case reads as something it never said.
import { decisionAt } from './decisions';
import type { BinarySet, ErrorGroup, MulticlassSet } from '../types';

const byCount = (a: ErrorGroup, b: ErrorGroup) =>
  b.count - a.count || cmp(a.gold ?? '', b.gold ?? '') || cmp(a.predicted, b.predicted);

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Free text as a group key: trimmed, inner whitespace collapsed, case-folded. */
export function normalizedAnswer(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Free text as shown: trimmed and inner whitespace collapsed (one line), its case kept. */
function shownAnswer(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** The misclassified rows of a multiclass set by pair (or by normalised answer for free text). */
export function multiclassErrorGroups(set: Pick<MulticlassSet, 'classes' | 'gold' | 'pred' | 'freeText'>): ErrorGroup[] {
  const counts = new Map<string, ErrorGroup>();
  // Free text: each group's spellings and how often each was written (first seen first).
  const spellings = new Map<string, Map<string, number>>();
  const { gold, pred, classes } = set;
  for (let i = 0; i < gold.length; i++) {
    if (gold[i] === pred[i]) continue;
    const written = classes[pred[i]] ?? '';
    const predicted = set.freeText ? normalizedAnswer(written) : written;
    const goldName = set.freeText ? null : classes[gold[i]] ?? '';
    const key = `${goldName}\u0000${predicted}`;
    const group = counts.get(key);
    if (group) group.count++;
    else counts.set(key, { gold: goldName, predicted, count: 1 });
    if (set.freeText) {
      const shown = shownAnswer(written);
      let forms = spellings.get(key);
      if (!forms) spellings.set(key, (forms = new Map()));
      forms.set(shown, (forms.get(shown) ?? 0) + 1);
    }
  }
  for (const [key, forms] of spellings) {
    let best = '', most = 0;
    for (const [form, n] of forms) if (n > most) { best = form; most = n; }
    counts.get(key)!.predicted = best;
  }
  return [...counts.values()].sort(byCount);
}

/** A binary set's mistakes at the threshold: false negatives (1 → 0) and false positives (0 → 1). */
export function binaryErrorGroups(set: Pick<BinarySet, 'score' | 'label' | 'pred'>, threshold: number): ErrorGroup[] {
  let fn = 0, fp = 0;
  for (let i = 0; i < set.label.length; i++) {
    const predicted = decisionAt(set, threshold, i);
    if (predicted === set.label[i]) continue;
    if (set.label[i] === 1) fn++;
    else fp++;
  }
  const groups: ErrorGroup[] = [];
  if (fn) groups.push({ gold: '1', predicted: '0', count: fn });
  if (fp) groups.push({ gold: '0', predicted: '1', count: fp });
  return groups.sort(byCount);
}
