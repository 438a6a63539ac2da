// Summary files that are tables: one row per model, task, dataset or threshold, and columns of
// figures. Three shapes:
//  - OpenCompass's summary_<time>.csv (opencompass/summarizers/default.py, _format_table): the
//    header dataset, version, metric, mode, then one column per model; a value is '{:.02f}' of a
//    percentage, or '-' when the model has none;
//  - an AlpacaEval leaderboard (src/alpaca_eval/leaderboards/*/<annotator>_leaderboard.csv,
//    written by pandas with the model as the unnamed index): win_rate, standard_error, n_wins,
//    n_wins_base, n_draws, n_total, discrete_win_rate, mode, avg_length, ...;
//  - any other table whose rows are models, tasks or thresholds and whose columns are metrics:
//    what the column roles call a summary (roles.ts, `notPredictions`), or a table with a column
//    naming each row and at least two metric columns, no gold label and no long texts.
// A table the generic reader takes as predictions (score + label, pred + gold, ...) is never one.
import type { SummaryFigure } from '../types';
import { parseCsv, sniffDelimiter, stripBom, type CsvRecord } from './csv';
import { columnRoles } from './roles';
import { looksLikeGenericTable } from './generic';
import { FigureList, figureValue, isMetricName } from './summaryFigures';
import type { JsonSummary } from './summaryJson';

interface Table {
  names: string[];
  rows: string[][];
  /** 1-based line of each row. */
  lines: number[];
}

/** The table in `text`; with `partial`, the last record is dropped (it may be cut). */
function readTable(path: string, text: string, partial: boolean): Table {
  const body = stripBom(text);
  const nl = body.indexOf('\n');
  const delimiter = /\.(tsv|tab)$/i.test(path) ? '\t' : sniffDelimiter(nl === -1 ? body : body.slice(0, nl));
  const table = parseCsv(body, delimiter);
  const records: CsvRecord[] = partial && table.records.length > 1 ? table.records.slice(0, -1) : table.records;
  return { names: table.header.map((h) => h.trim()), rows: records.map((r) => r.fields), lines: records.map((r) => r.line) };
}

const OPENCOMPASS_HEAD = ['dataset', 'version', 'metric', 'mode'];
const isOpenCompass = (names: string[]) => names.length > 4 && OPENCOMPASS_HEAD.every((h, i) => names[i].toLowerCase() === h);
/**
 * Arena-Hard-Auto's leaderboard (show_result.py --output: leaderboard/arena_hard_leaderboard_<date>.csv):
 * model, score (the win rate against the baseline in percent, or an Elo rating with --show-elo),
 * rating_q025, rating_q975 (its bootstrap interval), CI, avg_tokens, date; later versions add elo_* columns.
 */
const isArenaHard = (names: string[]) => ['model', 'score', 'rating_q025', 'rating_q975'].every((n) => names.includes(n));
const isAlpacaEval = (names: string[]) => names.includes('win_rate') && ['standard_error', 'n_total', 'avg_length', 'length_controlled_winrate', 'discrete_win_rate'].some((n) => names.includes(n));

/** Column names that say what each row stands for (config_task_name, model_abbr, threshold, ...). */
const ROW_LABEL = /(^|_)(model|models|model_name|model_abbr|name|task|tasks|task_name|dataset|dataset_name|benchmark|subset|split|threshold|run|config|setting|method)$/i;
/** Names of sample identifiers: a column of them makes rows samples, not models or tasks. */
const ID_NAME = /(^|[_\s-])(id|ids|idx|index|uid|uuid|key)$/i;
/** Columns of a sample's text (a question, the model's answer): rows that have them are samples. */
const SAMPLE_TEXT = /^(question|questions|prompt|input|inputs|answer|answers|response|responses|output|outputs|completion|context|contexts|passage|document|text|sentence|reference|ground_truth|user_input|retrieved_contexts)$/i;
/** A cell longer than this, with spaces, is text (a question, an answer; not a file path): such a table holds samples, not figures. */
const LONG_TEXT = 100;
/** Columns holding how many samples a row's figures are over. */
const COUNT_COLUMN = /^(n|n_samples|num_samples|n_total|n_examples|num_examples|count|support|samples|num_instances)$/i;

