// The core's front door: score a file, an unsaved buffer, or a folder of prediction files.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { FormatName, ParseResult, Report, ScoreOptions } from './types';
import type { CompanionReader, FileInput, FormatContext } from './formats/context';
import { fileInput } from './formats/context';
import { baseName, detectFormat, DETECT_HEAD_BYTES } from './formats/detect';
import { parseFolktexts } from './formats/folktexts';
import { parseGeneric } from './formats/generic';
import { parseRaft } from './formats/raft';
import { parseAlmanacs } from './formats/almanacs';
import { parseLmEval } from './formats/lmEval';
import { buildReport, resolveOptions } from './report';
import { isDirectory, nodeCompanionReader, walkFiles } from './io';

export interface ScoreResult {
  reports: Report[];
  summary: { raft_score?: number | null };
}

const PARSERS: Record<FormatName, (input: FileInput, ctx: FormatContext) => ParseResult> = {
  folktexts: parseFolktexts,
  raft: parseRaft,
  almanacs: parseAlmanacs,
  'lm-eval': parseLmEval,
  generic: parseGeneric,
};

function headOf(input: FileInput): string {
  return new TextDecoder('utf-8').decode(input.bytes.subarray(0, DETECT_HEAD_BYTES));
}

/** Parse one file as `format` (detected when not given; generic as the last resort). */
export function parseInput(input: FileInput, options: ScoreOptions, io: CompanionReader = nodeCompanionReader): ParseResult {
  const format = options.format ?? detectFormat(input.path, headOf(input)) ?? 'generic';
  if (input.bytes.length === 0) {
    const message = `${baseName(input.path)} is empty.`;
    return { format, set: null, problems: [{ line: 1, severity: 'error', code: 'empty-file', message }], skipped: 0, unlabeled: 0, fatal: message };
  }
  return PARSERS[format](input, { options, io });
}

/** Score one file's content (a saved file or an unsaved editor buffer). */
export function scoreInput(input: FileInput, options?: Partial<ScoreOptions>, io: CompanionReader = nodeCompanionReader): Report {
  const o = resolveOptions(options);
  return buildReport(input.path, parseInput(input, o, io), o);
}

/** Mean macro-F1 over RAFT tasks: the benchmark's headline number. */
export function summarize(reports: Report[]): ScoreResult['summary'] {
  const raft = reports.filter((r) => r.format === 'raft');
  if (!raft.length) return {};
  const f1s = raft.map((r) => r.metrics.macro_f1).filter((v): v is number => typeof v === 'number');
  return { raft_score: f1s.length ? f1s.reduce((a, b) => a + b, 0) / f1s.length : null };
}

/** Files in a folder that look like predictions, each with its format. */
export function discoverPredictionFiles(dir: string, options?: Partial<ScoreOptions>): { path: string; format: FormatName }[] {
  const forced = options?.format;
  const out: { path: string; format: FormatName }[] = [];
  for (const path of walkFiles(dir)) {
    const head = readHead(path);
    if (head === undefined) continue;
    const detected = detectFormat(path, head);
    if (!detected) continue;
    // With --format, a folder walk keeps the files of that format only (generic takes any table).
    if (forced && forced !== detected && forced !== 'generic') continue;
    out.push({ path, format: forced ?? detected });
  }
  return out;
}

/** The first kilobytes of a file, without reading the rest (files may be hundreds of MB). */
export function readHead(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(DETECT_HEAD_BYTES);
    const got = readSync(fd, buf, 0, DETECT_HEAD_BYTES, 0);
    return new TextDecoder('utf-8').decode(buf.subarray(0, got));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Score a file or, recursively, every prediction file in a folder. */
export function scorePath(path: string, options?: Partial<ScoreOptions>, io: CompanionReader = nodeCompanionReader): ScoreResult {
  const o = resolveOptions(options);
  const reports: Report[] = [];
  if (isDirectory(path)) {
    for (const file of discoverPredictionFiles(path, o)) {
      reports.push(scoreInput(fileInput(file.path, readFileSync(file.path)), { ...o, format: file.format }, io));
    }
  } else {
    statSync(path); // throws ENOENT with the path in the message
    reports.push(scoreInput(fileInput(path, readFileSync(path)), o, io));
  }
  return { reports, summary: summarize(reports) };
}
