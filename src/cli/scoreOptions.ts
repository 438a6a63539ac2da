// The scoring options every command that reads prediction files accepts (score, compare, board,
// plot), parsed and checked in one place.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveOptions } from '../core/report';
import { FORMAT_NAMES, type FormatName, type ScoreOptions } from '../core/types';
import { mapping, number, UsageError } from './args';

/** parseArgs options shared by the commands that score files. */
export const SCORING_OPTIONS = {
  format: { type: 'string' },
  bins: { type: 'string' },
  threshold: { type: 'string' },
  'hmr-beta': { type: 'string' },
  bootstrap: { type: 'string' },
  seed: { type: 'string' },
  'raft-data': { type: 'string' },
  'gold-key': { type: 'string' },
  map: { type: 'string', multiple: true },
  'max-file-mb': { type: 'string' },
  task: { type: 'string' },
  model: { type: 'string' },
  decision: { type: 'string' },
  interval: { type: 'string' },
} as const;

type IntervalMethod = NonNullable<ScoreOptions['interval']>;
/** --interval: how intervals are made (docs/metrics.md#interval_method). */
export const INTERVAL_METHODS: readonly IntervalMethod[] = ['bootstrap', 't', 'wilson'];

type ScoringValues = { [K in keyof typeof SCORING_OPTIONS]?: (typeof SCORING_OPTIONS)[K] extends { multiple: true } ? string[] : string };

/**
 * Checks and converts the scoring options; every mistake is a UsageError naming the option.
 * `extra` holds a command's own options and defaults (its bootstrap resamples, per-instance columns).
 */
export function scoringOptions(values: ScoringValues, extra: Partial<ScoreOptions> = {}): ScoreOptions {
  if (values.format !== undefined && !FORMAT_NAMES.includes(values.format as FormatName)) {
    throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(', ')}, got '${values.format}'.`);
  }
  const maxFileMb = number('max-file-mb', values['max-file-mb'], false);
  if (maxFileMb !== undefined && !(maxFileMb > 0)) throw new UsageError(`--max-file-mb takes a positive number, got '${values['max-file-mb']}'.`);
  const raftData = values['raft-data'];
  if (raftData !== undefined && !existsSync(raftData)) throw new UsageError(`--raft-data: no such folder '${raftData}'.`);
  if (values.decision !== undefined && values.decision !== 'acc' && values.decision !== 'acc_norm') {
    throw new UsageError(`--decision must be acc or acc_norm, got '${values.decision}'.`);
  }
  if (values.interval !== undefined && !INTERVAL_METHODS.includes(values.interval as IntervalMethod)) {
    throw new UsageError(`--interval must be one of ${INTERVAL_METHODS.join(', ')}, got '${values.interval}'.`);
  }
  // 'best': folktexts' ROC threshold, found per file by the core.
  const best = values.threshold?.trim().toLowerCase() === 'best';
  return validOptions({
    // Per-instance columns serve the editor; the CLI prints aggregates unless a command needs them.
    instances: false,
    ...extra,
    format: values.format as FormatName | undefined,
    bins: number('bins', values.bins, true),
    threshold: best ? undefined : number('threshold', values.threshold, false),
    bestThreshold: best || extra.bestThreshold,
    hmrBeta: number('hmr-beta', values['hmr-beta'], false),
    bootstrap: number('bootstrap', values.bootstrap, true) ?? extra.bootstrap,
    seed: number('seed', values.seed, true),
    raftData: raftData && resolve(raftData),
    goldKey: values['gold-key'],
    mapping: mapping(values.map),
    task: values.task,
    model: values.model,
    decision: values.decision as ScoreOptions['decision'],
    ...(values.interval !== undefined ? { interval: values.interval as IntervalMethod } : {}),
    maxFileBytes: maxFileMb === undefined ? undefined : Math.max(1, Math.floor(maxFileMb * 1024 * 1024)),
  });
}

/** resolveOptions rejects out-of-range values with RangeError: those are the user's to fix. */
export function validOptions(o: Parameters<typeof resolveOptions>[0]): ScoreOptions {
  try {
    return resolveOptions(o);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
}
