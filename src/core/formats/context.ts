// What every format parser receives: the file's bytes, a lazy decoded text, options, and a way to
// read companion files (RAFT train.csv/task.json, folktexts results.bench-*.json) without the core
// knowing whether it runs on Node's fs, in a worker, or on an unsaved editor buffer.
import type { ScoreOptions } from '../types';
import type { ByteSource } from './zipArchive';
import { isStringTooLong, type ParseProgress, sizeText, MAX_STRING_LENGTH } from './progress';

export interface CompanionReader {
  /** UTF-8 text of a file, or undefined when it does not exist or cannot be read. */
  readText(path: string): string | undefined;
  /** Entry names of a folder, or undefined when it is not a readable folder. */
  list(dir: string): string[] | undefined;
}

export interface FileInput {
  /** Absolute (or as given) path; folder and file name matter for detection and companions. */
  path: string;
  bytes: Uint8Array;
  /**
   * The bytes decoded as UTF-8 (BOM kept; parsers strip it). Decoded once, on first use. Throws a
   * RangeError for a file too large for one string (about 512 MB): large-file paths read `bytes`
   * (or `givenText`) line by line or in chunks instead.
   */
  text(): string;
  /**
   * The text itself when the input was made from text (an unsaved editor buffer, textInput):
   * readers then take lines from it instead of encoding it to bytes first.
   */
  readonly givenText?: string;
  /**
   * The file read by range, when it is on disk and too large to hold for nothing (an Inspect .eval
   * zip, read one entry at a time): readers that can use it do, and `bytes` is then read only if
   * something asks for it.
   */
  readonly ranges?: ByteSource;
}

/** What a line-by-line reader reads: the file's bytes, or the text it was given. */
export type TextSource = Uint8Array | string;

/** The input as a reader should read it: its text when it came as text, else its bytes. */
export function sourceOf(input: FileInput): TextSource {
  return input.givenText ?? input.bytes;
}

export interface FormatContext {
  options: ScoreOptions;
  io: CompanionReader;
  /** Progress and cancellation of this parse (parseInput makes one from options.onProgress/shouldCancel). */
  progress?: ParseProgress;
}

export function fileInput(path: string, bytes: Uint8Array): FileInput {
  let decoded: string | undefined;
  return {
    path,
    bytes,
    text: () => (decoded ??= decodeWhole(path, bytes)),
  };
}

/**
 * A file on disk read by range (`ranges`), its whole bytes read only if a reader asks for `bytes`
 * (a zip reader never does). `readAll` reads the whole file.
 */
export function rangeInput(path: string, ranges: ByteSource, readAll: () => Uint8Array): FileInput {
  let bytes: Uint8Array | undefined;
  let decoded: string | undefined;
  return {
    path,
    ranges,
    get bytes() { return (bytes ??= readAll()); },
    text: () => (decoded ??= decodeWhole(path, bytes ??= readAll())),
  };
}

export function textInput(path: string, text: string): FileInput {
  let encoded: Uint8Array | undefined;
  return {
    path,
    get bytes() { return (encoded ??= new TextEncoder().encode(text)); },
    text: () => text,
    givenText: text,
  };
}

function decodeWhole(path: string, bytes: Uint8Array): string {
  try {
    if (bytes.length > MAX_STRING_LENGTH * 3) throw new RangeError('Invalid string length');
    return new TextDecoder('utf-8').decode(bytes);
  } catch (e) {
    if (!isStringTooLong(e)) throw e;
    throw new RangeError(`${path} is ${sizeText(bytes.length)} of text, more than fits in one JavaScript string (${sizeText(MAX_STRING_LENGTH)}).`);
  }
}

export type { ScoreOptions };
