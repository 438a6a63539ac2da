// score's slicing options (--group-by, --where, --data, --join-key, --group-bins, --threshold best).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ScoreOptions } from '../core/types';
import { number, UsageError } from './args';
import { parseWhere } from '../common/whereTerms';
import { metricName } from './gates';

/** parseArgs options of the commands that slice by group (score, plot --chart groups). */
export const SLICE_OPTIONS = {
  'group-by': { type: 'string' },
  data: { type: 'string' },
  'join-key': { type: 'string' },
  'group-bins': { type: 'string' },
  where: { type: 'string', multiple: true },
  slices: { type: 'string' },
  'slice-metric': { type: 'string' },
} as const;

/** --cluster COL (score, compare): clustered standard errors and intervals, with --data / --join-key as --group-by takes them. */
export const CLUSTER_OPTIONS = {
  cluster: { type: 'string' },
} as const;

interface SliceFlags {
  threshold?: string;
  'group-by'?: string;
  data?: string;
  'join-key'?: string;
  'group-bins'?: string;
  where?: string[];
  slices?: string;
  'slice-metric'?: string;
  cluster?: string;
}

export function sliceOptions(values: SliceFlags): Pick<ScoreOptions, 'bestThreshold' | 'groupBy' | 'where' | 'slices' | 'cluster'> {
  const best = values.threshold?.trim().toLowerCase() === 'best';
  const column = values['group-by'];
  const data = values.data;
  const where = whereOptions(values);
  const slices = slicesOptions(values);
  const cluster = clusterOptions(values);
  if (column === undefined) {
    const allowed = [...(where || slices || cluster ? [] : ['data', 'join-key'] as const), ...(slices ? [] : ['group-bins'] as const)];
    for (const flag of allowed) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} needs --group-by COL${flag === 'group-bins' ? ' (or --slices)' : ' (or --where, --slices, --cluster)'}.`);
    }
    return { ...(best ? { bestThreshold: true } : {}), ...(where ? { where } : {}), ...(slices ? { slices } : {}), ...(cluster ? { cluster } : {}) };
  }
  if (column.trim() === '') throw new UsageError('--group-by takes a column name.');
  const bins = number('group-bins', values['group-bins'], true);
  if (bins !== undefined && !(bins >= 2 && bins <= 100)) throw new UsageError(`--group-bins takes a whole number from 2 to 100, got '${values['group-bins']}'.`);
  return {
    ...(best ? { bestThreshold: true } : {}),
    ...(where ? { where } : {}),
    ...(slices ? { slices } : {}),
    ...(cluster ? { cluster } : {}),
    groupBy: {
      column,
      ...(data !== undefined ? { dataPath: resolve(data) } : {}),
      ...(values['join-key'] !== undefined ? { joinKey: values['join-key'] } : {}),
      ...(bins !== undefined ? { bins } : {}),
    },
  };
}

/** --cluster COL: a column of the file (doc.* fields, Inspect metadata) or, with --data FILE, of a data file joined on ID. */
function clusterOptions(values: SliceFlags): ScoreOptions['cluster'] {
  const column = values.cluster;
  if (column === undefined) return undefined;
  if (column.trim() === '') throw new UsageError('--cluster takes a column name.');
  const data = values.data;
  if (data !== undefined && !existsSync(data)) throw new UsageError(`--data: no such file '${data}'.`);
  return {
    column,
    ...(data !== undefined ? { dataPath: resolve(data) } : {}),
    ...(values['join-key'] !== undefined ? { joinKey: values['join-key'] } : {}),
  };
}

/** --where TERMS (repeatable): checked here, so a bad term is a usage error before any file is read. */
function whereOptions(values: SliceFlags): ScoreOptions['where'] {
  const terms = values.where;
  const data = values.data;
  if (!terms?.length) return undefined;
  if (data !== undefined && !existsSync(data)) throw new UsageError(`--data: no such file '${data}'.`);
  const parsed = parseWhere(...terms);
  if ('error' in parsed) throw new UsageError(`--where: ${parsed.error}.`);
  return {
    terms,
    ...(data !== undefined ? { dataPath: resolve(data) } : {}),
    ...(values['join-key'] !== undefined ? { joinKey: values['join-key'] } : {}),
  };
}

/** --slices COL[,COL…] | auto and --slice-metric M. */
export function slicesOptions(values: SliceFlags): ScoreOptions['slices'] {
  const raw = values.slices;
  if (raw === undefined) {
    if (values['slice-metric'] !== undefined) throw new UsageError('--slice-metric needs --slices COL[,COL…] or --slices auto.');
    return undefined;
  }
  if (values.data !== undefined && !existsSync(values.data)) throw new UsageError(`--data: no such file '${values.data}'.`);
  const columns = raw.trim() === 'auto' ? 'auto' as const : raw.split(',').map((c) => c.trim()).filter(Boolean);
  if (columns !== 'auto' && !columns.length) throw new UsageError('--slices takes column names (COL,COL…) or auto.');
  const metric = values['slice-metric'] === undefined ? undefined : metricName(values['slice-metric'], '--slice-metric');
  const bins = number('group-bins', values['group-bins'], true);
  if (bins !== undefined && !(bins >= 2 && bins <= 100)) throw new UsageError(`--group-bins takes a whole number from 2 to 100, got '${values['group-bins']}'.`);
  return {
    columns,
    ...(metric ? { metric } : {}),
    ...(values.data !== undefined ? { dataPath: resolve(values.data) } : {}),
    ...(values['join-key'] !== undefined ? { joinKey: values['join-key'] } : {}),
    ...(bins !== undefined ? { bins } : {}),
  };
}
