// RAFT (Real-world Annotated Few-shot Tasks): a submission is one `predictions.csv` (`ID,Label`) per
// task folder. Gold labels and instance texts live in the task's `train.csv` + `task.json`, found
// beside the predictions or in a RAFT data folder (`--raft-data DIR` -> DIR/<task>/). Only the 50
// training IDs per task have public labels; predictions for the hidden test split are counted as
// `unlabeled` and summarised once, because a submission holds thousands of them.
import type { MulticlassSet, ParseResult, RowProblem, Severity, ProblemCode } from '../types';
import { sourceOf, type CompanionReader, type FileInput, type FormatContext, type TextSource } from './context';
import { forEachCsvRecordIn, parseCsv, sniffDelimiter, stripBom, textStart, type CsvRecord, type CsvTable } from './csv';
import { bomLength } from './numericCsv';
import { NO_PROGRESS, type ParseProgress } from './progress';
import { baseName, dirName, joinPath } from '../../common/paths';
import { parsePythonJson } from './pythonJson';

/** The 11 RAFT datasets (the folder names of a submission and of the data). */
export const RAFT_TASK_NAMES: readonly string[] = [
  'ade_corpus_v2', 'banking_77', 'neurips_impact_statement_risks', 'one_stop_english', 'overruling',
  'semiconductor_org_types', 'systematic_review_inclusion', 'tai_safety_research', 'terms_of_service',
  'tweet_eval_hate', 'twitter_complaints',
];

/** The HF `ought/raft` ClassLabel name of index 0: the placeholder label of the test split. */
export const RAFT_UNLABELED = 'Unlabeled';

/** One CSV split of a RAFT task (train.csv or test.csv), columnar. */
export interface RaftSplit {
  path: string;
  /** IDs as written (trimmed). */
  ids: string[];
  /**
   * Class index per row into RaftTask.classes; -1 when the row is unlabeled ("Unlabeled", HF 0, or
   * no Label column, as in test.csv); -2 when its Label is unusable (a problem says why).
   */
  labels: Int32Array;
  /** 1-based line where each row's record starts. */
  lines: Uint32Array;
  /** Per row, the values of RaftTask.dataColumns. */
  texts: string[][];
}

export interface RaftTask {
  name: string;
  dir: string;
  taskJsonPath: string;
  /** task.json's sorted class list; empty when task.json is unusable (then `error` says why). */
  classes: string[];
  /** The text fields of an instance: task.json's data_columns without ID. */
  dataColumns: string[];
  /** Undefined when train.csv is missing. */
  train?: RaftSplit;
  /** The optional test.csv (IDs of the hidden split; usually no labels). */
  test?: RaftSplit;
  /** Problems inside task.json / train.csv / test.csv, each with `path` set. */
  problems: RowProblem[];
  /** One sentence when the task cannot supply gold labels (task.json unusable). */
  error?: string;
}

// --- small helpers ------------------------------------------------------------------------------

/** IDs compare as integers when they look like one ("050", "50.0" from a float column, " 50"). */
function canonicalId(raw: string): string {
  const s = raw.trim();
  const m = /^\+?0*(\d+?)(?:\.0*)?$/.exec(s);
  return m ? m[1] : s;
}

function quote(s: string): string {
  return JSON.stringify(s.length > 80 ? s.slice(0, 77) + '...' : s);
}

function listClasses(classes: string[]): string {
  const shown = classes.slice(0, 6).map(quote).join(', ');
  return classes.length > 6 ? `${shown}, ... (${classes.length} classes)` : shown;
}

/** "IDs 50–3449" for integer IDs, else the first few. */
function describeIds(ids: string[]): string {
  if (ids.length === 0) return 'no IDs';
  if (ids.every((id) => /^\d+$/.test(id))) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const id of ids) { const v = Number(id); if (v < lo) lo = v; if (v > hi) hi = v; }
    return lo === hi ? `ID ${lo}` : `IDs ${lo}–${hi}`;
  }
  const first = ids.slice(0, 3).map(quote).join(', ');
  return ids.length > 3 ? `IDs ${first}, ...` : `ID${ids.length > 1 ? 's' : ''} ${first}`;
}

type Decoded =
  | { kind: 'class'; index: number }
  | { kind: 'unlabeled'; how: string }
  | { kind: 'empty' }
  | { kind: 'unknown'; why: string };

