// `eval-lens compare BASELINE CANDIDATE...`: paired differences with intervals and tests.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { comparePaths, modelsOf } from '../core/compareFiles';
import { withParquetAhead } from '../core/formats/parquetAhead';
import { maxFileBytes } from '../core/score';
import { CompareError, DEFAULT_COMPARE_RESAMPLES, type Comparison } from '../core/compare/compare';
import { compareJson } from '../documents/json';
import { UsageError, type CliOutput } from './args';
import { SCORING_OPTIONS, scoringOptions } from './scoreOptions';
import { CLUSTER_OPTIONS, SLICE_OPTIONS, sliceOptions } from './sliceArgs';
import { formatComparison } from '../documents/compareTable';
import { OUTPUT_OPTIONS, OUTPUT_USAGE, outputMode, printResult } from './output';
import { compareCsv, compareMarkdown, comparedMetrics } from '../documents/compareOutput';
import { checkRegressions, parseAlpha, parseMargin, parseRegressionMetrics, regressionReport } from './regression';
import { GATE_FAILED } from './gates';
import { annotation } from './github';

export const COMPARE_USAGE = `Usage: eval-lens compare BASELINE CANDIDATE... [options]

Compares runs of one benchmark instance by instance (aligned by ID): each metric's values, the
delta to the baseline (the first run) with a paired bootstrap 95% interval, and a two-sided test
(DeLong for auc, exact McNemar for accuracy, the paired bootstrap for the rest; Holm-adjusted
over several candidates). Each argument is a file or a run folder; RAFT run folders are compared
task by task and by raft_score (bootstrap stratified by task).

Options:
${OUTPUT_USAGE}
  --fail-on-regression M[,M...]
                    exit 3 when a candidate is significantly worse than the baseline on a
                    listed metric (p < --alpha, in the direction the metric improves)
  --margin D        with --fail-on-regression: a non-inferiority gate instead; exit 3 when the
                    95% interval of the difference reaches more than D in the worse direction
                    (auc: lower bound < -D; ece: upper bound > D), so a significant regression
                    smaller than D passes; a metric without an interval fails
  --alpha A         significance level for the verdicts and the regression gate (default 0.05)
  --bootstrap N     paired bootstrap resamples (default 1000)
  --seed S          bootstrap seed (default 0)
  --interval M      bootstrap | t | wilson, as for score; a comparison prints no per-run
                    intervals, and the intervals of the deltas (which --margin reads) are
                    always the paired bootstrap
  --cluster COL     questions that share COL (a column of the baseline, or of --data) are one
                    cluster: the paired bootstrap resamples whole clusters, and mde / n_needed
                    use the clustered standard error of the paired difference
  --raft-data DIR   RAFT data folder: DIR/<task>/train.csv and task.json
  --slices COLS     where the candidate differs: per slice of COL[,COL…] (values, or quartiles
                    of a numeric column) or auto (every column with 2-20 values, numeric ones
                    cut), the paired delta, its interval and test (exact McNemar for accuracy,
                    DeLong for auc, paired bootstrap otherwise), Holm over every slice
  --slice-metric M  the metric --slices compares (default: accuracy; mse for ALMANACS)
  --where TERMS     compare only the rows that satisfy TERMS, as for score (each run filtered
                    before the runs are aligned); repeatable
  --data FILE       CSV/TSV joined to the baseline on its IDs, for --slices, --where and --cluster
  --join-key COL, --group-bins K: as for score
  --bins N, --threshold T, --hmr-beta B, --gold-key K, --format F, --map FIELD=COL,
  --max-file-mb N: as for score
  -h, --help        this help

One file with several models' columns (Prob_<model> or Pred_<model> beside one label column)
compares its models, the first one as the baseline.

Exit status: 0 when compared, 2 when the runs cannot be compared (nothing is written), 1 on a usage
error, 3 when the regression gate fails.`;

export async function compareCommand(rest: string[]): Promise<CliOutput> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      ...SCORING_OPTIONS, ...OUTPUT_OPTIONS,
      'fail-on-regression': { type: 'string' }, alpha: { type: 'string' }, margin: { type: 'string' },
      where: SLICE_OPTIONS.where, slices: SLICE_OPTIONS.slices, 'slice-metric': SLICE_OPTIONS['slice-metric'],
      ...CLUSTER_OPTIONS, data: SLICE_OPTIONS.data, 'join-key': SLICE_OPTIONS['join-key'], 'group-bins': SLICE_OPTIONS['group-bins'],
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { code: 0, stdout: COMPARE_USAGE + '\n', stderr: '' };
  const mode = outputMode(values);
  const gated = parseRegressionMetrics(values['fail-on-regression']);
  const alpha = parseAlpha(values.alpha);
  const margin = parseMargin(values.margin, gated);
  if (positionals.length < 1) throw new UsageError('compare needs a BASELINE and at least one CANDIDATE (or one file with several models\' Prob_<model> columns).');
  const missing = positionals.filter((p) => !existsSync(p));
  if (missing.length) return { code: 2, stdout: '', stderr: missing.map((p) => `eval-lens: ${p}: no such file or folder.\n`).join('') };
  if (positionals.length === 1 && !modelsOf(positionals[0]).length) {
    throw new UsageError(`compare needs a BASELINE and at least one CANDIDATE; ${positionals[0]} holds no Prob_<model> columns of several models.`);
  }
  const options = scoringOptions(values, { bootstrap: DEFAULT_COMPARE_RESAMPLES, ...sliceOptions(values) });
  let comparison: Comparison;
  try {
    // Parquet runs are read ahead (hyparquet is asynchronous; the comparison reads synchronously).
    comparison = await withParquetAhead(positionals, { maxFileBytes: maxFileBytes(options), format: options.format }, () => comparePaths(positionals, options));
  } catch (e) {
    if (e instanceof CompareError) return { code: 2, stdout: '', stderr: `eval-lens: cannot compare: ${e.message}\n` };
    throw e;
  }
  const regressions = checkRegressions(comparedMetrics(comparison), gated, alpha, margin);
  const failed = regressions.filter((r) => r.failed);
  const printed = printResult(mode, {
    json: () => ({ ...compareJson(comparison), ...(gated.length ? { regressions: { alpha, ...(margin !== undefined ? { margin } : {}), checks: regressions } } : {}) }),
    table: () => formatComparison(comparison),
    markdown: () => compareMarkdown(comparison, alpha, regressions),
    csv: () => compareCsv(comparison),
    annotations: () => failed.map((r) => annotation('error', { title: `Eval Lens regression ${r.metric}` },
      `${r.run ?? 'candidate'}: ${r.metric} ${r.reason ?? `significantly worse (delta ${r.delta}, p = ${r.p_value} < ${alpha})`}`) + '\n').join(''),
  });
  return { code: failed.length ? GATE_FAILED : 0, stdout: printed.stdout, stderr: printed.stderr + regressionReport(regressions, alpha) };
}

