// A zip read by random access: its central directory first, then one entry at a time, each inflated
// within a limit (boundedInflate.ts). The archive never has to be in memory: a `ByteSource` reads
// the byte ranges asked for, from a buffer or from a file on disk (io.ts), so a 300 MB Inspect
// `.eval` whose entries inflate to gigabytes together is read entry by entry, holding one at a time.
import { checkDeclared, inflateBoundedNative } from './boundedInflate';

/** Bytes read by range. */
export interface ByteSource {
  readonly size: number;
  /** `length` bytes from `offset` (fewer at the end of the source). */
  read(offset: number, length: number): Uint8Array;
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}

/** One entry of the central directory. */
export interface ZipEntry {
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

/** The end record is in the last 22 bytes plus at most a 64 KB comment. */
const END_SEARCH = 65_557;

export class ZipArchive {
  readonly entries: ZipEntry[];
  private readonly byName = new Map<string, ZipEntry>();

  private constructor(private readonly source: ByteSource, entries: ZipEntry[]) {
    this.entries = entries;
    for (const e of entries) this.byName.set(e.name, e);
  }

  /** Whether the source starts like a zip (PK\x03\x04). */
  static looksLikeZip(source: ByteSource): boolean {
    const b = source.read(0, 4);
    return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;
  }

  /** Reads the central directory; throws a sentence when it is missing or damaged. */
  static open(source: ByteSource): ZipArchive {
    const tailStart = Math.max(0, source.size - END_SEARCH);
    const tail = source.read(tailStart, source.size - tailStart);
    let end = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail[i] === 0x50 && tail[i + 1] === 0x4b && tail[i + 2] === 5 && tail[i + 3] === 6) { end = i; break; }
    }
    if (end < 0) throw new Error('no end of central directory record (the zip is truncated or not a zip)');
    const count = u16(tail, end + 10);
    const dirSize = u32(tail, end + 12);
    const dirOffset = u32(tail, end + 16);
    if (count === 0xffff || dirOffset === 0xffffffff) throw new Error('a ZIP64 archive (over 4 GB or 65,535 entries), which an Inspect log never is');
    if (dirOffset + dirSize > source.size) throw new Error('the central directory lies past the end of the file (the zip is truncated)');
    const dir = source.read(dirOffset, dirSize);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let k = 0; k < count; k++) {
      if (at + 46 > dir.length || u32(dir, at) !== 0x02014b50) throw new Error(`central directory entry ${k + 1} of ${count} is damaged`);
      const nameLength = u16(dir, at + 28);
      entries.push({
        method: u16(dir, at + 10),
        compressedSize: u32(dir, at + 20),
        size: u32(dir, at + 24),
        name: nameDecoder.decode(dir.subarray(at + 46, at + 46 + nameLength)),
        localOffset: u32(dir, at + 42),
      });
      at += 46 + nameLength + u16(dir, at + 30) + u16(dir, at + 32);
    }
    return new ZipArchive(source, entries);
  }

  entry(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  /**
   * One entry's bytes, inflated within `limit` (refused before inflating when it declares more,
   * stopped while inflating when it produces more than it declared). Throws with a sentence.
   */
  read(entry: ZipEntry, limit: number): Uint8Array {
    const what = `the zip entry ${entry.name}`;
    checkDeclared(what, entry.size, limit);
    const header = this.source.read(entry.localOffset, 30);
    if (header.length < 30 || u32(header, 0) !== 0x04034b50) throw new Error(`${what} has no local header where the directory says`);
    const start = entry.localOffset + 30 + u16(header, 26) + u16(header, 28);
    const data = this.source.read(start, entry.compressedSize);
    if (data.length < entry.compressedSize) throw new Error(`${what} is truncated`);
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size) throw new Error(`${what} is stored with two different sizes`);
      return data;
    }
    if (entry.method === 8) return inflateBoundedNative(what, data, entry.size, limit);
    throw new Error(`${what} uses compression method ${entry.method}; only stored and deflated entries are read`);
  }
}
