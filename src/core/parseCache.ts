// Parses kept between scoring calls of one long-lived process (the extension's scoring worker): a
// report opened again, its intervals pass right after its first pass and the tree's score of the
// same file read and parse the same bytes (the scoring pool sends them to one worker, one after the
// other: extension/worker/workerPool.ts). A million-row CSV costs ~0.1-0.3 s of CPU to parse; a
// kept parse costs a stat.
//
// A parse is reused only for the same path, the same options that can change a parse (everything
// but the bootstrap, its seed and share, the interval method and the callbacks), an unchanged file
// (mtime and size, stat'ed before the read: a file written during the read is not kept) and unchanged
// companions (every file and folder the parse read through the CompanionReader: lm-eval's results
// file, a RAFT data folder...). Readers reach companions only through that reader (src/core/formats
// holds no fs call but the Parquet reader's, which is not cached: Parquet goes through scoreAsync).
//
// scoreParsed adds problems to the parse it is given (repeats, clusters, --threshold best), so a
// kept parse is handed out as a shallow copy with its own problems list; its set (typed columns,
// lazily made ID strings) is shared and never written after the parse.
import { statSync } from 'node:fs';
import type { ParseCache, ParseResult, ScoreOptions } from './types';
import type { CompanionReader } from './formats/context';

export type { ParseCache } from './types';

/**
 * Options that never change what a parser returns (the bootstrap's: its share too). `instances`
 * does (HELM reads its texts only when they are shown), and so may any other.
 */
const NOT_PARSE_OPTIONS = new Set<string>(['bootstrap', 'seed', 'interval', 'bootstrapPart', 'parseCache', 'onProgress', 'onScored', 'shouldCancel']);

/**
 * The options a parse depends on, as a stable string. `listColumns` (the report's list of columns to
 * group by, read after the parse: slices/slice.ts) counts only as whether it is set, and only when
 * `instances` is false: a parser reads it only to decide whether to read the texts, which it reads
 * anyway otherwise (formats/helm.ts). So the tree's score of a file and the report's (which lists
 * columns) share one parse (issue 29: a 300 MB log was parsed by both, at once).
 */
export function parseKey(options: ScoreOptions): string {
  const o = options as unknown as Record<string, unknown>;
  const value = (k: string) => (k === 'listColumns' ? !!o[k] : o[k]);
  const counts = (k: string) => !NOT_PARSE_OPTIONS.has(k) && typeof o[k] !== 'function' && (k !== 'listColumns' || o.instances === false);
  return JSON.stringify(Object.keys(o).filter(counts).sort().map((k) => [k, value(k)]));
}

type Stamp = string;

function stampOf(path: string): Stamp {
  try {
    const st = statSync(path);
    return `${st.mtimeMs}:${st.size}:${st.isDirectory() ? 'd' : 'f'}`;
  } catch {
    return 'missing';
  }
}

interface Entry {
  key: string;
  path: string;
  stamp: Stamp;
  /** Companions the parse read, with their stamps then. */
  companions: Map<string, Stamp>;
  parsed: ParseResult;
  bytes: number;
}

/** A CompanionReader that notes every path read or listed, with its stamp before the read. */
function recording(io: CompanionReader, seen: Map<string, Stamp>): CompanionReader {
  const note = (path: string) => { if (!seen.has(path)) seen.set(path, stampOf(path)); };
  return {
    readText(path) { note(path); return io.readText(path); },
    list(dir) { note(dir); return io.list(dir); },
  };
}

/** Bytes a parse holds (its typed columns; ID strings at ~40 bytes each): what the cache's budget counts. */
export function parseBytes(parsed: ParseResult): number {
  const set = parsed.set as unknown as Record<string, unknown> | null;
  if (!set) return 1024;
  let bytes = 1024;
  const seen = new Set<ArrayBufferLike>();
  for (const key of Object.keys(set)) {
    const desc = Object.getOwnPropertyDescriptor(set, key);
    // A lazy property (the ID strings made on first read) is not forced here.
    if (!desc || !('value' in desc)) continue;
    const v = desc.value;
    if (ArrayBuffer.isView(v) && !seen.has(v.buffer)) {
      seen.add(v.buffer);
      bytes += v.buffer.byteLength;
    } else if (Array.isArray(v)) bytes += v.length * 40;
  }
  return bytes;
}

/**
 * A small LRU of parses, bounded in entries and bytes. `parses` and `hits` count what happened
 * (tests and the worker's timeline read them).
 */
export class FileParseCache implements ParseCache {
  parses = 0;
  hits = 0;
  private readonly entries: Entry[] = [];

  constructor(private readonly maxBytes = 256 * 1024 * 1024, private readonly maxEntries = 4) {}

  parse(path: string, options: ScoreOptions, io: CompanionReader, parse: (io: CompanionReader) => ParseResult): ParseResult {
    const key = parseKey(options);
    const stamp = stampOf(path);
    const at = this.entries.findIndex((e) => e.path === path && e.key === key);
    if (at !== -1) {
      const entry = this.entries[at];
      this.entries.splice(at, 1);
      if (entry.stamp === stamp && stamp !== 'missing' && [...entry.companions].every(([p, s]) => stampOf(p) === s)) {
        this.entries.unshift(entry);
        this.hits++;
        options.onProgress?.(1, 'parse');
        return copy(entry.parsed);
      }
    }
    const companions = new Map<string, Stamp>();
    const parsed = parse(recording(io, companions));
    this.parses++;
    // Kept only when the file read is the file stat'ed before (not written meanwhile) and scorable.
    if (stamp !== 'missing' && stampOf(path) === stamp && !parsed.fatal && parsed.set) {
      const entry: Entry = { key, path, stamp, companions, parsed: copy(parsed), bytes: parseBytes(parsed) };
      if (entry.bytes <= this.maxBytes) {
        this.entries.unshift(entry);
        this.trim();
      }
    }
    return parsed;
  }

  /** Whether a kept parse holds this buffer (it must not be transferred to another thread). */
  holds(buffer: ArrayBufferLike): boolean {
    return this.entries.some((e) => {
      const set = e.parsed.set as unknown as Record<string, unknown> | null;
      if (!set) return false;
      return Object.keys(set).some((k) => {
        const desc = Object.getOwnPropertyDescriptor(set, k);
        return !!desc && 'value' in desc && ArrayBuffer.isView(desc.value) && desc.value.buffer === buffer;
      });
    });
  }

  /** Parses kept now. */
  get size(): number {
    return this.entries.length;
  }

  /** Bytes the kept parses hold (by parseBytes). */
  get bytes(): number {
    return this.entries.reduce((sum, e) => sum + e.bytes, 0);
  }

  clear(): void {
    this.entries.length = 0;
  }

  private trim(): void {
    let total = 0;
    for (let k = 0; k < this.entries.length; k++) {
      total += this.entries[k].bytes;
      if (k >= this.maxEntries || total > this.maxBytes) {
        this.entries.length = k;
        return;
      }
    }
  }
}

function copy(parsed: ParseResult): ParseResult {
  return { ...parsed, problems: parsed.problems.slice() };
}