const column = (t: Table, i: number) => t.rows.map((r) => (r[i] ?? '').trim());
const isNumericColumn = (values: string[]) => values.some((v) => v !== '') && values.every((v) => v === '' || figureValue(v) !== undefined);

/**
 * pandas' index, written by to_csv unless index=False: an unnamed column ('' as the header, or
 * "Unnamed: 0" once a frame read with its index is written again) of whole numbers. It numbers the
 * rows; it is no metric. (An unnamed column of names is the index too, and names the rows.)
 */
const isPandasRowIndex = (t: Table, i: number) =>
  (t.names[i] === '' || /^Unnamed: \d+$/.test(t.names[i])) && column(t, i).every((v) => /^[+-]?\d+$/.test(v));

/**
 * The columns that name each row: the first column (unless it holds sample IDs or a row index),
 * then columns named like a model, task or threshold, taken while they tell more rows apart, until
 * every row has its own name. Undefined when they never do (rows that are samples, not entities).
 */
function rowLabelColumns(t: Table): number[] | undefined {
  const candidates: number[] = [];
  if (t.names.length && !ID_NAME.test(t.names[0]) && !column(t, 0).every((v) => /^[+-]?\d+$/.test(v))) candidates.push(0);
  t.names.forEach((n, i) => { if (i > 0 && ROW_LABEL.test(n)) candidates.push(i); });
  const chosen: number[] = [];
  let seen = 0;
  for (const i of candidates.filter((c) => column(t, c).every((v) => v !== ''))) {
    const labels = t.rows.map((r) => [...chosen, i].map((c) => r[c].trim()).join('/'));
    const count = new Set(labels).size;
    if (count <= seen) continue;
    chosen.push(i);
    seen = count;
    if (count === t.rows.length) return chosen;
    if (chosen.length === 3) break;
  }
  return undefined;
}

/** Column names the roles count as a summary's besides metric names (roles.ts, METRIC_EXACT). */
const SUMMARY_NAME = /^(support|n_samples|num_samples|std|specificity|sensitivity)$/i;

/** The header line has OpenCompass's or AlpacaEval's columns, or at least two metric names. */
function mayBeSummaryHeader(path: string, head: string): boolean {
  const body = stripBom(head);
  const nl = body.indexOf('\n');
  const line = (nl === -1 ? body : body.slice(0, nl)).replace(/\r$/, '');
  const names = parseCsv(line, /\.(tsv|tab)$/i.test(path) ? '\t' : sniffDelimiter(line)).header.map((h) => h.trim());
  if (isOpenCompass(names) || isAlpacaEval(names) || isArenaHard(names)) return true;
  return names.filter((n) => isMetricName(n) || SUMMARY_NAME.test(n)).length >= 2;
}

/**
 * Whether a table (the head of a file; `complete` when that is the whole file) is a summary:
 * OpenCompass's, AlpacaEval's, what the column roles call a summary, or rows named by a model,
 * task or threshold column with metric columns (three, or two when the generic reader would not
 * take the table as predictions), and no gold label, sample ID, text column or long text.
 */
export function isSummaryTable(path: string, head: string, complete: boolean): boolean {
  if (!/\.(csv|tsv|tab)$/i.test(path)) return false;
  // Most tables are predictions: a header with fewer than two metric names is none of these shapes,
  // and is told from the header line alone (no rows parsed, no roles).
  if (!mayBeSummaryHeader(path, head)) return false;
  const t = readTable(path, head, !complete);
  if (!t.names.length || !t.rows.length) return false;
  if (isOpenCompass(t.names) || isAlpacaEval(t.names) || isArenaHard(t.names)) return true;
  const roles = columnRoles(t.names, (name) => column(t, t.names.indexOf(name)), { rowCount: t.rows.length });
  if (roles.notPredictions) return true;
  if (roles.mapping.gold !== undefined || t.names.some((n) => SAMPLE_TEXT.test(n))) return false;
  if (t.rows.some((r) => r.some((c) => c.length > LONG_TEXT && /\s\S+\s/.test(c)))) return false;
  if (rowLabelColumns(t) === undefined) return false;
  const metrics = t.names.filter((n, i) => isMetricName(n) && isNumericColumn(column(t, i))).length;
  return metrics >= 3 || (metrics >= 2 && !looksLikeGenericTable(path, head));
}

