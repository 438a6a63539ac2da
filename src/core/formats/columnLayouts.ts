// Column layouts of generic tables beyond one column per role, as published projects write them:
//  - per-class probabilities: p_<class>, prob_<class>, proba_<class>, probability_<class>,
//    <class>_prob (a 3-class detector's p_ai, p_human, p_post_edited_ai) -> multiclass with probs;
//  - one probability column for the positive class: Probability_Malignant -> the binary score;
//  - several models side by side: Prob_LogReg, Pred_LogReg, Prob_SVM, Pred_SVM -> one model at a
//    time (the first, or options.model), the list kept for the comparison;
//  - when nothing fits, the error lists the columns and the exact --map to write.
// Matching ignores case, as resolveColumns does.
import { readNumberText } from './numbers';

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

function named(names: string[], prefix: RegExp, suffix: RegExp): NamedColumn[] {
  const out: NamedColumn[] = [];
  for (const column of names) {
    const m = prefix.exec(column.trim()) ?? suffix.exec(column.trim());
    if (m && m[1].trim() !== '') out.push({ name: m[1].trim(), column });
  }
  return out;
}

export type Layout =
  | { kind: 'classProbs'; classes: NamedColumn[] }
  | { kind: 'models'; models: { name: string; prob?: string; pred?: string }[] }
  | { kind: 'positiveProb'; column: string };

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : String(v));

/** 0/1, True/False in every sampled value. */
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

/**
 * The layout of a table whose plain role names did not settle it. `label` is the true-class
 * column when one was found; `sample` gives a column's leading values.
 */
export function findLayout(names: string[], label: string | undefined, sample: (name: string) => unknown[]): Layout | undefined {
  const probs = named(names.filter((n) => n !== label), PREFIX, SUFFIX);
  const preds = named(names.filter((n) => n !== label), PRED_PREFIX, PRED_SUFFIX);
  const key = (s: string) => s.toLowerCase();
  const golds = label === undefined ? [] : sample(label).filter((v) => !isBlank(v)).map((v) => key(text(v)));
  // Several models: prediction columns named like the probability columns, or probability
  // columns whose names are not the gold values of a 0/1 label.
  const predNames = new Set(preds.map((p) => key(p.name)));
  const shared = probs.filter((p) => predNames.has(key(p.name)));
  const goldsAreNames = golds.length > 0 && golds.every((g) => probs.some((p) => key(p.name) === g));
  if (shared.length >= 1 && !goldsAreNames && (shared.length >= 2 || preds.length >= 2)) {
    const models = new Map<string, { name: string; prob?: string; pred?: string }>();
    for (const p of probs) models.set(key(p.name), { name: p.name, prob: p.column });
    for (const p of preds) {
      const m = models.get(key(p.name));
      if (m) m.pred = p.column;
      else models.set(key(p.name), { name: p.name, pred: p.column });
    }
    return { kind: 'models', models: [...models.values()] };
  }
  if (probs.length >= 2 && label !== undefined && goldsAreNames) return { kind: 'classProbs', classes: probs };
  if (probs.length >= 2 && label !== undefined && binaryValues(sample(label)) && !goldsAreNames) {
    // 0/1 labels beside several probability columns: models, not classes (p_0/p_1 are classes).
    if (probs.every((p) => /^[01]$/.test(p.name) || /^(true|false)$/i.test(p.name))) return { kind: 'classProbs', classes: probs };
    return { kind: 'models', models: probs.map((p) => ({ name: p.name, prob: p.column })) };
  }
  if (probs.length === 1 && label !== undefined && binaryValues(sample(label))) return { kind: 'positiveProb', column: probs[0].column };
  return undefined;
}

/** Numbers in [0, 1] with some not whole: looks like a probability column. */
function probabilityLike(values: unknown[]): boolean {
  let any = false;
  let fractional = false;
  for (const v of values) {
    if (isBlank(v)) continue;
    const x = typeof v === 'number' ? v : (() => { const t = readNumberText(text(v)); return t.kind === 'number' ? t.value : NaN; })();
    if (!(x >= 0 && x <= 1)) return false;
    any = true;
    if (!Number.isInteger(x)) fractional = true;
  }
  return any && fractional;
}

/**
 * The sentence for a table no layout fits: its columns, and the --map that would most likely
 * score it (a 0/1 column as the label, a probability column as the score), when there is one.
 */
export function ambiguousMessage(
  names: string[], sample: (name: string) => unknown[], prefix: string, known: { id?: string; score?: string } = {},
): string {
  const shown = names.map((n) => (n === '' ? '(unnamed)' : n));
  const list = `${shown.slice(0, 20).join(', ')}${names.length > 20 ? `, ... (${names.length} in all)` : ''}`;
  const label = names.find((n) => n !== '' && n !== known.id && n !== known.score && binaryValues(sample(n)));
  const score = known.score ?? names.find((n) => n !== label && n !== '' && n !== known.id && probabilityLike(sample(n)));
  const suggestion = label !== undefined && score !== undefined
    ? ` To score it, write: --map label=${mapArg(label)} --map score=${mapArg(score)}`
    : ' Name the columns with --map FIELD=COLUMN (FIELD: score, label, confidence, correct, pred, gold, id).';
  // planFor's sentence may list the first columns already.
  return /\(columns: /.test(prefix) ? `${prefix}${suggestion}` : `${prefix} Columns: ${list}.${suggestion}`;
}

function mapArg(name: string): string {
  return /^[A-Za-z0-9_.-]+$/.test(name) ? name : `'${name.replace(/'/g, "'\\''")}'`;
}
