// The compare page's search over its aligned instances (issue 20.1): the --where grammar over a
// pair row's texts and named columns: id, gold, baseline and candidate (their predictions),
// agreement, each text field and each slice column by name.
import type { PairRow, PairTable } from './compareProtocol';
import { columnHolds, parseWhere, textHolds } from './whereTerms';

const AGREEMENT: Record<PairRow['cell'], string> = {
  both_right: 'both right', baseline_only: 'baseline only', candidate_only: 'candidate only', both_wrong: 'both wrong',
};

/** The rows of `table` that satisfy `query` (a Set of them), or a sentence why the query means nothing. */
export function searchPairs(table: PairTable, query: string): { keep: Set<PairRow> } | { error: string } {
  const parsed = parseWhere(query);
  if ('error' in parsed) return { error: parsed.error };
  const columns = ['id', 'gold', 'baseline', 'candidate', 'agreement', ...table.textFields, ...(table.sliceColumns ?? [])];
  const unknown = parsed.terms.find((t) => t.kind === 'column' && !columns.includes(t.column));
  if (unknown && unknown.kind === 'column') return { error: `no column ${JSON.stringify(unknown.column)} here; the aligned instances have ${columns.map((c) => JSON.stringify(c)).join(', ')}` };
  const column = (r: PairRow, name: string): string | undefined => {
    switch (name) {
      case 'id': return r.id;
      case 'gold': return r.gold;
      case 'baseline': return r.preds[0];
      case 'candidate': return r.preds[1];
      case 'agreement': return AGREEMENT[r.cell];
      default: {
        const t = table.textFields.indexOf(name);
        if (t >= 0) return r.texts?.[t];
        const s = table.sliceColumns?.indexOf(name) ?? -1;
        return s >= 0 ? r.slices?.[s] : undefined;
      }
    }
  };
  const keep = new Set<PairRow>();
  for (const r of table.rows) {
    const texts = [r.id, r.gold, r.preds[0], r.preds[1], ...(r.texts ?? [])];
    if (parsed.terms.every((t) => (t.kind === 'column' ? columnHolds(t, column(r, t.column)) : textHolds(t, texts)))) keep.add(r);
  }
  return { keep };
}
