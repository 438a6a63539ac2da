// score's slicing options (--group-by, --data, --join-key, --group-bins, --threshold best) and the
// JSON shape of the groups.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ScoreOptions } from '../core/types';
import { number, UsageError } from './args';

/** parseArgs options of the commands that slice by group (score, plot --chart groups). */
export const SLICE_OPTIONS = {
  'group-by': { type: 'string' },
  data: { type: 'string' },
  'join-key': { type: 'string' },
  'group-bins': { type: 'string' },
} as const;

interface SliceFlags {
  threshold?: string;
  'group-by'?: string;
  data?: string;
  'join-key'?: string;
  'group-bins'?: string;
}

export function sliceOptions(values: SliceFlags): Pick<ScoreOptions, 'bestThreshold' | 'groupBy'> {
  const best = values.threshold?.trim().toLowerCase() === 'best';
  const column = values['group-by'];
  const data = values.data;
  if (column === undefined) {
    for (const flag of ['data', 'join-key', 'group-bins'] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} needs --group-by COL.`);
    }
    return best ? { bestThreshold: true } : {};
  }
  if (column.trim() === '') throw new UsageError('--group-by takes a column name.');
  if (data !== undefined && !existsSync(data)) throw new UsageError(`--data: no such file '${data}'.`);
  const bins = number('group-bins', values['group-bins'], true);
  if (bins !== undefined && !(bins >= 2 && bins <= 100)) throw new UsageError(`--group-bins takes a whole number from 2 to 100, got '${values['group-bins']}'.`);
  return {
    ...(best ? { bestThreshold: true } : {}),
    groupBy: {
      column,
      ...(data !== undefined ? { dataPath: resolve(data) } : {}),
      ...(values['join-key'] !== undefined ? { joinKey: values['join-key'] } : {}),
      ...(bins !== undefined ? { bins } : {}),
    },
  };
}

