// Compressed input is inflated within a size limit, never without one. A 1.5 MB `.eval` whose one
// entry inflates to 1.5 GB of spaces once took 1.6 GB of memory and then failed inside V8; a
// Parquet page can declare any size. Here a zip entry or a page is refused when its declared size
// passes the limit (before inflating), or when its output passes what it declared or the limit
// (while inflating, chunk by chunk), with a sentence naming the sizes and the limit.
import { Inflate } from 'fflate';
import { inflateRawSync } from 'node:zlib';
import { sizeText } from './progress';

/** No single compressed entry or page inflates past this, whatever the file size limit. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;

/** The limit for one inflated entry: 256 MB, or the file size limit when that is smaller. */
export function inflateLimit(maxFileBytes: number | undefined): number {
  return Math.min(MAX_INFLATED_BYTES, maxFileBytes && maxFileBytes > 0 ? maxFileBytes : Infinity);
}

export class InflateLimitError extends Error {}

function limitText(limit: number): string {
  return limit === MAX_INFLATED_BYTES
    ? `the ${sizeText(limit)} limit on inflated data`
    : `the ${sizeText(limit)} limit set by evalLens.maxFileSizeMB / --max-file-mb`;
}

/** Throws when `declared` bytes of `what` would pass `limit`. */
export function checkDeclared(what: string, declared: number, limit: number): void {
  if (declared > limit) throw new InflateLimitError(`${what} declares ${sizeText(declared)} uncompressed, above ${limitText(limit)}; it was not inflated`);
}

/** Raw DEFLATE `data` inflated into at most `declared` bytes (≤ limit), fed in small chunks. */
export function inflateBounded(what: string, data: Uint8Array, declared: number, limit: number): Uint8Array {
  checkDeclared(what, declared, limit);
  const out = new Uint8Array(declared);
  let written = 0;
  let failure: Error | undefined;
  const inflater = new Inflate((chunk) => {
    if (failure) return;
    if (written + chunk.length > declared) {
      failure = new InflateLimitError(written + chunk.length > limit
        ? `${what} inflates past ${limitText(limit)} (its header declares ${sizeText(declared)}); inflating stopped there`
        : `${what} inflates past the ${sizeText(declared)} its header declares: the file is damaged or hostile; inflating stopped there`);
      return;
    }
    out.set(chunk, written);
    written += chunk.length;
  });
  // 16 KB of DEFLATE input yields at most about 16 MB: memory stays bounded between two checks.
  const step = 16 * 1024;
  for (let at = 0; at < data.length && !failure; at += step) inflater.push(data.subarray(at, Math.min(data.length, at + step)), at + step >= data.length);
  if (failure) throw failure;
  if (written !== declared) throw new Error(`${what} inflates to ${sizeText(written)}, not the ${sizeText(declared)} its header declares: the file is damaged`);
  return out;
}

/**
 * inflateBounded with Node's zlib (about four times faster than fflate, and without a buffer per
 * chunk): zlib stops at `declared` bytes (maxOutputLength) and says so, which is read back as the
 * same sentences. For the readers that run in Node only (a zip read from disk, entry by entry).
 */
export function inflateBoundedNative(what: string, data: Uint8Array, declared: number, limit: number): Uint8Array {
  checkDeclared(what, declared, limit);
  let out: Uint8Array;
  try {
    out = inflateRawSync(data, { maxOutputLength: Math.max(1, declared) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new InflateLimitError(declared >= limit
        ? `${what} inflates past ${limitText(limit)} (its header declares ${sizeText(declared)}); inflating stopped there`
        : `${what} inflates past the ${sizeText(declared)} its header declares: the file is damaged or hostile; inflating stopped there`);
    }
    throw new Error(`${what} does not inflate (${e instanceof Error ? e.message : String(e)}): the file is damaged`);
  }
  if (out.length !== declared) throw new Error(`${what} inflates to ${sizeText(out.length)}, not the ${sizeText(declared)} its header declares: the file is damaged`);
  return out;
}

/** One entry of a zip's central directory. */
interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 0x1000000;
}

const nameDecoder = new TextDecoder('utf-8');

/** The central directory of a zip (its end record searched in the last 64 KB + 22 bytes). */
function centralDirectory(bytes: Uint8Array): ZipEntry[] {
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65557); i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 5 && bytes[i + 3] === 6) { end = i; break; }
  }
  if (end < 0) throw new Error('no end of central directory record (the zip is truncated or not a zip)');
  const count = u16(bytes, end + 10);
  let at = u32(bytes, end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new Error('a ZIP64 archive (over 4 GB or 65,535 entries), which an Inspect log never is');
  const entries: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== 0x02014b50) throw new Error(`central directory entry ${k + 1} of ${count} is damaged`);
    const nameLength = u16(bytes, at + 28);
    entries.push({
      method: u16(bytes, at + 10),
      compressedSize: u32(bytes, at + 20),
      size: u32(bytes, at + 24),
      name: nameDecoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      localOffset: u32(bytes, at + 42),
    });
    at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
  }
  return entries;
}

/**
 * The entries of a zip that `keep` selects, each inflated within `limit` bytes (and the sum of
 * them within `limit` too: a thousand entries just under the limit are no safer than one over).
 */
export function unzipBounded(bytes: Uint8Array, keep: (name: string) => boolean, limit: number): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const kept = centralDirectory(bytes).filter((entry) => keep(entry.name));
  let total = 0;
  for (const entry of kept) {
    checkDeclared(`the zip entry ${entry.name}`, entry.size, limit);
    total += entry.size;
  }
  if (total > limit) throw new InflateLimitError(`the zip's entries declare ${sizeText(total)} uncompressed together, above ${limitText(limit)}; they were not inflated`);
  for (const entry of kept) {
    const what = `the zip entry ${entry.name}`;
    const local = entry.localOffset;
    if (local + 30 > bytes.length || u32(bytes, local) !== 0x04034b50) throw new Error(`${what} has no local header where the directory says`);
    const start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28);
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (data.length < entry.compressedSize) throw new Error(`${what} is truncated`);
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) throw new Error(`${what} is stored with two different sizes`);
      files[entry.name] = data;
    } else if (entry.method === 8) {
      files[entry.name] = inflateBounded(what, data, entry.size, limit);
    } else {
      throw new Error(`${what} uses compression method ${entry.method}; only stored and deflated entries are read`);
    }
  }
  return files;
}