/**
 * A label is a class name, or an int in the HF encoding (0 = "Unlabeled", k = classes[k - 1]).
 * Exact names win over the integer reading, so a class literally named "1" stays itself.
 */
function decodeLabel(raw: string, classes: string[], index: Map<string, number>, task: string): Decoded {
  const s = raw.trim();
  if (s === '') return { kind: 'empty' };
  const exact = index.get(s);
  if (exact !== undefined) return { kind: 'class', index: exact };
  if (s === RAFT_UNLABELED) return { kind: 'unlabeled', how: `"${RAFT_UNLABELED}"` };
  const int = /^\+?(\d+)(?:\.0*)?$/.exec(s);
  if (int) {
    const k = Number(int[1]);
    if (k === 0) return { kind: 'unlabeled', how: `0 (= "${RAFT_UNLABELED}" in the HF encoding)` };
    if (k <= classes.length) return { kind: 'class', index: k - 1 };
    return { kind: 'unknown', why: `${s} is beyond ${task}'s ${classes.length} classes (integer labels use the HF encoding: 0 = "${RAFT_UNLABELED}", 1–${classes.length} = the classes of task.json in order)` };
  }
  const folded = classes.filter((c) => c.toLowerCase() === s.toLowerCase());
  const hint = folded.length === 1 ? `; did you mean ${quote(folded[0])}? (class names are case-sensitive)` : '';
  return { kind: 'unknown', why: `${quote(s)} is not a class of ${task} (${listClasses(classes)})${hint}` };
}

/**
 * Line start offsets, to turn a record's first line into an end column for "too few fields". On
 * bytes, a line's length in characters is that of its slice decoded alone.
 */
function lineLengths(source: TextSource): (line: number) => number {
  if (typeof source !== 'string') {
    const bytes = source;
    // FileInput.text() drops one BOM, so line 1 starts after it.
    const starts = [bomLength(bytes)];
    for (let i = bytes.indexOf(10, starts[0]); i !== -1; i = bytes.indexOf(10, i + 1)) starts.push(i + 1);
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    return (line) => {
      const s = starts[line - 1] ?? bytes.length;
      const e = line < starts.length ? starts[line] - 1 : bytes.length;
      return e <= s ? 0 : decoder.decode(bytes.subarray(s, e)).length - (bytes[e - 1] === 13 ? 1 : 0);
    };
  }
  const text = source;
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (line) => {
    const s = starts[line - 1] ?? text.length;
    const e = line < starts.length ? starts[line] - 1 : text.length;
    return e - s - (text.charCodeAt(e - 1) === 13 ? 1 : 0);
  };
}

/**
 * parseCsv of a predictions file, read from its bytes a chunk at a time (no one string of the
 * whole file), the delimiter sniffed from the first line.
 */
function readPredictionsTable(source: TextSource, progress: ParseProgress): CsvTable & { fatal?: string } {
  let firstLine: string;
  if (typeof source === 'string') firstLine = stripBom(source);
  else {
    const start = textStart(source);
    const lf = source.indexOf(10, start);
    // The first line only: the sniffer looks no further.
    try {
      firstLine = new TextDecoder('utf-8', { ignoreBOM: true }).decode(source.subarray(start, lf === -1 ? source.length : lf));
    } catch {
      firstLine = ','; // a first line too long for a string: the reader below says so
    }
  }
  const all: CsvRecord[] = [];
  const scan = forEachCsvRecordIn(source, sniffDelimiter(firstLine), (rec) => { all.push(rec); }, progress);
  return { header: all.length ? all[0].fields : [], records: all.slice(1), problems: scan.problems, fatal: scan.fatal };
}

