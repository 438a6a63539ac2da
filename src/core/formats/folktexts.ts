// folktexts `*.test_predictions.csv`: written by pandas with index=True, so the header is
// `,risk_score,label` and the first, unnamed column is the original row index (the instance ID).
// Beside it, folktexts writes `results.bench-<hash>.json` with the figures it computed itself; those
// come back as `reported` (under our metric names, docs/metrics.md) so the report can compare them.
//
// Rows go through the byte-level scanner (numericCsv.ts) and fall back to parseCsv for the whole
// file only when a quote shows up; both paths share `folktextsRowHandler`, so they agree exactly.
import type { ParseResult, PredictionSet, RowProblem } from '../types';
import { sourceOf, type FileInput, type FormatContext } from './context';
import { forEachCsvRecordIn } from './csv';
import { NO_PROGRESS, type ParseProgress } from './progress';
import { parseBinaryLabel, parseProbability } from './numbers';
import {
  bomLength, defineLazyIds, capSinkProblems, finishProblems, newRowSink, nothingScoredMessage, readSimpleHeader, scanNumericCsv,
  type NumericLayout, type RowHandler, type RowSink,
} from './numericCsv';
import { baseName, dirName, joinPath } from '../../common/paths';
import { MAX_PROBLEMS } from '../problemCap';
import { parsePythonJson } from './pythonJson';

const SCORE_FIELD = 'risk_score';
const LABEL_FIELD = 'label';
/** What a duplicate ID does to its row (the message says so). */
const DUPLICATE_NOTE = 'the row is still scored, as folktexts and sklearn would score it';

/** folktexts' rates at the threshold, each with a _ratio and _diff across groups when it had a sensitive attribute. */
const FOLKTEXTS_RATES = ['accuracy', 'tpr', 'fnr', 'fpr', 'tnr', 'balanced_accuracy', 'precision', 'ppr'];

/**
 * folktexts' own metric keys (folktexts/evaluation.py) -> our metric names (docs/metrics.md). The rates and
 * ece_scaled are compared with the whole-set figures; the fairness keys with --group-by's (slices/slice.ts).
 */
export const FOLKTEXTS_METRIC_KEYS: Readonly<Record<string, string>> = {
  accuracy: 'accuracy',
  roc_auc: 'auc',
  brier_score_loss: 'brier',
  log_loss: 'log_loss',
  ece: 'ece',
  ece_quantile: 'ece_quantile',
  ...Object.fromEntries(['tpr', 'fnr', 'fpr', 'tnr', 'balanced_accuracy', 'precision', 'ppr', 'ece_scaled'].map((k) => [k, k])),
  ...Object.fromEntries(FOLKTEXTS_RATES.flatMap((m) => [`${m}_ratio`, `${m}_diff`]).map((k) => [k, k])),
  equalized_odds_ratio: 'equalized_odds_ratio',
  equalized_odds_diff: 'equalized_odds_diff',
};

export interface FolktextsParseOptions {
  /** 'auto' (the byte scanner, parseCsv when it gives up) or 'general' (parseCsv only; for tests). */
  path?: 'auto' | 'general';
  /** Progress and cancellation (parseInput's). */
  progress?: ParseProgress;
  /** Keep each row's index as set.ids (for a join on ID); off by default, to spare the memory. */
  keepIds?: boolean;
}

/** Parse a folktexts predictions file and read its results.bench-*.json when there is one. */
export function parseFolktexts(input: FileInput, ctx: FormatContext): ParseResult {
  const result = parseFolktextsRows(input, { progress: ctx.progress, keepIds: ctx.options.groupBy?.dataPath !== undefined });
  const reported = readReportedResults(input.path, ctx);
  if (reported) {
    result.reported = reported.reported;
    result.reportedPath = reported.path;
    if (reported.task) result.task = reported.task;
    result.problems.push(...reported.problems);
    if (reported.nSamples !== undefined && !result.fatal) {
      const rows = (result.set?.n ?? 0) + result.skipped;
      if (reported.nSamples !== rows) {
        result.problems.push({
          line: 1, severity: 'warning', code: 'reported-mismatch', path: reported.path,
          message: `The results file reports n_samples = ${reported.nSamples}, but this file has ${rows} data rows; it may belong to other predictions.`,
        });
      }
    }
  }
  result.task ??= taskFromFileName(input.path);
  return result;
}

