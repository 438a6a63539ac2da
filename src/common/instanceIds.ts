// An instance's ID, whichever way the report holds it: `ids` (text), or `idNumbers` when every ID
// is a canonical integer and no text was made for them (folktexts' unnamed pandas index: a million
// strings would cost more than the metrics). Both print the same: String() of a canonical integer
// is the text the file has.
import type { InstanceColumns } from '../core/types';

type Ids = Pick<InstanceColumns, 'ids' | 'idNumbers'>;

/** Whether the instances have IDs (a column to show, search and export). */
export function hasInstanceIds(inst: Ids): boolean {
  return !!(inst.ids?.length || inst.idNumbers?.length);
}

/** Instance i's ID as the file writes it, or undefined when there are none ('' when its cell was empty). */
export function instanceId(inst: Ids, i: number): string | undefined {
  if (inst.ids) return inst.ids[i];
  const v = inst.idNumbers?.[i];
  return v === undefined ? undefined : String(v);
}
