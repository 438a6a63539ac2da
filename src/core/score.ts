// The core's front door: score a file, an unsaved buffer, or a folder of prediction files.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { FormatName, ParseResult, Report, ReportFilter, ScoreOptions } from './types';
import type { CompanionReader, FileInput, FormatContext } from './formats/context';
import { fileInput, rangeInput, textInput } from './formats/context';
import { detectFormat, DETECT_HEAD_BYTES, formatForMapping, lfsPointer, lfsPointerReason } from './formats/detect';
import { baseName } from '../common/paths';
import { parseFolktexts } from './formats/folktexts';
import { parseGeneric } from './formats/generic';
import { parseRaft } from './formats/raft';
import { parseAlmanacs } from './formats/almanacs';
import { parseLmEval } from './formats/lmEval';
import { parseInspect } from './formats/inspect';
import { adapterFor } from './formats/adapters';
import { isParquetPath, parquetFatal, PARQUET_NEEDS_ASYNC, rowProblems, textTwin, type ParquetText } from './formats/parquet';
import { diskSource, parquetAhead } from './formats/parquetAhead';
import { ParseProgress, ScoreCancelledError, sizeText } from './formats/progress';
import { buildReport, resolveOptions } from './report';
import { attachSlices, resolveBestThreshold, type SliceSource } from './slices/slice';
import { applyWhere } from './slices/where';
import { scoreSlices } from './slices/scoreSlices';
import { clustersFor, repeatsFor } from './slices/clusterColumn';
import { flakyItems, rowCorrect, type ReportClusters } from './errorBars';
import { fileByteSource, isDirectory, isZipFile, nodeCompanionReader, readFileBytes, walkFiles } from './io';
import { decideFile, isDataFile, notScoredReport } from './unscored';
import { withoutProblems } from './problemCap';

/** Default ScoreOptions.maxFileBytes: 2 GiB, the default of the evalLens.maxFileSizeMB setting (2048). */
export const DEFAULT_MAX_FILE_BYTES = 2048 * 1024 * 1024;

export interface ScoreResult {
  reports: Report[];
  summary: { raft_score?: number | null };
}

type Parser = (input: FileInput, ctx: FormatContext) => ParseResult;
const adapterParser = (format: FormatName): Parser => (input, ctx) => adapterFor(format)!.parse(input, ctx);

const PARSERS: Record<FormatName, Parser> = {
  helm: adapterParser('helm'),
  lighteval: adapterParser('lighteval'),
  promptfoo: adapterParser('promptfoo'),
  opencompass: adapterParser('opencompass'),
  eee: adapterParser('eee'),
  alpacaeval: adapterParser('alpacaeval'),
  'mt-bench': adapterParser('mt-bench'),
  arena: adapterParser('arena'),
  'arena-hard': adapterParser('arena-hard'),
  summary: adapterParser('summary'),
  folktexts: parseFolktexts,
  raft: parseRaft,
  almanacs: parseAlmanacs,
  'lm-eval': parseLmEval,
  inspect: parseInspect,
  generic: parseGeneric,
};

function headOf(input: FileInput): string {
  return new TextDecoder('utf-8').decode(input.ranges ? input.ranges.read(0, DETECT_HEAD_BYTES) : input.bytes.subarray(0, DETECT_HEAD_BYTES));
}

/** The size limit in force: options.maxFileBytes, else DEFAULT_MAX_FILE_BYTES. */
export function maxFileBytes(options: Partial<ScoreOptions>): number {
  const limit = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (!(limit > 0)) throw new RangeError(`maxFileBytes must be a positive number of bytes, got ${limit}`);
  return limit;
}