/** Where a field sits, with an end column when the field is a plain one-line value. */
function fieldSpan(rec: CsvRecord, i: number): { line: number; column: number; endColumn?: number } {
  const line = rec.fieldLines[i] ?? rec.line;
  const column = rec.columns[i] ?? 1;
  const v = rec.fields[i] ?? '';
  if (v.length > 0 && !/["\r\n]/.test(v)) return { line, column, endColumn: column + v.length };
  return { line, column };
}

/**
 * Collects problems; after `limit` of one code the rest are counted and summarised once, so a
 * 3,000-row submission with a systematic mistake shows a readable Problems panel.
 */
class ProblemLog {
  private readonly items: RowProblem[] = [];
  private readonly counts = new Map<ProblemCode, { listed: number; hidden: number; severity: Severity; firstHidden: number }>();
  constructor(private readonly limit: number, private readonly path?: string) {}

  add(p: RowProblem): void {
    if (this.path !== undefined) p.path = this.path;
    let c = this.counts.get(p.code);
    if (!c) this.counts.set(p.code, (c = { listed: 0, hidden: 0, severity: p.severity, firstHidden: 0 }));
    if (c.listed < this.limit) { c.listed++; this.items.push(p); return; }
    if (c.hidden === 0) c.firstHidden = p.line;
    c.hidden++;
  }

  /** The listed problems in line order, then one summary per code that overflowed. */
  finish(): RowProblem[] {
    const out = [...this.items].sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
    for (const [code, c] of this.counts) {
      if (c.hidden === 0) continue;
      const p: RowProblem = { line: c.firstHidden, severity: c.severity, code, message: `${c.hidden} more '${code}' problem${c.hidden === 1 ? '' : 's'} like the ${c.listed} above (from line ${c.firstHidden} on) are not listed one by one.` };
      if (this.path !== undefined) p.path = this.path;
      out.push(p);
    }
    return out;
  }
}

/** RaftSplit.labels value of a row whose Label could not be read. */
const UNUSABLE = -2;

/** Problems listed per code before the rest are summarised. */
const LIMIT_PER_CODE = 100;

// --- task data ------------------------------------------------------------------------------------

/**
 * Offset of the first syntax error in a JSON text (V8's messages do not always carry a position),
 * by a small recursive-descent check. Only called after JSON.parse has failed.
 */
function jsonErrorOffset(s: string): number {
  let i = 0;
  const literal = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
  const fail = (): never => { throw i; };
  const ws = () => { while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++; };
  const str = () => {
    i++;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 34) { i++; return; }
      if (c < 32) fail();
      i += c === 92 ? 2 : 1;
    }
    fail();
  };
  const value = (): void => {
    ws();
    const c = s[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++; ws();
      if (s[i] === close) { i++; return; }
      for (;;) {
        if (c === '{') { ws(); if (s[i] !== '"') fail(); str(); ws(); if (s[i] !== ':') fail(); i++; }
        value(); ws();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === close) { i++; return; }
        fail();
      }
    }
    if (c === '"') return str();
    literal.lastIndex = i;
    const m = literal.exec(s);
    if (!m) fail();
    i += m![0].length;
  };
  try {
    value(); ws();
    return i < s.length ? i : -1;
  } catch (at) {
    if (typeof at === 'number') return at;
    throw at;
  }
}

function jsonErrorPosition(text: string): { line: number; column: number } {
  const pos = jsonErrorOffset(text);
  if (pos < 0) return { line: 1, column: 1 };
  let line = 1;
  let start = 0;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) { line++; start = i + 1; }
  return { line, column: pos - start + 1 };
}

interface TaskJson { name?: string; classes: string[]; dataColumns?: string[] }

function readTaskJson(path: string, text: string, problems: RowProblem[]): TaskJson | undefined {
  let value: unknown;
  const body = stripBom(text);
  try {
    value = parsePythonJson(body);
  } catch (err) {
    const at = jsonErrorPosition(body);
    problems.push({ ...at, severity: 'error', code: 'json-parse', path, message: `task.json does not parse as JSON at line ${at.line}, column ${at.column}: ${String((err as Error).message ?? err).replace(/\s+/g, ' ').slice(0, 120)}.` });
    return undefined;
  }
  const obj = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  const labelColumns = obj.label_columns as Record<string, unknown> | undefined;
  const raw = labelColumns && typeof labelColumns === 'object' ? labelColumns.Label : undefined;
  if (!Array.isArray(raw) || raw.length === 0 || !raw.every((c) => typeof c === 'string')) {
    problems.push({ line: 1, column: 1, severity: 'error', code: 'missing-field', path, message: `task.json has no class list: "label_columns": {"Label": [class names]} is ${raw === undefined ? 'missing' : 'not a non-empty list of strings'}.` });
    return undefined;
  }
  const classes = [...new Set(raw as string[])];
  const dataColumns = Array.isArray(obj.data_columns) ? (obj.data_columns as unknown[]).filter((c): c is string => typeof c === 'string') : undefined;
  return { name: typeof obj.name === 'string' ? obj.name : undefined, classes, dataColumns };
}

