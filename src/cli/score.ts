// `eval-lens score PATH...`: score prediction files (or every prediction file under a folder).
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { scorePath, summarize } from '../core/score';
import { resolveOptions } from '../core/report';
import { FORMAT_NAMES, METRIC_NAMES, RATE_NAMES } from '../core/types';
import type { FormatName, Report, ScoreOptions } from '../core/types';
import { formatTable } from './table';
import { groupsJson, sliceOptions } from './sliceArgs';
import { mapping, number, UsageError, type CliOutput } from './args';
import { checkGates, GATE_FAILED, gateReport, parseGates } from './gates';
import { OUTPUT_OPTIONS, OUTPUT_USAGE, outputMode, printResult } from './output';
import { scoreCsv, scoreMarkdown } from './scoreTables';
import { actionsAnnotations } from './github';

export const SCORE_USAGE = `Usage: eval-lens score PATH... [options]

Scores prediction files (or every prediction file under a folder) and prints their metrics.

Options:
  --format F        folktexts | raft | almanacs | lm-eval | generic (default: detected)
${OUTPUT_USAGE}
  --bins N          reliability bins for ece/mce and the diagrams (default 10)
  --threshold T     binary decision threshold (default 0.5), or 'best': folktexts' threshold
                    minimising fpr + (1 - tpr) on the ROC curve of the whole file
  --hmr-beta B      beta of hmr_beta (default 1)
  --bootstrap N     95% percentile bootstrap intervals from N resamples (default 0: none)
  --seed S          bootstrap seed (default 0)
  --raft-data DIR   RAFT data folder: DIR/<task>/train.csv and task.json
  --gold-key K      ALMANACS: the field that holds the true probability
  --map FIELD=COL   generic files: take FIELD (score, label, confidence, correct, pred, gold, id)
                    from column COL; repeatable
  --group-by COL    metrics per group of column COL (of the file, or of --data), with
                    folktexts' fairness figures for binary files
  --data FILE       CSV/TSV joined to the predictions on their IDs, for --group-by
  --join-key COL    the ID column of --data (default: its unnamed first column, else ID)
  --group-bins K    quantile groups for a numeric column of > 20 values (default 4)
  --max-file-mb N   files larger than N MB are not read, with a message (default 2048)
  --fail-on EXPR    gate, e.g. "ece>0.05": exit 3 when any file's metric is beyond the bound
                    (OP one of > >= < <=); repeatable
  --task NAME       a file holding several tasks (lm-eval simple_evaluate dump): score only NAME
  --model NAME      a table with several models' columns (Prob_LogReg, Prob_SVM, ...): score
                    NAME (default: the first)
  --decision D      lm-eval multiple choice: acc | acc_norm, the prediction the calibration
                    metrics judge (default acc; both accuracies are always shown)
  -h, --help        this help`;

export async function scoreCommand(rest: string[]): Promise<CliOutput> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      ...SCORING_ARGS,
      'group-by': { type: 'string' },
      data: { type: 'string' },
      'join-key': { type: 'string' },
      'group-bins': { type: 'string' },
      ...OUTPUT_OPTIONS,
      'fail-on': { type: 'string', multiple: true },
      task: { type: 'string' },
      model: { type: 'string' },
      decision: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { code: 0, stdout: SCORE_USAGE + '\n', stderr: '' };
  if (!positionals.length) throw new UsageError('score needs at least one PATH.');
  const gates = parseGates(values['fail-on']);
  const mode = outputMode(values);
  if (values.decision !== undefined && values.decision !== 'acc' && values.decision !== 'acc_norm') {
    throw new UsageError(`--decision must be acc or acc_norm, got '${values.decision}'.`);
  }
  const options = scoringOptions(values, undefined, {
    ...sliceOptions(values),
    task: values.task,
    model: values.model,
    decision: values.decision as ScoreOptions['decision'],
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
  const gateResults = checkGates(reports, gates, summary);
  const printed = printResult(mode, {
    json: () => ({ ...toJson(reports, summary), ...(gates.length ? { gates: gateResults } : {}) }),
    table: () => formatTable(reports, summary),
    markdown: () => scoreMarkdown(reports, summary, gateResults),
    csv: () => scoreCsv(reports, summary),
    annotations: () => actionsAnnotations(reports, gateResults),
  });
  stderr += printed.stderr + gateReport(gateResults, gates);
  const code = !scoredSomething ? 2 : gateResults.some((g) => g.failed) ? GATE_FAILED : 0;
  return { code, stdout: printed.stdout, stderr };
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
export function scoringOptions(values: ScoringValues, bootstrap?: number, extra: Partial<ScoreOptions> = {}): ScoreOptions {
  if (values.format !== undefined && !FORMAT_NAMES.includes(values.format as FormatName)) {
    throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(', ')}, got '${values.format}'.`);
  }
  const maxFileMb = number('max-file-mb', values['max-file-mb'], false);
  if (maxFileMb !== undefined && !(maxFileMb > 0)) throw new UsageError(`--max-file-mb takes a positive number, got '${values['max-file-mb']}'.`);
  const raftData = values['raft-data'];
  if (raftData !== undefined && !existsSync(raftData)) throw new UsageError(`--raft-data: no such folder '${raftData}'.`);
  const best = values.threshold?.trim().toLowerCase() === 'best';
  return validOptions({
    ...extra,
    format: values.format as FormatName | undefined,
    bins: number('bins', values.bins, true),
    // 'best': folktexts' ROC threshold, found per file by the core.
    threshold: best ? undefined : number('threshold', values.threshold, false),
    bestThreshold: best || extra.bestThreshold,
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
      kind: r.kindUnknown || r.notScored ? null : r.kind,
      ...(r.notScored ? { notScored: true } : {}),
      ...(r.task ? { task: r.task } : {}),
      n: r.n,
      skipped: r.skipped,
      unlabeled: r.unlabeled,
      metrics: orderedMetrics(r.metrics),
      intervals: r.intervals,
      ...(r.kind === 'binary' && r.n > 0 ? { threshold: r.options.threshold } : {}),
      ...(r.groups ? { groups: groupsJson(r.groups) } : {}),
      reported: r.reported,
      ...(r.reportedNotes ? { reportedNotes: r.reportedNotes } : {}),
      ...(r.tasks ? { tasks: r.tasks } : {}),
      ...(r.models ? { models: r.models, model: r.model } : {}),
      ...(r.decision ? { decision: r.decision } : {}),
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
  for (const name of [...METRIC_NAMES, ...RATE_NAMES]) {
    const v = m[name];
    if (v !== undefined) out[name] = v === null || Number.isFinite(v) ? v : null;
  }
  return out;
}
