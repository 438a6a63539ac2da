// `eval-lens board PATH...`: a leaderboard of runs x tasks.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { BoardMetricError, boardPathsAsync } from '../core/boardFiles';
import { boardJson } from '../documents/json';
import { METRIC_NAMES } from '../core/types';
import { UsageError, type CliOutput } from './args';
import { SCORING_OPTIONS, scoringOptions } from './scoreOptions';
import { SLICE_OPTIONS, sliceOptions } from './sliceArgs';
import { formatBoard } from '../documents/boardTable';
import { OUTPUT_OPTIONS, outputMode, printResult } from './output';
import { boardCsv, boardMarkdown } from '../documents/boardOutput';

export const BOARD_USAGE = `Usage: eval-lens board PATH... [options]

A leaderboard: each row a run (named from the files' metadata), each column a task, each cell the
headline metric (or --metric) with its 95% bootstrap interval, and the row mean (RAFT: raft_score).
A folktexts aggregated-results*.csv is read as a board of its reported figures.

Options:
  --metric M          the metric of the cells (${METRIC_NAMES.join(', ')}), or a task metric
                      the files log (lighteval's trad_score, …); default: the files' headline, and
                      for files of task metrics only, the first of them every result has (said)
  --pivot prompting   folktexts: per model x task, the change from multiple-choice to numeric
                      prompting (ECE and AUC, or --metric)
  --json              print one JSON document instead of a table
  --markdown          print the board as a Markdown table (a pull-request comment, a step summary)
  --csv               print one row per run and task, as CSV
  --bootstrap N       resamples for the intervals and the rank intervals (default 1000; 0: none)
  --interval M        bootstrap | t | wilson: how the cells' 95% intervals are made, as for score
  --raft-data DIR, --format F, --bins N, --threshold T, --hmr-beta B, --seed S, --gold-key K,
  --map FIELD=COL, --max-file-mb N: as for score
  --where TERMS       rank on the rows that satisfy TERMS only, as for score (repeatable; with
                      --data FILE and --join-key COL for a data file's columns)
  -h, --help          this help`;

export async function boardCommand(rest: string[]): Promise<CliOutput> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      ...SCORING_OPTIONS,
      metric: { type: 'string' },
      pivot: { type: 'string' },
      where: SLICE_OPTIONS.where, data: SLICE_OPTIONS.data, 'join-key': SLICE_OPTIONS['join-key'],
      ...OUTPUT_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { code: 0, stdout: BOARD_USAGE + '\n', stderr: '' };
  const mode = outputMode(values);
  if (!positionals.length) throw new UsageError('board needs at least one PATH.');
  if (values.metric !== undefined && !values.metric.trim()) throw new UsageError('--metric needs a metric name.');
  if (values.pivot !== undefined && values.pivot !== 'prompting') throw new UsageError(`--pivot takes 'prompting', got '${values.pivot}'.`);
  const options = scoringOptions(values, { bootstrap: 1000, ...sliceOptions(values) });
  let stderr = '';
  const present = positionals.filter((p) => {
    if (existsSync(p)) return true;
    stderr += `eval-lens: ${p}: no such file or folder.\n`;
    return false;
  });
  // --metric is checked against the files: a task metric they log is as good as one of ours.
  let result;
  try {
    result = await boardPathsAsync(present, options, { metric: values.metric, pivot: values.pivot as 'prompting' | undefined });
  } catch (e) {
    if (e instanceof BoardMetricError) throw new UsageError(`${e.message} Eval Lens's metrics: ${METRIC_NAMES.join(', ')}.`);
    throw e;
  }
  const filled = result.board.rows.length > 0;
  const boards = result.pivots ? Object.values(result.pivots).filter((b) => !!b) : [result.board];
  const printed = printResult(mode, {
    json: () => boardJson(result),
    table: () => boards.map(formatBoard).join('\n'),
    markdown: () => boardMarkdown(boards),
    csv: () => boardCsv(boards),
  });
  return { code: filled ? 0 : 2, stdout: printed.stdout, stderr: stderr + printed.stderr };
}