/** Read train.csv or test.csv (labels: see RaftSplit.labels). */
function readSplit(path: string, text: string, task: TaskJson & { name: string }, role: 'train' | 'test', problems: RowProblem[]): { split: RaftSplit; textFields: string[] } | undefined {
  const table = parseCsv(text, ',');
  const log = new ProblemLog(LIMIT_PER_CODE, path);
  for (const p of table.problems) log.add(p);
  const header = table.header.map((h) => h.trim());
  const idCol = header.findIndex((h) => h.toLowerCase() === 'id');
  const labelCol = header.findIndex((h) => h.toLowerCase() === 'label');
  const file = role === 'train' ? 'train.csv' : 'test.csv';
  if (idCol < 0 || (role === 'train' && labelCol < 0)) {
    const missing = idCol < 0 ? 'ID' : 'Label';
    log.add({ line: 1, column: 1, severity: 'error', code: 'missing-field', message: `${file} has no ${missing} column (header: ${header.map(quote).join(', ') || 'empty'}).` });
    problems.push(...log.finish());
    return undefined;
  }
  // Text fields: task.json's data_columns without ID, restricted to what the file has.
  let textFields = header.filter((_, i) => i !== idCol && i !== labelCol);
  if (task.dataColumns) {
    const wanted = task.dataColumns.filter((c) => c !== 'ID');
    const absent = wanted.filter((c) => !header.includes(c));
    if (absent.length && role === 'train') {
      log.add({ line: 1, column: 1, severity: 'warning', code: 'missing-field', message: `task.json lists data column${absent.length > 1 ? 's' : ''} ${absent.map(quote).join(', ')} that ${file} does not have; the instance texts leave ${absent.length > 1 ? 'them' : 'it'} out.` });
    }
    textFields = wanted.filter((c) => header.includes(c));
  }
  const textIdx = textFields.map((f) => header.indexOf(f));
  const classIndex = new Map(task.classes.map((c, i) => [c, i] as [string, number]));
  const ids: string[] = [];
  const labels: number[] = [];
  const lines: number[] = [];
  const texts: string[][] = [];
  const seen = new Map<string, number>();
  for (const rec of table.records) {
    if (rec.fields.length !== header.length) {
      log.add({ line: rec.line, column: 1, severity: 'error', code: 'column-count', message: `${file} row has ${rec.fields.length} fields but the header has ${header.length}; the row is ignored.` });
      continue;
    }
    const id = rec.fields[idCol].trim();
    if (id === '') {
      log.add({ ...fieldSpan(rec, idCol), severity: 'error', code: 'missing-field', message: `${file} row has an empty ID field; the row is ignored.` });
      continue;
    }
    const key = canonicalId(id);
    const first = seen.get(key);
    if (first !== undefined) {
      log.add({ ...fieldSpan(rec, idCol), severity: 'warning', code: 'duplicate-id', message: `ID ${quote(id)} appears again in ${file} (first on line ${first}); the first is kept.` });
      continue;
    }
    seen.set(key, rec.line);
    let label = -1;
    if (labelCol >= 0) {
      const d = decodeLabel(rec.fields[labelCol], task.classes, classIndex, task.name);
      if (d.kind === 'class') label = d.index;
      else if (d.kind === 'unknown' || (d.kind === 'empty' && role === 'train')) label = UNUSABLE;
      if (d.kind === 'unknown') log.add({ ...fieldSpan(rec, labelCol), severity: 'error', code: 'unknown-class', message: `${file} Label of ID ${quote(id)}: ${d.why}; this instance has no gold label.` });
      else if (d.kind === 'empty' && role === 'train') log.add({ ...fieldSpan(rec, labelCol), severity: 'warning', code: 'missing-field', message: `${file} Label of ID ${quote(id)} is empty; this instance has no gold label.` });
    }
    ids.push(id);
    labels.push(label);
    lines.push(rec.line);
    texts.push(textIdx.map((i) => rec.fields[i]));
  }
  problems.push(...log.finish());
  return { split: { path, ids, labels: Int32Array.from(labels), lines: Uint32Array.from(lines), texts }, textFields };
}

/**
 * Load a RAFT task folder (task.json, train.csv, optional test.csv). Undefined when the folder has
 * neither task.json nor train.csv. `error` is set when task.json is missing or unusable.
 */
