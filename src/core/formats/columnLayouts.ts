// Column layouts of generic tables beyond one column per role, as published projects write them:
//  - per-class probabilities: p_<class>, prob_<class>, proba_<class>, probability_<class>,
//    <class>_prob (a 3-class detector's p_ai, p_human, p_post_edited_ai) -> multiclass with probs;
//  - one probability column for the positive class: Probability_Malignant -> the binary score;
//  - several models side by side: Prob_LogReg, Pred_LogReg, Prob_SVM, Pred_SVM -> one model at a
//    time (the first, or options.model), the list kept for the comparison;
// Which layout a table has is decided by the column roles (roles.ts), from names and content; this
// file keeps the name patterns the JSON reader uses to thin records, and the 0/1 test.
// Matching ignores case, as resolveColumns does.

const PREFIX = /^(?:p|prob|proba|probability|score)_(.+)$/i;
const SUFFIX = /^(.+)_(?:prob|proba|probability)$/i;
const PRED_PREFIX = /^(?:pred|prediction|predicted)_(.+)$/i;
const PRED_SUFFIX = /^(.+)_(?:pred|prediction|predicted)$/i;

/** A column some layout may take (kept when JSON records are thinned to the columns that matter). */
export function isLayoutColumn(name: string): boolean {
  const t = name.trim();
  return PREFIX.test(t) || SUFFIX.test(t) || PRED_PREFIX.test(t) || PRED_SUFFIX.test(t);
}

/** A probability column and the name it carries (a class or a model). */
export interface NamedColumn { name: string; column: string }

export type Layout =
  | { kind: 'classProbs'; classes: NamedColumn[] }
  | { kind: 'models'; models: { name: string; prob?: string; pred?: string }[] }
  | { kind: 'positiveProb'; column: string };

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : String(v));

/** 0/1, True/False, Yes/No in every sampled value. */
export function binaryValues(values: unknown[]): boolean {
  let any = false;
  for (const v of values) {
    if (isBlank(v)) continue;
    any = true;
    const s = text(v).toLowerCase();
    if (!(s === '0' || s === '1' || s === 'true' || s === 'false' || s === '0.0' || s === '1.0' || s === 'yes' || s === 'no')) return false;
  }
  return any;
}
