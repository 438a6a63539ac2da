// `eval-lens score PATH...`: score prediction files (or every prediction file under a folder).
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { summarize } from '../core/score';
import { scorePathAsync } from '../core/scoreAsync';
import { FORMAT_NAMES, type Report } from '../core/types';
import { formatTable } from '../documents/table';
import { CLUSTER_OPTIONS, SLICE_OPTIONS, sliceOptions } from './sliceArgs';
import { toJson } from '../documents/json';
import { UsageError, type CliOutput } from './args';
import { SCORING_OPTIONS, scoringOptions } from './scoreOptions';
import { checkGates, GATE_FAILED, gateReport, parseGates } from './gates';
import { OUTPUT_OPTIONS, OUTPUT_USAGE, outputMode, printResult } from './output';
import { scoreCsv, scoreMarkdown } from '../documents/scoreTables';
import { actionsAnnotations } from './github';

export const SCORE_USAGE = `Usage: eval-lens score PATH... [options]

Scores prediction files (or every prediction file under a folder) and prints their metrics.

Options:
  --format F        ${FORMAT_NAMES.join(' | ')} (default: detected)
${OUTPUT_USAGE}
  --bins N          reliability bins for ece/mce and the diagrams (default 10)
  --threshold T     binary decision threshold (default 0.5), or 'best': folktexts' threshold
                    minimising fpr + (1 - tpr) on the ROC curve of the whole file
  --hmr-beta B      beta of hmr_beta (default 1)
  --bootstrap N     95% percentile bootstrap intervals from N resamples (default 0: none)
  --seed S          bootstrap seed (default 0)
  --interval M      how the 95% intervals are made: bootstrap (default; with --bootstrap N), t
                    (mean ± t·SE, as Inspect's ci()) or wilson (Wilson score interval for
                    accuracy and rates; other metrics keep the bootstrap); t and wilson need no
                    --bootstrap. Below 30 instances (or clusters) intervals are said to be rough
  --cluster COL     clustered standard errors and intervals by column COL (of the file, doc.*,
                    Inspect metadata, or --data's), as Inspect's stderr(cluster=): questions
                    that share a passage, a prompt or an item; the bootstrap resamples whole
                    clusters, t takes clusters - 1 degrees of freedom
  --raft-data DIR   RAFT data folder: DIR/<task>/train.csv and task.json
  --gold-key K      ALMANACS: the field that holds the true probability
  --map FIELD=COL   generic files: take FIELD (score, label, confidence, correct, pred, gold, id)
                    from column COL; repeatable
  --group-by COL    metrics per group of column COL (of the file, or of --data), with
                    folktexts' fairness figures for binary files
  --where TERMS     score only the rows that satisfy TERMS: "SEX=2", "Query~/card/i", "AGEP>40",
                    plain text or /regex/ over the rows' texts; AND-ed, repeatable (columns of the
                    file, doc.* fields, Inspect metadata, or --data's)
  --slices COLS     the slices whose metric differs from the rest of the file, most significant
                    first: COL[,COL…] (values, or quartiles of a numeric column) or auto (every
                    column with 2-20 values, numeric ones cut); Fisher's exact test for accuracy,
                    a bootstrap otherwise (with --bootstrap N); Holm over all slices
  --slice-metric M  the metric --slices compares (default: accuracy; mse for ALMANACS)
  --data FILE       CSV/TSV joined to the predictions on their IDs, for --group-by, --where,
                    --slices and --cluster
  --join-key COL    the ID column of --data (default: its unnamed first column, else ID)
  --group-bins K    quantile groups for a numeric column of > 20 values (default 4)
  --max-file-mb N   files larger than N MB are not read, with a message (default 2048)
  --task NAME       a file holding several tasks (lm-eval simple_evaluate dump): score only NAME
  --model NAME      a table with several models' columns (Prob_LogReg, Prob_SVM, ...): score
                    NAME (default: the first)
  --decision D      lm-eval multiple choice: acc | acc_norm, the prediction the calibration
                    metrics judge (default acc; both accuracies are always shown)
  --fail-on EXPR    gate, e.g. "ece>0.05": exit 3 when any file's metric is beyond the bound
                    (OP one of > >= < <=); repeatable. METRIC.lower or METRIC.upper gates on
                    its 95% interval's bound, e.g. "accuracy.lower<0.8" (needs --bootstrap N or
                    --interval t|wilson)
  -h, --help        this help`;

export { validOptions } from './scoreOptions';

export async function scoreCommand(rest: string[]): Promise<CliOutput> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      ...SCORING_OPTIONS,
      ...OUTPUT_OPTIONS,
      ...SLICE_OPTIONS,
      ...CLUSTER_OPTIONS,
      'fail-on': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { code: 0, stdout: SCORE_USAGE + '\n', stderr: '' };
  if (!positionals.length) throw new UsageError('score needs at least one PATH.');
  const gates = parseGates(values['fail-on']);
  const mode = outputMode(values);
  const options = scoringOptions(values, sliceOptions(values));

  const reports: Report[] = [];
  let stderr = '';
  for (const path of positionals) {
    if (!existsSync(path)) {
      stderr += `eval-lens: ${path}: no such file or folder.\n`;
      continue;
    }
    const result = await scorePathAsync(path, options);
    if (!result.reports.length) stderr += `eval-lens: ${path}: no prediction files found.\n`;
    reports.push(...result.reports);
  }
  const summary = summarize(reports);
  // A summary's figures are read, not scored: a file of them is an answer too (exit 0).
  const scoredSomething = reports.some((r) => r.n > 0 || !!r.summary?.figures.length);
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