export function loadRaftTask(taskDir: string, io: CompanionReader): RaftTask | undefined {
  const taskJsonPath = joinPath(taskDir, 'task.json');
  const trainPath = joinPath(taskDir, 'train.csv');
  const testPath = joinPath(taskDir, 'test.csv');
  const taskText = io.readText(taskJsonPath);
  const trainText = io.readText(trainPath);
  if (taskText === undefined && trainText === undefined) return undefined;
  const problems: RowProblem[] = [];
  const folder = baseName(taskDir);
  const result: RaftTask = { name: folder, dir: taskDir, taskJsonPath, classes: [], dataColumns: [], problems };
  if (taskText === undefined) {
    result.error = `${taskJsonPath} is missing, so the task's class list (and the meaning of integer labels) is unknown.`;
    return result;
  }
  const meta = readTaskJson(taskJsonPath, taskText, problems);
  if (!meta) {
    result.error = `${taskJsonPath} is unusable (see its problems), so the task's class list is unknown.`;
    return result;
  }
  const name = meta.name || folder;
  result.name = name;
  result.classes = meta.classes;
  result.dataColumns = (meta.dataColumns ?? []).filter((c) => c !== 'ID');
  const task = { ...meta, name };
  if (trainText !== undefined) {
    const train = readSplit(trainPath, trainText, task, 'train', problems);
    if (train) { result.train = train.split; result.dataColumns = train.textFields; }
  }
  const testText = io.readText(testPath);
  if (testText !== undefined) {
    const test = readSplit(testPath, testText, task, 'test', problems);
    if (test) result.test = test.split;
  }
  return result;
}

/** Where the gold data of a predictions file may be: the explicit data folder first, then beside. */
function candidateTaskDirs(predPath: string, task: string, raftData: string | undefined): string[] {
  const dirs: string[] = [];
  if (raftData && task) dirs.push(joinPath(raftData, task), joinPath(joinPath(raftData, 'data'), task));
  dirs.push(dirName(predPath));
  return dirs;
}

function findTaskData(predPath: string, task: string, raftData: string | undefined, io: CompanionReader): { found?: RaftTask; looked: string[] } {
  const looked = candidateTaskDirs(predPath, task, raftData);
  let partial: RaftTask | undefined;
  for (const dir of looked) {
    const t = loadRaftTask(dir, io);
    if (!t) continue;
    if (!t.error && t.train) return { found: t, looked };
    partial ??= t;
  }
  return { found: partial, looked };
}

// --- detection and discovery --------------------------------------------------------------------

function headerIsIdLabel(head: string): boolean {
  const text = stripBom(head);
  const nl = text.indexOf('\n');
  const first = (nl === -1 ? text : text.slice(0, nl)).replace(/\r$/, '');
  const cells = first.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1').trim().toLowerCase());
  return cells.length === 2 && cells[0] === 'id' && cells[1] === 'label';
}

/**
 * True for a CSV whose header is exactly `ID,Label`, whatever its name or folder. One label per ID
 * and no other column cannot be gold and prediction at once: scored alone it compares nothing, and
 * beside gold data (RAFT's train.csv, which has text columns too) it can only be the predictions.
 * That is a RAFT submission's shape (predictions.csv), also when it is named otherwise
 * (raft-baselines' example_predictions.csv). `_path` and `_ctx` are kept for callers' sake.
 */
export function isRaftPredictions(_path: string, head: string, _ctx?: FormatContext): boolean {
  return headerIsIdLabel(head);
}

/**
 * Whether an `ID,Label` file says by its place that it is RAFT's: named predictions.csv, in a folder
 * named after a RAFT task, beside a task.json, or with a task folder of its folder's name in the
 * RAFT data folder. Only a file that says nothing of the kind gets a note on why it is read as RAFT.
 */
function placedAsRaft(path: string, ctx: FormatContext): boolean {
  if (baseName(path).toLowerCase() === 'predictions.csv') return true;
  const dir = dirName(path);
  const task = baseName(dir);
  if (RAFT_TASK_NAMES.includes(task)) return true;
  if (ctx.io.list(dir)?.includes('task.json')) return true;
  const raftData = ctx.options.raftData;
  return !!raftData && !!task && !!ctx.io.list(joinPath(raftData, task))?.includes('task.json');
}