/** The figures of a summary table: "<row>/<metric>" for each numeric cell ("<metric>" alone in a one-row table without row names). */
export function tableSummary(path: string, text: string): JsonSummary {
  const t = readTable(path, text, false);
  if (isOpenCompass(t.names)) return openCompassSummary(t);
  const alpaca = isAlpacaEval(t.names);
  const labels = rowLabelColumns(t) ?? [];
  const countAt = t.names.findIndex((n) => COUNT_COLUMN.test(n));
  const numeric = t.names.map((_, i) => !labels.includes(i) && !isPandasRowIndex(t, i) && isNumericColumn(column(t, i)));
  // The model is the first label column when it is unnamed (pandas' index: AlpacaEval's model) or named so.
  const modelAt = labels.find((i) => (i === 0 && t.names[0] === '') || /model/i.test(t.names[i]));
  const list = new FigureList();
  t.rows.forEach((row, r) => {
    const label = labels.length ? labels.map((i) => row[i].trim()).join('/') : t.rows.length > 1 ? `row ${r + 1}` : undefined;
    const model = modelAt !== undefined ? row[modelAt].trim() : undefined;
    const task = labels.filter((i) => i !== modelAt).map((i) => row[i].trim()).join('/') || (model === undefined ? label : undefined);
    const count = countAt !== -1 ? figureValue(row[countAt] ?? '') : undefined;
    const n = typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : undefined;
    t.names.forEach((name, i) => {
      // An empty cell is no figure (pandas writes NaN so): only the values the row has.
      if (!numeric[i] || (row[i] ?? '').trim() === '') return;
      const value = figureValue(row[i]);
      if (value === undefined) return;
      const metric = name === '' ? `column ${i + 1}` : name;
      const figure: SummaryFigure = { name: label !== undefined ? `${label}/${metric}` : metric, metric, value };
      if (model !== undefined) figure.model = model;
      if (task) figure.task = task;
      if (n && i !== countAt) figure.n = n;
      list.add(figure);
    });
  });
  const by = alpaca ? 'model' : labels.map((i) => t.names[i] || (i === modelAt ? 'model' : 'row')).join(' and ') || 'row';
  const arenaHard = !alpaca && isArenaHard(t.names);
  const source = alpaca ? 'an AlpacaEval leaderboard' : arenaHard ? 'an Arena-Hard-Auto leaderboard (score: win rate against the baseline, in percent)' : `a table of metrics per ${by}`;
  const harness = alpaca ? 'AlpacaEval' : arenaHard ? 'Arena-Hard-Auto' : undefined;
  return { info: { source, ...(harness ? { harness } : {}), figures: list.figures } };
}

/** OpenCompass: "<dataset>/<metric>" per model column (the model first when there are several); '-' is not reported. */
function openCompassSummary(t: Table): JsonSummary {
  const models = t.names.slice(4);
  const list = new FigureList();
  for (const row of t.rows) {
    const [dataset, , metric] = row.map((c) => c.trim());
    // A dataset with no result at all: '-' in every column.
    if (!metric || metric === '-') continue;
    models.forEach((model, k) => {
      const value = figureValue(row[4 + k] ?? '');
      const name = models.length === 1 ? `${dataset}/${metric}` : `${model}/${dataset}/${metric}`;
      list.add({ name, task: dataset, metric, model, value: value === undefined ? null : value });
    });
  }
  return {
    info: { source: 'an OpenCompass summary (figures in percent)', harness: 'OpenCompass', figures: list.figures },
    ...(models.length === 1 ? { sourceModel: models[0] } : {}),
  };
}