/** The rows alone (no companion file), by the fast path unless told otherwise. */
export function parseFolktextsRows(input: FileInput, options: FolktextsParseOptions = {}): ParseResult {
  const bytes = input.bytes;
  const start = bomLength(bytes);
  const progress = options.progress ?? NO_PROGRESS;
  if (isBlank(bytes, start)) return fatalResult('The file is empty.', 'empty-file');

  if (options.path !== 'general') {
    const header = readSimpleHeader(bytes, start, ',');
    if (header) {
      const layout = folktextsLayout(header.fields);
      if (typeof layout === 'string') return fatalResult(layout, 'unscorable');
      // Rows are ~20 bytes; a close first guess avoids regrowing the columns.
      const sink = newRowSink((bytes.length - header.next) / 18 + 16, layout.idCol >= 0);
      if (scanNumericCsv(bytes, header.next, 2, layout, sink, folktextsRowHandler(layout), progress)) return finish(sink, options.keepIds);
    }
  }

  // The general path: an RFC 4180 parse of the text, decoded a chunk at a time, one record at a time.
  let layout: NumericLayout | string | undefined;
  let sink: RowSink | undefined;
  let handle: RowHandler | undefined;
  const { problems: csvProblems, fatal } = forEachCsvRecordIn(sourceOf(input), ',', (rec) => {
    if (!sink || !handle) {
      layout = folktextsLayout(rec.fields);
      if (typeof layout === 'string') return false;
      sink = newRowSink(1024, layout.idCol >= 0);
      handle = folktextsRowHandler(layout);
      return true;
    }
    sink.rows++;
    handle(rec, sink);
    if (sink.problems.length > MAX_PROBLEMS) capSinkProblems(sink);
    return true;
  }, progress);
  if (fatal) return fatalResult(fatal, 'unscorable');
  if (layout === undefined) return fatalResult('The file is empty.', 'empty-file');
  if (typeof layout === 'string') return fatalResult(layout, 'unscorable');
  // Unterminated quotes come first in line order anyway; finish() sorts by line.
  sink!.problems.unshift(...csvProblems);
  capSinkProblems(sink!);
  return finish(sink!, options.keepIds);
}

/** Find the risk_score, label and index columns, or say in one sentence why the header will not do. */
function folktextsLayout(header: string[]): NumericLayout | string {
  const names = header.map((h) => h.trim().toLowerCase());
  const valueCol = names.indexOf(SCORE_FIELD);
  const targetCol = names.indexOf(LABEL_FIELD);
  if (valueCol === -1 || targetCol === -1) {
    const missing = [valueCol === -1 ? SCORE_FIELD : '', targetCol === -1 ? LABEL_FIELD : ''].filter(Boolean).join(' and ');
    return `The header (${header.map((h) => JSON.stringify(h)).join(', ')}) has no ${missing} column, which a folktexts predictions file needs.`;
  }
  // pandas writes the index first, unnamed (or named after the index).
  const first = names[0];
  const idCol = first === '' || first === 'index' || first === 'id' || first === 'unnamed: 0' ? 0 : -1;
  return { delimiter: 44, columns: header.length, valueCol, targetCol, idCol: valueCol === 0 || targetCol === 0 ? -1 : idCol };
}

/** Validate one record: the same code for the scanner's odd rows and for every parseCsv record. */
function folktextsRowHandler(layout: NumericLayout): RowHandler {
  const { columns: expected, valueCol, targetCol, idCol } = layout;
  return (rec, sink) => {
    const { fields, columns } = rec;
    if (fields.length !== expected) {
      sink.problems.push({
        line: rec.line, column: 1, severity: 'error', code: 'column-count',
        message: `The row has ${fields.length} field${fields.length === 1 ? '' : 's'} where the header has ${expected}; the row is skipped.`,
      });
      sink.skipped++;
      return;
    }
    const lineOf = (k: number) => rec.fieldLines?.[k] ?? rec.line;
    const score = parseProbability(fields[valueCol], lineOf(valueCol), columns[valueCol], SCORE_FIELD, sink.problems);
    const label = parseBinaryLabel(fields[targetCol], lineOf(targetCol), columns[targetCol], LABEL_FIELD, sink.problems);
    if (score === undefined || label === undefined) {
      sink.skipped++;
      return;
    }
    sink.columns.push(score, label, rec.line);
    if (sink.ids) {
      const id = fields[idCol];
      if (id === '') {
        sink.problems.push({ line: lineOf(idCol), column: columns[idCol], severity: 'warning', code: 'missing-field', message: 'The index (the row ID) is empty; the row is still scored.' });
        sink.ids.pushNone();
      } else {
        sink.ids.pushText(id, columns[idCol]);
      }
    }
  };
}

function finish(sink: RowSink, keepIds = false): ParseResult {
  const { value, target, lines } = sink.columns.finish();
  const n = sink.columns.n;
  const problems = sink.problems;
  if (sink.ids) {
    // A loop, not push(...): a million repeated IDs would overflow the argument stack.
    for (const p of sink.ids.duplicates(lines, 'Index', DUPLICATE_NOTE)) {
      if (problems.length < MAX_PROBLEMS) problems.push(p);
      else sink.droppedProblems++;
    }
  }
  const sorted = finishProblems(problems, sink.droppedProblems);
  const base: ParseResult = { format: 'folktexts', set: null, problems: sorted, skipped: sink.skipped, unlabeled: 0 };
  if (sink.rows === 0) {
    sorted.unshift({ line: 1, severity: 'error', code: 'empty-file', message: 'The file has a header but no data rows.' });
    return { ...base, fatal: 'The file has a header but no data rows.' };
  }
  if (n === 0) {
    return { ...base, fatal: nothingScoredMessage(sink.rows, sorted) };
  }
  // IDs as compare aligns them (numbers when they all are); the strings too when a data file is joined on them.
  // (Made when first read: a join on integer keys reads idNumbers instead.)
  const set: PredictionSet = { kind: 'binary', n, score: value, label: target, lines, ...sink.ids?.idColumn() };
  const ids = sink.ids;
  if (keepIds && ids) defineLazyIds(set, () => ids.strings());
  return { ...base, set };
}

