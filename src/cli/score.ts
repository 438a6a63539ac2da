// `eval-lens score PATH...`: score prediction files (or every prediction file under a folder).
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { scorePath, summarize } from '../core/score';
import { resolveOptions } from '../core/report';
import { FORMAT_NAMES, METRIC_NAMES } from '../core/types';
import type { FormatName, Report, ScoreOptions } from '../core/types';
import { formatTable } from './table';
import { mapping, number, UsageError, type CliOutput } from './args';

export const SCORE_USAGE = `Usage: eval-lens score PATH... [options]

Scores prediction files (or every prediction file under a folder) and prints their metrics.

Options:
  --format F        folktexts | raft | almanacs | lm-eval | generic (default: detected)
  --json            print one JSON document instead of tables
  --bins N          reliability bins for ece/mce and the diagrams (default 10)
  --threshold T     binary decision threshold (default 0.5)
  --hmr-beta B      beta of hmr_beta (default 1)
  --bootstrap N     95% percentile bootstrap intervals from N resamples (default 0: none)
  --seed S          bootstrap seed (default 0)
  --raft-data DIR   RAFT data folder: DIR/<task>/train.csv and task.json
  --gold-key K      ALMANACS: the field that holds the true probability
  --map FIELD=COL   generic files: take FIELD (score, label, confidence, correct, pred, gold, id)
                    from column COL; repeatable
  --max-file-mb N   files larger than N MB are not read, with a message (default 2048)
  -h, --help        this help`;

export async function scoreCommand(rest: string[]): Promise<CliOutput> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: { ...SCORING_ARGS, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return { code: 0, stdout: SCORE_USAGE + '\n', stderr: '' };
  if (!positionals.length) throw new UsageError('score needs at least one PATH.');
  const options = scoringOptions(values);

  const reports: Report[] = [];
  let stderr = '';
  for (const path of positionals) {
    if (!existsSync(path)) {
      stderr += `eval-lens: ${path}: no such file or folder.\n`;
      continue;
    }
    const result = scorePath(path, options);
    if (!result.reports.length) stderr += `eval-lens: ${path}: no prediction files found.\n`;
    reports.push(...result.reports);
  }
  const summary = summarize(reports);
  const scoredSomething = reports.some((r) => r.n > 0);
  const stdout = values.json ? JSON.stringify(toJson(reports, summary), null, 1) + '\n' : formatTable(reports, summary);
  return { code: scoredSomething ? 0 : 2, stdout, stderr };
}

/** The options of every command that scores files (score, compare, board), for parseArgs. */
export const SCORING_ARGS = {
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
} as const;

type ScoringValues = { [K in keyof typeof SCORING_ARGS]?: (typeof SCORING_ARGS)[K] extends { multiple: true } ? string[] : string };

/** ScoreOptions from the SCORING_ARGS values, checked; `bootstrap` is the default resamples. */
export function scoringOptions(values: ScoringValues, bootstrap?: number): ScoreOptions {
  if (values.format !== undefined && !FORMAT_NAMES.includes(values.format as FormatName)) {
    throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(', ')}, got '${values.format}'.`);
  }
  const maxFileMb = number('max-file-mb', values['max-file-mb'], false);
  if (maxFileMb !== undefined && !(maxFileMb > 0)) throw new UsageError(`--max-file-mb takes a positive number, got '${values['max-file-mb']}'.`);
  const raftData = values['raft-data'];
  if (raftData !== undefined && !existsSync(raftData)) throw new UsageError(`--raft-data: no such folder '${raftData}'.`);
  return validOptions({
    format: values.format as FormatName | undefined,
    bins: number('bins', values.bins, true),
    threshold: number('threshold', values.threshold, false),
    hmrBeta: number('hmr-beta', values['hmr-beta'], false),
    bootstrap: number('bootstrap', values.bootstrap, true) ?? bootstrap,
    seed: number('seed', values.seed, true),
    raftData: raftData && resolve(raftData),
    goldKey: values['gold-key'],
    mapping: mapping(values.map),
    // Per-instance columns serve the editor; the CLI prints aggregates only.
    instances: false,
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

/** The --json document: version 1, one result per file, and a summary. Per-instance columns stay out. */
export function toJson(reports: Report[], summary: ReturnType<typeof summarize>) {
  return {
    version: 1,
    results: reports.map((r) => ({
      path: r.path,
      format: r.format,
      kind: r.kind,
      ...(r.task ? { task: r.task } : {}),
      n: r.n,
      skipped: r.skipped,
      unlabeled: r.unlabeled,
      metrics: orderedMetrics(r.metrics),
      intervals: r.intervals,
      reported: r.reported,
      ...(r.fatal ? { fatal: r.fatal } : {}),
      problems: r.problems,
      bins: r.bins,
      roc: r.roc,
      ...(r.classStats ? { classes: r.classStats } : {}),
    })),
    summary,
  };
}

function orderedMetrics(m: Report['metrics']): Report['metrics'] {
  const out: Report['metrics'] = {};
  for (const name of METRIC_NAMES) {
    const v = m[name];
    if (v !== undefined) out[name] = v === null || Number.isFinite(v) ? v : null;
  }
  return out;
}
