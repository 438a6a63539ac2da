// Shared pieces of the CLI's commands: usage errors, number and --map parsing, the output shape.
import type { ColumnMapping } from '../core/types';

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** A mistake in the command line: printed with the command's usage, exit status 1. */
export class UsageError extends Error {}

export function number(name: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
    throw new UsageError(`--${name} takes ${integer ? 'a whole number' : 'a number'}, got '${raw}'.`);
  }
  return v;
}

const MAPPING_FIELDS = ['score', 'label', 'confidence', 'correct', 'pred', 'gold', 'id'] as const;

export function mapping(pairs: string[] | undefined): ColumnMapping | undefined {
  if (!pairs?.length) return undefined;
  const out: ColumnMapping = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const field = pair.slice(0, eq) as (typeof MAPPING_FIELDS)[number];
    if (eq < 1 || !MAPPING_FIELDS.includes(field) || eq === pair.length - 1) {
      throw new UsageError(`--map takes FIELD=COLUMN with FIELD one of ${MAPPING_FIELDS.join(', ')}, got '${pair}'.`);
    }
    out[field] = pair.slice(eq + 1);
  }
  return out;
}
