// `eval-lens convert PATH... --to eee OUT/`: what `score PATH` reads, written as Every Eval Ever
// (the EvalEval coalition's shared schema, 0.3.0) evaluations: one per result of `score PATH`, each
// an aggregate <uuid4>.json and its <uuid4>_samples.jsonl under OUT/data/<benchmark>/<developer>/<model>/.
import { parseArgs } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import type { Report } from '../core/types';
import { convertToEee, type ConvertResult } from '../core/eee/convert';
import { EEE_SCHEMA_VERSION } from '../core/eee/keys';
import { formatNumber } from '../documents/table';
import { UsageError, type CliOutput } from './args';
import { SCORING_OPTIONS, scoringOptions } from './scoreOptions';

export const CONVERT_USAGE = `Usage: eval-lens convert PATH... --to eee OUT/ [options]

Writes each result that \`eval-lens score PATH\` gives (a file, each task of a file holding several,
every predictions file under a folder; each model of a file holding several: a judge file's, a
promptfoo file's providers, a table's model columns, unless --model names one) as one Every Eval
Ever ${EEE_SCHEMA_VERSION} evaluation: under
OUT/data/<benchmark>/<developer>/<model>/, an aggregate <uuid4>.json (eval.schema.json) with its
one result, and <uuid4>_samples.jsonl beside it (instance_level_eval.schema.json), one record per
scored sample. A file of a task's own per-sample metrics without a gold (lighteval's trad_score,
idk_freq, extract_fail) has one result per metric, the headline first (the task's own order), each
with lower_is_better as the source declares it, else as the name says (failure and error rates,
losses: lower), else marked unknown; and one record per sample and metric. evaluation.is_correct is Eval Lens's verdict on the sample (binary: score >=
threshold against the label; multiple choice and labels: prediction = gold; confidence files: their
correct column); evaluation.score is 1/0, or the source's own per-sample score. What the source does
not say (a folktexts CSV has no prompt, model or library version) is "unknown" or empty. What the
schema has no field for (a risk score, choice probabilities, the report's AUC, Brier and ECE) is
written as text under eval_lens.* in metadata and additional_details, and comes back when Eval Lens
reads the files.

Options:
  --to eee          the format to write (Every Eval Ever is the one there is)
  OUT               the folder to write under (made when missing; nothing in it is overwritten)
  --json            print what was written as one JSON document
  --threshold T, --format F, --raft-data DIR, --gold-key K, --map FIELD=COL, --task NAME,
  --model NAME, --decision D, --bins N, --bootstrap N, --interval M, --seed S,
  --max-file-mb N   as for score (the figures written are score's)
  -h, --help        this help

The rows score leaves out are listed on stderr as problems, with their file and line.
Exit status: 0 when at least one evaluation was written, 2 when none could be, 1 on a usage error.`;

const TARGETS = ['eee'] as const;

function where(source: string, task: string | undefined, model?: string): string {
  const of = [task, model].filter((x) => x !== undefined);
  return of.length ? `${source} (${of.join(', ')})` : source;
}

/** The rows score skips (errors and warnings), each with its file and line. */
function problemLines(reports: Report[]): string {
  let out = '';
  for (const r of reports) {
    for (const p of r.problems) {
      if (p.severity === 'info') continue;
      out += `${p.path ?? r.path}:${p.line}: ${p.severity}: ${p.message}\n`;
    }
  }
  return out;
}

function jsonOf(result: ConvertResult, out: string): unknown {
  return {
    to: 'eee',
    schema_version: EEE_SCHEMA_VERSION,
    written: result.written.map((w) => ({
      source: w.source, ...(w.task ? { task: w.task } : {}), ...(w.model !== undefined ? { model: w.model } : {}),
      aggregate: relative(out, w.aggregatePath).split('\\').join('/'),
      samples: relative(out, w.samplesPath).split('\\').join('/'),
      n: w.rows, n_samples: w.report.n, results: w.results, accuracy: w.report.metrics.accuracy ?? null,
      ...(w.leftOut.length ? { left_out: w.leftOut } : {}),
    })),
    not_written: result.notWritten,
    problems: result.reports.flatMap((r) => r.problems.filter((p) => p.severity !== 'info').map((p) => ({ path: p.path ?? r.path, line: p.line, severity: p.severity, code: p.code, message: p.message }))),
  };
}

export async function convertCommand(rest: string[]): Promise<CliOutput> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      ...SCORING_OPTIONS,
      to: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { code: 0, stdout: CONVERT_USAGE + '\n', stderr: '' };
  if (values.to === undefined) throw new UsageError('convert needs --to eee.');
  if (!TARGETS.includes(values.to as (typeof TARGETS)[number])) throw new UsageError(`--to must be one of ${TARGETS.join(', ')}, got '${values.to}'.`);
  if (positionals.length < 2) throw new UsageError('convert needs at least one PATH and the OUT folder to write under (the last).');
  const out = positionals[positionals.length - 1];
  const paths = positionals.slice(0, -1);
  if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`OUT must be a folder; ${out} is a file.`);
  const options = scoringOptions(values, { instances: true });

  const result: ConvertResult = { written: [], notWritten: [], reports: [] };
  let stderr = '';
  for (const path of paths) {
    if (!existsSync(path)) {
      stderr += `eval-lens: ${path}: no such file or folder.\n`;
      continue;
    }
    const one = await convertToEee(path, out, options, { generator: 'eval-lens convert' });
    if (!one.reports.length) stderr += `eval-lens: ${path}: no prediction files found.\n`;
    result.written.push(...one.written);
    result.notWritten.push(...one.notWritten);
    result.reports.push(...one.reports);
  }
  stderr += problemLines(result.reports);
  for (const w of result.written) for (const u of w.leftOut) stderr += `eval-lens: ${where(w.source, w.task, w.model)}: ${u.metric} left out: ${u.reason}\n`;
  for (const s of result.notWritten) stderr += `eval-lens: ${where(s.source, s.task, s.model)}: not converted: ${s.reason}\n`;
  const stdout = values.json
    ? `${JSON.stringify(jsonOf(result, out), null, 2)}\n`
    : result.written.map((w) => {
      const acc = w.report.metrics.accuracy;
      const samples = w.results.length > 1 ? `${w.report.n} sample${w.report.n === 1 ? '' : 's'} × ${w.results.length} results (${w.results.join(', ')})` : `${w.rows} sample${w.rows === 1 ? '' : 's'}`;
      return `${w.aggregatePath}  ${samples}${typeof acc === 'number' ? `, accuracy ${formatNumber(acc)}` : ''}  ← ${where(w.source, w.task, w.model)}\n`;
    }).join('');
  return { code: result.written.length ? 0 : 2, stdout, stderr };
}
