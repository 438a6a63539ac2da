// `eval-lens score PATH...`: the metric core as a command-line tool for CI.
// Exit status: 0 when something was scored, 2 when nothing could be, 1 on a usage error.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { scorePath, summarize } from '../core/score';
import { resolveOptions } from '../core/report';
import { FORMAT_NAMES, METRIC_NAMES } from '../core/types';
import type { ColumnMapping, FormatName, Report, ScoreOptions } from '../core/types';
import { formatTable } from './table';

const USAGE = `Usage: eval-lens score PATH... [options]

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

class UsageError extends Error {}

function number(name: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
    throw new UsageError(`--${name} takes ${integer ? 'a whole number' : 'a number'}, got '${raw}'.`);
  }
  return v;
}

const MAPPING_FIELDS = ['score', 'label', 'confidence', 'correct', 'pred', 'gold', 'id'] as const;

function mapping(pairs: string[] | undefined): ColumnMapping | undefined {
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

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI on argv (without node and script) and return what it would print: testable in-process. */
export function runCli(argv: string[]): CliOutput {
  try {
    return score(argv);
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e) || e instanceof RangeError) {
      return { code: 1, stdout: '', stderr: `eval-lens: ${e.message}\n\n${USAGE}\n` };
    }
    throw e;
  }
}

function score(argv: string[]): CliOutput {
  const [command, ...rest] = argv;
  if (command === '-h' || command === '--help' || command === 'help') return { code: 0, stdout: USAGE + '\n', stderr: '' };
  if (command !== 'score') throw new UsageError(command ? `unknown command '${command}'.` : 'no command given.');
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      format: { type: 'string' },
      json: { type: 'boolean' },
      bins: { type: 'string' },
      threshold: { type: 'string' },
      'hmr-beta': { type: 'string' },
      bootstrap: { type: 'string' },
      seed: { type: 'string' },
      'raft-data': { type: 'string' },
      'gold-key': { type: 'string' },
      map: { type: 'string', multiple: true },
      'max-file-mb': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { code: 0, stdout: USAGE + '\n', stderr: '' };
  if (!positionals.length) throw new UsageError('score needs at least one PATH.');
  if (values.format !== undefined && !FORMAT_NAMES.includes(values.format as FormatName)) {
    throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(', ')}, got '${values.format}'.`);
  }
  const maxFileMb = number('max-file-mb', values['max-file-mb'], false);
  if (maxFileMb !== undefined && !(maxFileMb > 0)) throw new UsageError(`--max-file-mb takes a positive number, got '${values['max-file-mb']}'.`);
  const raftData = values['raft-data'];
  if (raftData !== undefined && !existsSync(raftData)) throw new UsageError(`--raft-data: no such folder '${raftData}'.`);
  const options: ScoreOptions = resolveOptions({
    format: values.format as FormatName | undefined,
    bins: number('bins', values.bins, true),
    threshold: number('threshold', values.threshold, false),
    hmrBeta: number('hmr-beta', values['hmr-beta'], false),
    bootstrap: number('bootstrap', values.bootstrap, true),
    seed: number('seed', values.seed, true),
    raftData: raftData && resolve(raftData),
    goldKey: values['gold-key'],
    mapping: mapping(values.map),
    // Per-instance columns serve the editor; the CLI prints aggregates only.
    instances: false,
    maxFileBytes: maxFileMb === undefined ? undefined : Math.max(1, Math.floor(maxFileMb * 1024 * 1024)),
  });

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