/** The parse result of a file left unread because it is over the size limit. */
export function tooLargeResult(path: string, format: FormatName, size: number, limit: number): ParseResult {
  const message = `${baseName(path)} is ${sizeText(size)}, above the ${sizeText(limit)} limit set by evalLens.maxFileSizeMB / --max-file-mb; raise the limit to score it.`;
  return { format, set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
}

/**
 * Parse one file as `format` (detected when not given; generic as the last resort). A file over
 * options.maxFileBytes is not parsed (the result's `fatal` says so). options.onProgress hears of
 * the parse, and options.shouldCancel can stop it with a ScoreCancelledError.
 */
export function parseInput(input: FileInput, options: ScoreOptions, io: CompanionReader = nodeCompanionReader): ParseResult {
  const progress = new ParseProgress(options);
  progress.check();
  const format = options.format ?? formatForMapping(detectFormat(input.path, headOf(input)), options.mapping) ?? 'generic';
  const limit = maxFileBytes(options);
  // A file read by range (a large zip) is not read whole to learn its size.
  const size = input.ranges ? input.ranges.size : input.bytes.length;
  let result: ParseResult;
  if (size > limit) result = tooLargeResult(input.path, format, size, limit);
  else if (size === 0) {
    const message = `${baseName(input.path)} is empty.`;
    result = { format, set: null, problems: [{ line: 1, severity: 'error', code: 'empty-file', message }], skipped: 0, unlabeled: 0, fatal: message };
  } else {
    // A Git LFS pointer read with a format given (--format, a mapping, a folder scan's format):
    // its reader would report its three lines as bad records; the pointer's one sentence instead.
    const pointer = size < 1024 ? lfsPointer(headOf(input)) : undefined;
    if (pointer) {
      const message = lfsPointerReason(input.path, pointer);
      result = { format, set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
    } else result = PARSERS[format](input, { options, io, progress });
  }
  progress.finish();
  return result;
}

/** Score one file's content (a saved file or an unsaved editor buffer). */
export function scoreInput(input: FileInput, options?: Partial<ScoreOptions>, io: CompanionReader = nodeCompanionReader): Report {
  const o = resolveOptions(options);
  // An unsaved buffer reads as its file would (decideFile): a data file no reader claims gets its reason.
  const decided = o.format || hasMapping(o) || !isDataFile(input.path) ? undefined : decideFile(input.path, headOf(input));
  if (decided && 'reason' in decided) {
    // Each phase still ends with 1 (ScoreOptions.onProgress): a progress bar waiting on it closes.
    o.onProgress?.(1, 'parse');
    o.onProgress?.(0, 'score');
    o.onProgress?.(1, 'score');
    return notScoredReport(input.path, decided.reason, o);
  }
  const parsed = parseInput(input, o, io);
  return scoreParsed(input.path, parsed, o, { input: () => input, io });
}

/**
 * The 'score' phase: metrics and bins of a parsed file, between two progress reports. --threshold
 * best is fitted here on every scored row, before any split; with `slicing`, --group-by and the
 * column list (src/core/slices/) read the file's own columns from `slicing.input()` (called only then).
 */
export function scoreParsed(path: string, parsed: ParseResult, o: ScoreOptions, slicing?: SliceSource): Report {
  if (o.shouldCancel?.()) throw new ScoreCancelledError();
  o.onProgress?.(0, 'score');
  let filter: ReportFilter | undefined;
  if (o.where?.terms.length) ({ parsed, filter } = applyWhere(parsed, o.where, slicing ?? { input: () => undefined, io: nodeCompanionReader }));
  const used = resolveBestThreshold(parsed, o);
  const bars = slicing ? errorBarInputs(parsed, used, slicing) : {};
  const report = buildReport(path, parsed, used, { clusters: bars.clusters });
  if (bars.repeats) report.repeats = bars.repeats;
  if (bars.repeatRows && o.instances !== false) report.repeatRows = bars.repeatRows;
  if (filter) report.filter = filter;
  if (used.slices && parsed.set && !report.fatal) {
    const found = scoreSlices(parsed.set, used.slices, used, slicing ?? { input: () => undefined, io: nodeCompanionReader });
    report.slices = found.slices;
    report.problems.push(...found.problems);
  }
  if (slicing && (used.groupBy || used.listColumns || used.readColumn) && !report.fatal) attachSlices(report, slicing, parsed, used);
  o.onProgress?.(1, 'score');
  o.onScored?.(report, parsed);
  return report;
}

/**
 * Clusters for the error bars (src/core/errorBars.ts): --cluster's column, else the items of
 * repeated attempts (IDs that repeat with an epoch / attempt / repeat / sample_index column, or
 * Inspect's epochs), whose duplicate-ID warnings then give way to one note. Looked for only when
 * the parser saw a repeated ID (or the file is an Inspect log), so other files pay nothing.
 */
function errorBarInputs(parsed: ParseResult, o: ScoreOptions, from: SliceSource): { clusters?: ReportClusters; repeats?: Report['repeats']; repeatRows?: Report['repeatRows'] } {
  const set = parsed.set;
  if (!set || set.n === 0 || parsed.fatal) return {};
  const out: { clusters?: ReportClusters; repeats?: Report['repeats']; repeatRows?: Report['repeatRows'] } = {};
  const offset = from.lineOffset ?? 0;
  if (parsed.format === 'inspect' || parsed.problems.some((p) => p.code === 'duplicate-id')) {
    const rep = repeatsFor(parsed, o.threshold, from.input, offset);
    if (rep) {
      out.clusters = rep.clusters;
      if (rep.repeats) out.repeats = rep.repeats;
      const correct = rowCorrect(set, o.threshold);
      if (correct) out.repeatRows = { items: rep.items, row: rep.clusters.code, flaky: flakyItems(rep.clusters.code, rep.clusters.count, correct) };
      // Every later occurrence of an ID had its warning: n - items of them, some perhaps only counted
      // in the list's 'more-problems' summary, which must not go on counting them (issue 28.12).
      const without = withoutProblems(parsed.problems, 'duplicate-id', set.n - rep.clusters.count);
      const dropped = without.dropped;
      parsed.problems = without.problems;
      parsed.problems.push({
        line: 1, severity: 'info', code: 'duplicate-id',
        message: `IDs repeat with a${rep.attemptColumn === 'epoch' ? 'n' : ''} ${rep.attemptColumn} column: the ${set.n} rows are attempts at ${rep.clusters.count} items, so standard errors and intervals are clustered by item${dropped ? ` (${dropped} duplicate-ID warning${dropped === 1 ? '' : 's'} dropped)` : ''}.`,
      });
    }
  }
  if (o.cluster) {
    const got = clustersFor(set, o.cluster, from.input, from.io, offset);
    parsed.problems.push(...got.problems);
    if (got.clusters) out.clusters = got.clusters;
  }
  return out;
}

/** Mean macro-F1 over RAFT tasks: the benchmark's headline number. */
export function summarize(reports: Report[]): ScoreResult['summary'] {
  const raft = reports.filter((r) => r.format === 'raft');
  if (!raft.length) return {};
  const f1s = raft.map((r) => r.metrics.macro_f1).filter((v): v is number => typeof v === 'number');
  return { raft_score: f1s.length ? f1s.reduce((a, b) => a + b, 0) / f1s.length : null };
}

/** Files in a folder that look like predictions, each with its format (summaries are figures, not predictions). */
export function discoverPredictionFiles(dir: string, options?: Partial<ScoreOptions>): { path: string; format: FormatName }[] {
  return discoverFolder(dir, options).scored.filter((f) => f.format !== 'summary');
}

/**
 * A folder walk: the files that look like predictions, each with its format, and every other data
 * file (.csv, .tsv, .jsonl, .json, .parquet, .eval) with the reason it is not scored.
 */
export function discoverFolder(dir: string, options?: Partial<ScoreOptions>): {
  scored: { path: string; format: FormatName }[]; unscored: { path: string; reason: string }[];
} {
  const forced = options?.format;
  const scored: { path: string; format: FormatName }[] = [];
  const unscored: { path: string; reason: string }[] = [];
  for (const path of walkFiles(dir)) {
    const head = readHead(path);
    // The decision `score FILE` takes on the file alone (decideFile), so it reads the same here.
    const decision = decideFile(path, head);
    if ('reason' in decision) {
      if (isDataFile(path)) unscored.push({ path, reason: decision.reason });
      continue;
    }
    const detected = decision.format;
    // With --format, a folder walk keeps the files of that format only (generic takes any table).
    if (forced && forced !== detected && forced !== 'generic') {
      unscored.push({ path, reason: `It looks like ${detected === 'summary' ? 'a summary of results' : `${detected} predictions`}, and this scan scores ${forced} files only.` });
      continue;
    }
    scored.push({ path, format: forced ?? detected });
  }
  return { scored, unscored };
}

/**
 * The first kilobytes of a regular file, without reading the rest (files may be hundreds of MB).
 * Anything else (a FIFO, which would block the read forever, a device such as /dev/zero behind a
 * symlink, a folder, a dangling link, a file we may not read) is not a predictions file.
 */
export function readHead(path: string): string | undefined {
  let fd: number | undefined;
  try {
    if (!statSync(path).isFile()) return undefined;
    fd = openSync(path, 'r');
    if (!fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(DETECT_HEAD_BYTES);
    const got = readSync(fd, buf, 0, DETECT_HEAD_BYTES, 0);
    return new TextDecoder('utf-8').decode(buf.subarray(0, got));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Parse a file from disk: its size is checked against options.maxFileBytes before it is read. A
 * file too large even for one Node buffer gets a fatal result too.
 */
export function parseFile(path: string, options?: Partial<ScoreOptions>, io: CompanionReader = nodeCompanionReader): ParseResult {
  const o = resolveOptions(options);
  const size = statSync(path).size; // throws ENOENT with the path in the message
  const limit = maxFileBytes(o);
  const formatOf = () => o.format ?? (isParquetPath(path) ? 'generic' : detectFormat(path, readHead(path) ?? '') ?? 'generic');
  if (size > limit) {
    o.onProgress?.(1, 'parse');
    return tooLargeResult(path, formatOf(), size, limit);
  }
  // Parquet: its text when the job read it ahead (compare, board), else the asynchronous reader's.
  if (isParquetPath(path)) {
    const converted = parquetAhead(path);
    return converted ? parseParquetText(path, converted, o, io) : parquetFatal(PARQUET_NEEDS_ASYNC);
  }
  // A zip (an Inspect .eval) is read by range, one entry at a time: never held whole.
  if (isZipFile(path)) return parseInput(zipFileInput(path), o, io);
  const read = readFileBytes(path);
  if ('tooLarge' in read) {
    o.onProgress?.(1, 'parse');
    const message = `${baseName(path)} is ${sizeText(size)}, ${read.tooLarge}.`;
    return { format: formatOf(), set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  }
  return parseInput(fileInput(path, read.bytes), o, io);
}

/**
 * A Parquet table's parse from its text (CSV or JSON Lines, parquet.ts parquetToText): read as its
 * text twin, its problems and instances named by row of the table, not line of the text.
 */
export function parseParquetText(path: string, converted: ParquetText, o: ScoreOptions, io: CompanionReader, onProgress = o.onProgress): ParseResult {
  const format = o.format ?? 'generic';
  if ('fatal' in converted) return { ...parquetFatal(converted.fatal), format };
  if (converted.rows === 0) return { ...parquetFatal(`${path} has no rows.`), format };
  const twin = textTwin(path, converted.as);
  const { text, headerLines } = converted;
  const detected = o.format ?? formatForMapping(detectFormat(twin, text.slice(0, DETECT_HEAD_BYTES)), o.mapping) ?? 'generic';
  const parsed = parseInput(textInput(twin, text), { ...o, format: detected, onProgress }, io);
  parsed.problems = rowProblems(parsed.problems, twin, path, headerLines);
  if (parsed.fatal) parsed.fatal = rowProblems([{ line: 1, severity: 'error', code: 'unscorable', message: parsed.fatal }], twin, path, headerLines)[0].message;
  // Instances point at rows, not at lines of the text (the report's Reveal shows the row).
  if (parsed.set && headerLines) for (let i = 0; i < parsed.set.n; i++) parsed.set.lines[i] -= headerLines;
  return parsed;
}

/** A zip on disk as a FileInput read by range; its whole bytes only if a reader asks for them. */
function zipFileInput(path: string): FileInput {
  return rangeInput(path, fileByteSource(path), () => {
    const read = readFileBytes(path);
    if ('tooLarge' in read) throw new RangeError(`${baseName(path)} is ${read.tooLarge}.`);
    return read.bytes;
  });
}

/** Score a file from disk (see parseFile). */
export function scoreFile(path: string, options?: Partial<ScoreOptions>, io: CompanionReader = nodeCompanionReader): Report {
  const o = resolveOptions(options);
  // The file's own columns are read again only for --group-by or the column list.
  const { input: fromDisk, lineOffset } = diskSource(path);
  const input = (): FileInput | undefined => (isZipFile(path) ? zipFileInput(path) : fromDisk());
  // A kept parse of the unchanged file when the caller keeps them (the extension's worker).
  const parsed = o.parseCache ? o.parseCache.parse(path, o, io, (reader) => parseFile(path, o, reader)) : parseFile(path, o, io);
  return scoreParsed(path, parsed, o, { input, io, lineOffset });
}

/** A file holding several tasks (an lm-eval simple_evaluate dump) gives one report per task, unless options.task picks one. */
export function eachTask(first: Report, scoreTask: (task: string) => Report, o: ScoreOptions): Report[] {
  if (o.task !== undefined || !first.tasks || first.tasks.length < 2) return [first];
  return [first, ...first.tasks.filter((t) => t !== first.task).map(scoreTask)];
}

function hasMapping(o: ScoreOptions): boolean {
  return !!o.mapping && Object.values(o.mapping).some((v) => v !== undefined);
}

/** Score a file or, recursively, every prediction file in a folder. */
export function scorePath(path: string, options?: Partial<ScoreOptions>, io: CompanionReader = nodeCompanionReader): ScoreResult {
  const o = resolveOptions(options);
  maxFileBytes(o);
  const reports: Report[] = [];
  if (isDirectory(path)) {
    const found = discoverFolder(path, o);
    for (const file of found.scored) {
      reports.push(...eachTask(scoreFile(file.path, { ...o, format: file.format }, io), (task) => scoreFile(file.path, { ...o, format: file.format, task }, io), o));
    }
    // Listed, never dropped silently.
    for (const file of found.unscored) reports.push(notScoredReport(file.path, file.reason, o));
    reports.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  } else {
    // A data file no reader claims gets the folder walk's reason, not the generic reader's guess.
    const decided = o.format || hasMapping(o) || !isDataFile(path) ? undefined : decideFile(path, readHead(path));
    if (decided && 'reason' in decided) reports.push(notScoredReport(path, decided.reason, o));
    else reports.push(...eachTask(scoreFile(path, o, io), (task) => scoreFile(path, { ...o, task }, io), o));
  }
  return { reports, summary: summarize(reports) };
}
