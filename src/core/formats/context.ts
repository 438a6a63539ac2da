// What every format parser receives: the file's bytes, a lazy decoded text, options, and a way to
// read companion files (RAFT train.csv/task.json, folktexts results.bench-*.json) without the core
// knowing whether it runs on Node's fs, in a worker, or on an unsaved editor buffer.
import type { ScoreOptions } from '../types';

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
  /** The bytes decoded as UTF-8 (BOM kept; parsers strip it). Decoded once, on first use. */
  text(): string;
}

export interface FormatContext {
  options: ScoreOptions;
  io: CompanionReader;
}

export function fileInput(path: string, bytes: Uint8Array): FileInput {
  let decoded: string | undefined;
  return {
    path,
    bytes,
    text: () => (decoded ??= new TextDecoder('utf-8').decode(bytes)),
  };
}

export function textInput(path: string, text: string): FileInput {
  let encoded: Uint8Array | undefined;
  return {
    path,
    get bytes() { return (encoded ??= new TextEncoder().encode(text)); },
    text: () => text,
  };
}

export type { ScoreOptions };
