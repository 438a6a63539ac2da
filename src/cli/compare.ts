// `eval-lens compare BASELINE CANDIDATE...`: paired differences with intervals and tests.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { comparePaths, modelsOf } from '../core/compareFiles';
import { CompareError, DEFAULT_COMPARE_RESAMPLES, type Comparison } from '../core/compare/compare';
import { UsageError, type CliOutput } from './args';
import { SCORING_OPTIONS, scoringOptions } from './scoreOptions';
import { formatComparison } from './compareTable';

export const COMPARE_USAGE = `Usage: eval-lens compare BASELINE CANDIDATE... [options]

Compares runs of one benchmark instance by instance (aligned by ID): each metric's values, the
delta to the baseline (the first run) with a paired bootstrap 95% interval, and a two-sided test
(DeLong for auc, exact McNemar for accuracy, the paired bootstrap for the rest; Holm-adjusted
over several candidates). Each argument is a file or a run folder; RAFT run folders are compared
task by task and by raft_score (bootstrap stratified by task).

Options:
  --json            print one JSON document instead of tables
  --bootstrap N     paired bootstrap resamples (default 1000)
  --seed S          bootstrap seed (default 0)
  --raft-data DIR   RAFT data folder: DIR/<task>/train.csv and task.json
  --bins N, --threshold T, --hmr-beta B, --gold-key K, --format F, --map FIELD=COL,
  --max-file-mb N: as for score
  -h, --help        this help

One file with several models' columns (Prob_<model> or Pred_<model> beside one label column)
compares its models, the first one as the baseline.

Exit status: 0 when compared, 2 when the runs cannot be compared (nothing is written), 1 on a usage error.`;

export async function compareCommand(rest: string[]): Promise<CliOutput> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: { ...SCORING_OPTIONS, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return { code: 0, stdout: COMPARE_USAGE + '\n', stderr: '' };
  if (positionals.length < 1) throw new UsageError('compare needs a BASELINE and at least one CANDIDATE (or one file with several models\' Prob_<model> columns).');
  const missing = positionals.filter((p) => !existsSync(p));
  if (missing.length) return { code: 2, stdout: '', stderr: missing.map((p) => `eval-lens: ${p}: no such file or folder.\n`).join('') };
  if (positionals.length === 1 && !modelsOf(positionals[0]).length) {
    throw new UsageError(`compare needs a BASELINE and at least one CANDIDATE; ${positionals[0]} holds no Prob_<model> columns of several models.`);
  }
  const options = scoringOptions(values, { bootstrap: DEFAULT_COMPARE_RESAMPLES });
  let comparison: Comparison;
  try {
    comparison = comparePaths(positionals, options);
  } catch (e) {
    if (e instanceof CompareError) return { code: 2, stdout: '', stderr: `eval-lens: cannot compare: ${e.message}\n` };
    throw e;
  }
  const stdout = values.json ? JSON.stringify(compareJson(comparison), null, 1) + '\n' : formatComparison(comparison);
  return { code: 0, stdout, stderr: '' };
}

/** The --json document: {"version": 1, "comparison": ...}, non-finite numbers as null. */
export function compareJson(comparison: Comparison) {
  return { version: 1, comparison };
}
