// The instance table's search (issue 20.1): the terms of whereTerms.ts over a report's instances.
// Plain text looks through every text an instance has (its text fields, ID, gold and predicted
// class); `column op value` terms read the instance's named columns: its text fields (Query,
// doc.subject, ...) and the instance table's columns by their headers (binary: score, label, ...)
// or by the search's older names (id, gold, pred, value, target, confidence, correct, brier, line).
// The lower-cased texts are built once per report and kept, so only the first search pays for them.
import type { Kind, Report } from '../core/types';
import { hasInstanceIds, instanceId } from './instanceIds';
import { columnHolds, parseWhere, textHolds, type WhereTerm } from './whereTerms';

export interface SearchIndex {
  n: number;
  /** Each row's texts, as they are and lower-cased (the plain-text search reads these). */
  texts: (i: number) => (string | undefined)[];
  lower: string[];
  /** Row i's value in a column, by any name the search accepts (the table's header or the older one). */
  column: (name: string, i: number) => string | undefined;
  /** The columns by the names the instance table's headers give them (what an error lists). */
  columns: string[];
  /** Every name a column term may use: `columns` and the older names (gold, value, target, ...). */
  accepted: string[];
  /** Adds a column of the file the page did not hold (read by the host on request): value i is row i's. */
  addColumn: (name: string, values: readonly (string | null)[]) => void;
}

const NUMERIC = ['value', 'target', 'confidence', 'brier'] as const;
/** The search's own names, which every kind accepts. */
const OWN = ['id', 'gold', 'pred', 'correct', 'line', ...NUMERIC];

/**
 * The instance table's headers (as the CSV export writes them) for each kind, and the search name
 * each one stands for: a user reads "score" and "label" in the table, so `score > 0.9` and `label = 1`
 * must work; the older names stay accepted.
 */
const HEADERS: Partial<Record<Kind, Record<string, string>>> = {
  binary: { id: 'id', score: 'value', label: 'gold', pred: 'pred', confidence: 'confidence', correct: 'correct', line: 'line', brier: 'brier' },
  multiclass: { id: 'id', gold: 'gold', predicted: 'pred', confidence: 'confidence', correct: 'correct', line: 'line', brier: 'brier' },
  confidence: { id: 'id', confidence: 'value', correct: 'correct', line: 'line', brier: 'brier' },
  probability: { id: 'id', pred_p: 'value', true_p: 'target', line: 'line', brier: 'brier' },
  // Per-sample scores: their own fields are the columns (no gold, prediction or correctness).
  scores: { id: 'id', line: 'line' },
};

/** The search index of a report whose instances have arrived (null before). */
export function searchIndex(report: Report): SearchIndex | null {
  const inst = report.instances;
  if (!inst) return null;
  const n = inst.value.length;
  const classes = report.classes ?? (report.kind === 'binary' ? ['0', '1'] : undefined);
  const fields = report.texts?.fields ?? [];
  const values = report.texts?.values;
  const className = (k: number) => (k >= 0 && classes ? classes[k] : undefined);
  const texts = (i: number) => [...(values?.[i] ?? []), instanceId(inst, i), className(inst.gold[i]), className(inst.pred[i])];
  const lower: string[] = new Array(n);
  for (let i = 0; i < n; i++) lower[i] = texts(i).filter((t) => t !== undefined).join('\u0000').toLowerCase();
  const headers = HEADERS[report.kind] ?? Object.fromEntries(OWN.map((c) => [c, c]));
  const added = new Map<string, readonly (string | null)[]>();
  const column = (asked: string, i: number): string | undefined => {
    const read = added.get(asked);
    if (read) return read[i] ?? undefined;
    const f = fields.indexOf(asked);
    if (f >= 0) return values?.[i]?.[f];
    const name = headers[asked] ?? asked;
    switch (name) {
      case 'id': return instanceId(inst, i);
      case 'gold': return className(inst.gold[i]);
      case 'pred': return className(inst.pred[i]);
      case 'correct': return String(inst.correct[i]);
      case 'line': return String(inst.lines[i]);
      default: {
        if ((NUMERIC as readonly string[]).includes(name)) {
          const v = inst[name as (typeof NUMERIC)[number]][i];
          return Number.isNaN(v) ? undefined : String(v);
        }
        return undefined;
      }
    }
  };
  // Rows without IDs have no 'id' to search: `id = 3` then says so, with the columns there are.
  const own = (c: string) => c !== 'id' || hasInstanceIds(inst);
  const columns = [...fields, ...Object.keys(headers).filter((h) => !fields.includes(h) && own(h))];
  const accepted = [...new Set([...columns, ...(report.kind === 'scores' ? [] : OWN.filter(own))])];
  const addColumn = (name: string, read: readonly (string | null)[]) => {
    added.set(name, read);
    if (!columns.includes(name)) columns.push(name);
    if (!accepted.includes(name)) accepted.push(name);
  };
  return { n, texts, lower, column, columns, accepted, addColumn };
}

/** The columns a query's terms name that the index does not know (in order, each once). */
export function unknownColumns(index: SearchIndex, query: string): string[] {
  const parsed = parseWhere(query);
  if ('error' in parsed) return [];
  return [...new Set(parsed.terms.flatMap((t) => (t.kind === 'column' && !index.accepted.includes(t.column) ? [t.column] : [])))];
}

export type SearchResult = { mask: Uint8Array; count: number } | { error: string };

/** The rows that satisfy `query` (1 in the mask), or a sentence saying why the query means nothing. */
export function searchRows(index: SearchIndex, query: string): SearchResult {
  const parsed = parseWhere(query);
  if ('error' in parsed) return { error: parsed.error };
  const unknown = parsed.terms.find((t) => t.kind === 'column' && !index.accepted.includes(t.column));
  if (unknown && unknown.kind === 'column') return { error: `no column ${JSON.stringify(unknown.column)} here; the instances have ${index.columns.map((c) => JSON.stringify(c)).join(', ')}` };
  const mask = new Uint8Array(index.n);
  let count = 0;
  for (let i = 0; i < index.n; i++) {
    if (holds(parsed.terms, index, i)) { mask[i] = 1; count++; }
  }
  return { mask, count };
}

function holds(terms: readonly WhereTerm[], index: SearchIndex, i: number): boolean {
  for (const term of terms) {
    if (term.kind === 'text') {
      if (!index.lower[i].includes(term.text)) return false;
    } else if (term.kind === 'regex') {
      if (!textHolds(term, index.texts(i))) return false;
    } else if (!columnHolds(term, index.column(term.column, i))) return false;
  }
  return true;
}
