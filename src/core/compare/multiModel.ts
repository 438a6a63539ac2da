// A file that holds several models' predictions side by side (`Prob_<model>` scores and/or
// `Pred_<model>` predicted classes beside one label column) is several runs of one benchmark:
// compare and board read it once per model, with the generic format's column mapping.
import type { ColumnMapping } from '../types';

export interface ModelColumns {
  model: string;
  /** The mapping that reads this model's run from the file. */
  mapping: ColumnMapping;
}

const PREFIX = /^(prob|pred)_(.+)$/i;

/** The models of a header (two or more `Prob_<model>` / `Pred_<model>` names), in column order; else []. */
export function modelColumns(header: readonly string[]): ModelColumns[] {
  const models = new Map<string, { prob?: string; pred?: string }>();
  for (const name of header) {
    const m = PREFIX.exec(name.trim());
    if (!m) continue;
    const entry = models.get(m[2]) ?? {};
    if (m[1].toLowerCase() === 'prob') entry.prob = name;
    else entry.pred = name;
    models.set(m[2], entry);
  }
  if (models.size < 2) return [];
  return [...models].map(([model, c]) => ({ model, mapping: c.prob !== undefined ? { score: c.prob } : { pred: c.pred } }));
}