function fatalResult(message: string, code: 'empty-file' | 'unscorable'): ParseResult {
  return {
    format: 'folktexts', set: null, skipped: 0, unlabeled: 0, fatal: message,
    problems: [{ line: 1, column: 1, severity: 'error', code, message }],
  };
}

function isBlank(bytes: Uint8Array, start: number): boolean {
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// results.bench-*.json

export interface ReportedResults {
  path: string;
  reported: Record<string, number | null>;
  task?: string;
  /** folktexts' n_samples, to check the file is the one the results were computed on. */
  nSamples?: number;
  problems: RowProblem[];
}

/**
 * Find and read the results.bench-*.json beside a predictions file. With several, the one whose
 * `predictions_path` names this file wins, else the first by name (with an info problem).
 */
export function readReportedResults(predictionsPath: string, ctx: FormatContext): ReportedResults | undefined {
  const dir = dirName(predictionsPath);
  if (!dir) return undefined;
  const names = (ctx.io.list(dir) ?? []).filter((n) => /^results\.bench-.*\.json$/i.test(n)).sort();
  if (!names.length) return undefined;
  const join = (name: string) => joinPath(dir, name);

  const candidates: { path: string; text: string; value: unknown; error?: string }[] = [];
  for (const name of names) {
    const path = join(name);
    const text = ctx.io.readText(path);
    if (text === undefined) continue;
    try {
      candidates.push({ path, text, value: parsePythonJson(text) });
    } catch (e) {
      candidates.push({ path, text, value: undefined, error: e instanceof Error ? e.message : String(e) });
    }
  }
  if (!candidates.length) return undefined;
  const problems: RowProblem[] = [];
  const predictionsOf = (v: unknown) => (isObject(v) && typeof v.predictions_path === 'string' ? v.predictions_path : undefined);
  let chosen = candidates.find((c) => {
    const p = predictionsOf(c.value);
    return p !== undefined && baseName(p) === baseName(predictionsPath);
  });
  if (!chosen) {
    chosen = candidates[0];
    if (candidates.length > 1) {
      problems.push({ line: 1, severity: 'info', code: 'reported-mismatch', path: chosen.path, message: `${candidates.length} results.bench-*.json files sit beside this file and none names it in predictions_path; the figures of the first are shown.` });
    }
  }
  if (chosen.error !== undefined || !isObject(chosen.value)) {
    problems.push({ line: 1, severity: 'warning', code: 'json-parse', path: chosen.path, message: `The results file does not parse as a JSON object${chosen.error ? `: ${chosen.error}` : ''}; its figures are not compared.` });
    return { path: chosen.path, reported: {}, problems };
  }
  const obj = chosen.value;
  const reported: Record<string, number | null> = {};
  for (const [key, name] of Object.entries(FOLKTEXTS_METRIC_KEYS)) {
    if (!(key in obj)) continue;
    const v = obj[key];
    // NaN and Infinity are kept (the file reports them, and they are shown as such); anything that
    // is not a number is no figure.
    reported[name] = typeof v === 'number' ? v : null;
  }
  const config = isObject(obj.config) ? obj.config : undefined;
  const task = typeof config?.task_name === 'string' ? config.task_name : undefined;
  const nSamples = typeof obj.n_samples === 'number' ? obj.n_samples : undefined;
  const threshold = obj.threshold;
  if (typeof threshold === 'number' && threshold !== ctx.options.threshold && 'accuracy' in reported) {
    problems.push({
      line: lineOfKey(chosen.text, 'threshold'), severity: 'info', code: 'reported-mismatch', path: chosen.path,
      message: `folktexts computed its accuracy at threshold ${threshold}; this report uses ${ctx.options.threshold}, so the two accuracies may differ.`,
    });
  }
  return { path: chosen.path, reported, task, nSamples, problems };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function lineOfKey(text: string, key: string): number {
  const i = text.indexOf(`"${key}"`);
  if (i === -1) return 1;
  let line = 1;
  for (let j = text.indexOf('\n'); j !== -1 && j < i; j = text.indexOf('\n', j + 1)) line++;
  return line;
}

/** folktexts names predictions after the dataset: "ACSIncome_subsampled-0.01_seed-42_hash-....test_predictions.csv". */
function taskFromFileName(path: string): string | undefined {
  const name = baseName(path);
  return /^(ACS[A-Za-z]+)(?:[_.]|$)/.exec(name)?.[1];
}