/**
 * The RAFT task of a predictions file whose folder names none: the one task in the RAFT data folder
 * whose task.json classes include every Label of the file (integer labels say nothing). Only
 * task.json is read; undefined when no task, or more than one, fits.
 */
function taskOfLabels(labels: ReadonlySet<string>, raftData: string | undefined, io: CompanionReader): string | undefined {
  if (!raftData || labels.size === 0 || [...labels].every((l) => /^\+?\d+(?:\.0*)?$/.test(l))) return undefined;
  const fits: string[] = [];
  for (const task of io.list(raftData) ?? []) {
    const path = joinPath(joinPath(raftData, task), 'task.json');
    const text = io.readText(path);
    if (text === undefined) continue;
    const meta = readTaskJson(path, text, []);
    if (meta && [...labels].every((l) => meta.classes.includes(l))) fits.push(task);
  }
  return fits.length === 1 ? fits[0] : undefined;
}

// --- the parser ---------------------------------------------------------------------------------

export function parseRaft(input: FileInput, ctx: FormatContext): ParseResult {
  const path = input.path;
  const folderTask = baseName(dirName(path));
  const base: ParseResult = { format: 'raft', set: null, problems: [], skipped: 0, unlabeled: 0 };
  if (folderTask) base.task = folderTask;
  const source = sourceOf(input);
  const table = readPredictionsTable(source, ctx.progress ?? NO_PROGRESS);
  const log = new ProblemLog(LIMIT_PER_CODE);
  for (const p of table.problems) log.add(p);
  if (table.fatal) {
    log.add({ line: 1, column: 1, severity: 'error', code: 'unscorable', message: table.fatal });
    return { ...base, problems: log.finish(), fatal: table.fatal };
  }

  if (table.header.length === 0 || (table.header.length === 1 && table.header[0].trim() === '')) {
    log.add({ line: 1, column: 1, severity: 'error', code: 'empty-file', message: 'The file is empty: a RAFT predictions.csv needs the header ID,Label and one row per instance.' });
    return { ...base, problems: log.finish(), fatal: 'The file is empty, so there is nothing to score.' };
  }
  const header = table.header.map((h) => h.trim().toLowerCase());
  const idCol = header.indexOf('id');
  const labelCol = header.indexOf('label');
  if (idCol < 0 || labelCol < 0) {
    const missing = [idCol < 0 ? 'ID' : '', labelCol < 0 ? 'Label' : ''].filter(Boolean).join(' and ');
    log.add({ line: 1, column: 1, severity: 'error', code: 'missing-field', message: `The header has no ${missing} column (found ${table.header.map(quote).join(', ')}); RAFT predictions need ID,Label.` });
    return { ...base, problems: log.finish(), fatal: `The header has no ${missing} column, so this is not a RAFT predictions file.` };
  }
  if (table.records.length === 0) {
    log.add({ line: 1, column: 1, severity: 'error', code: 'empty-file', message: 'The file has the header ID,Label but no rows.' });
    return { ...base, problems: log.finish(), fatal: 'The file has a header but no prediction rows, so there is nothing to score.' };
  }

  // A folder that names no RAFT task (a renamed file anywhere): the task its labels fit, if one does.
  const namedTask = RAFT_TASK_NAMES.includes(folderTask) || !ctx.options.raftData || ctx.io.list(joinPath(ctx.options.raftData, folderTask))?.includes('task.json')
    ? folderTask
    : taskOfLabels(new Set(table.records.map((r) => (r.fields[labelCol] ?? '').trim()).filter(Boolean)), ctx.options.raftData, ctx.io) ?? folderTask;
  const { found, looked } = findTaskData(path, namedTask, ctx.options.raftData, ctx.io);
  // The folder's name is the task only when it is a RAFT task or its data was found.
  const taskName = found?.name || (RAFT_TASK_NAMES.includes(namedTask) ? namedTask : '');
  if (!taskName) delete base.task;
  if (taskName) base.task = taskName;
  if (!placedAsRaft(path, ctx)) {
    log.add({ line: 1, column: 1, severity: 'info', code: 'filtered', message: `Read as RAFT predictions: a CSV of only ID and Label holds one label per ID, so it cannot be gold and prediction at once; its Labels are the predictions, scored against ${taskName ? `${taskName}'s` : 'the task\'s'} train.csv.` });
  }
  const companionProblems = found?.problems ?? [];
  const classes = found && !found.error ? found.classes : [];
  const haveClasses = classes.length > 0;
  const classIndex = new Map(classes.map((c, i) => [c, i] as [string, number]));

  // Gold by canonical ID: index into train rows; test IDs only tell "hidden split" from "unknown ID".
  const trainRow = new Map<string, number>();
  if (found?.train) found.train.ids.forEach((id, i) => { if (!trainRow.has(canonicalId(id))) trainRow.set(canonicalId(id), i); });
  const testIds = new Set<string>(found?.test ? found.test.ids.map(canonicalId) : []);

  const lines: number[] = [];
  const ids: string[] = [];
  const gold: number[] = [];
  const pred: number[] = [];
  const trainIdx: number[] = [];
  const seen = new Map<string, { line: number; label: string }>();
  let skipped = 0;
  let validRows = 0;
  const unlabeled: { id: string; line: number; column: number }[] = [];
  const strangers: { id: string; line: number; column: number }[] = [];
  const badGold: { id: string; line: number; column: number }[] = [];
  let lineLen: ((line: number) => number) | undefined;

  for (const rec of table.records) {
    if (rec.fields.length !== table.header.length) {
      const few = rec.fields.length < table.header.length;
      const column = few ? (lineLen ??= lineLengths(source))(rec.fieldLines[rec.fieldLines.length - 1]) + 1 : rec.columns[table.header.length];
      const what = few
        ? `the ${table.header.slice(rec.fields.length).map((h) => h.trim()).join(', ')} field${table.header.length - rec.fields.length > 1 ? 's are' : ' is'} missing`
        : `extra field ${quote(rec.fields[table.header.length])} (a Label with an unquoted comma?)`;
      log.add({ line: few ? rec.fieldLines[rec.fieldLines.length - 1] : rec.fieldLines[table.header.length], column, severity: 'error', code: 'column-count', message: `Row has ${rec.fields.length} field${rec.fields.length === 1 ? '' : 's'} but the header ${table.header.join(',')} has ${table.header.length}: ${what}; the row is skipped.` });
      skipped++;
      continue;
    }
    const id = rec.fields[idCol].trim();
    const labelRaw = rec.fields[labelCol];
    if (id === '') {
      log.add({ ...fieldSpan(rec, idCol), severity: 'error', code: 'missing-field', message: `ID field is empty (Label ${quote(labelRaw.trim())}); the row is skipped.` });
      skipped++;
      continue;
    }
    if (labelRaw.trim() === '') {
      log.add({ ...fieldSpan(rec, labelCol), severity: 'error', code: 'missing-field', message: `Label field of ID ${quote(id)} is empty; the row is skipped.` });
      skipped++;
      continue;
    }
    const key = canonicalId(id);
    const first = seen.get(key);
    if (first) {
      const agree = first.label.trim() === labelRaw.trim() ? 'the same Label' : `a different Label (${quote(labelRaw.trim())} here, ${quote(first.label.trim())} there)`;
      log.add({ ...fieldSpan(rec, idCol), severity: 'warning', code: 'duplicate-id', message: `ID ${quote(id)} appears again (first on line ${first.line}, with ${agree}); the first is kept and this row is skipped.` });
      skipped++;
      continue;
    }
    let predIndex = -1;
    if (haveClasses) {
      const d = decodeLabel(labelRaw, classes, classIndex, taskName || 'this task');
      if (d.kind !== 'class') {
        const why = d.kind === 'unknown' ? d.why : `${d.kind === 'unlabeled' ? d.how : 'empty'} is the placeholder of RAFT's unlabeled test split, not a class a prediction can take`;
        log.add({ ...fieldSpan(rec, labelCol), severity: 'error', code: 'unknown-class', message: `Label of ID ${quote(id)}: ${why}; the row is skipped.` });
        skipped++;
        continue;
      }
      predIndex = d.index;
    }
    // Only an accepted row claims its ID, so a corrected repeat of a rejected row still counts.
    seen.set(key, { line: rec.line, label: labelRaw });
    validRows++;
    const at = { id, line: rec.line, column: rec.columns[idCol] };
    const row = trainRow.get(key);
    if (row === undefined || !found?.train) {
      unlabeled.push(at);
      if (found?.test && !testIds.has(key)) strangers.push(at);
      continue;
    }
    const g = found.train.labels[row];
    if (g === -1) { unlabeled.push(at); continue; }
    if (g === UNUSABLE) {
      // train.csv's own problem (reported on train.csv) makes this row unscorable.
      badGold.push(at);
      skipped++;
      continue;
    }
    lines.push(rec.line);
    ids.push(id);
    gold.push(g);
    pred.push(predIndex);
    trainIdx.push(row);
  }

  const problems: RowProblem[] = [...companionProblems];
  const finishRows = () => problems.push(...log.finish());

  if (!found || found.error || !found.train) {
    const where = looked.map((d) => d || '.').join(' and ');
    const why = !found
      ? `no RAFT task data (task.json and train.csv) was found in ${where}`
      : found.error
        ? found.error.replace(/\.$/, '')
        : `${joinPath(found.dir, 'train.csv')} is missing or unreadable, so no instance has a gold label`;
    const fatal = `Cannot score these RAFT predictions${taskName ? ` for task "${taskName}"` : ''}: ${why}; point --raft-data DIR (or the raftData setting) at a folder holding ${taskName || '<task>'}/train.csv and task.json${taskName ? '' : ' (the file\'s folder names no RAFT task: the task is then the one whose task.json classes hold every Label)'}.`;
    log.add({ line: 1, column: 1, severity: 'error', code: 'missing-gold-data', message: fatal });
    finishRows();
    return { ...base, problems, skipped, unlabeled: validRows, fatal };
  }

  const trainIds = describeIds(found.train.ids.filter((_, i) => found.train!.labels[i] >= 0).map(canonicalId));
  if (unlabeled.length) {
    const u = unlabeled[0];
    log.add({ line: u.line, column: u.column, severity: 'info', code: 'no-gold', message: `${unlabeled.length} prediction${unlabeled.length === 1 ? ' has' : 's have'} no gold label (${describeIds(unlabeled.map((x) => canonicalId(x.id)))}; train.csv labels ${trainIds}): RAFT's hidden test split, counted as unlabeled and not scored.` });
  }
  if (strangers.length) {
    const s = strangers[0];
    log.add({ line: s.line, column: s.column, severity: 'warning', code: 'no-gold', message: `${strangers.length} prediction${strangers.length === 1 ? ' has an ID' : 's have IDs'} found in neither train.csv nor test.csv (${describeIds(strangers.map((x) => canonicalId(x.id)))}); check the ID column.` });
  }
  if (badGold.length) {
    const b = badGold[0];
    log.add({ line: b.line, column: b.column, severity: 'warning', code: 'missing-gold-data', message: `${badGold.length} prediction${badGold.length === 1 ? ' was' : 's were'} skipped because the gold Label in train.csv is unusable (${describeIds(badGold.map((x) => canonicalId(x.id)))}; see the problems reported on train.csv).` });
  }
  finishRows();

  const n = lines.length;
  if (n === 0) {
    const fatal = unlabeled.length && !skipped
      ? `${unlabeled.length === 1 ? 'The only prediction is for an ID' : `All ${unlabeled.length} predictions are for IDs`} without a gold label (${describeIds(unlabeled.map((x) => canonicalId(x.id)))}, RAFT's hidden test split; train.csv labels only ${trainIds}), so nothing can be scored here: the RAFT leaderboard scores these, and predictions for the training IDs can be scored locally.`
      : unlabeled.length
        ? `Nothing can be scored: ${unlabeled.length === 1 ? '1 prediction has' : `${unlabeled.length} predictions have`} no gold label (hidden test split) and the other ${skipped === 1 ? 'row has' : `${skipped} rows have`} problems.`
        : `${skipped === 1 ? 'The only prediction row' : `None of the ${skipped} prediction rows`} could be scored: ${skipped === 1 ? 'it has' : 'each has'} a problem listed in Problems.`;
    return { ...base, problems, skipped, unlabeled: unlabeled.length, fatal };
  }

  const set: MulticlassSet = {
    kind: 'multiclass',
    n,
    lines: Uint32Array.from(lines),
    ids,
    classes: [...classes],
    classesKnown: true,
    gold: Int32Array.from(gold),
    pred: Int32Array.from(pred),
    texts: { fields: [...found.dataColumns], values: trainIdx.map((i) => found.train!.texts[i]) },
    dataPath: found.train.path,
    dataLines: Uint32Array.from(trainIdx.map((i) => found.train!.lines[i])),
  };
  return { ...base, set, problems, skipped, unlabeled: unlabeled.length };
}
