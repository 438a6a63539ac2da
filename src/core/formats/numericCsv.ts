// The fast path for plain numeric CSV (folktexts' `,risk_score,label`, a generic `score,label`):
// scan the file's bytes once, parse decimals by hand, and write straight into typed arrays. No
// decoding of the whole file, no string per row or per field.
//
// The scanner handles only the boring rows: unquoted fields, an ASCII decimal in [0, 1] for the
// value, a bare 0 or 1 for the target, a canonical integer ID. Any other row (a percentage, "True",
// a missing field, too many columns, non-ASCII text, ...) is decoded on its own and handed to the
// format's general row handler, the same function the general path (parseCsv) calls for every
// record, so the results are identical either way. A quote anywhere in a row can open a field
// spanning several lines, which a line-by-line scan cannot follow: the scan gives up (returns false)
// and the caller parses the whole file with parseCsv.
import type { RowProblem } from '../types';
import { MAX_NUMERIC_CHARS } from './numbers';
import { detach, NO_PROGRESS, type ParseProgress } from './progress';
import { MAX_PROBLEMS, moreProblems, trimProblems } from '../problemCap';

const LF = 10;
const CR = 13;
const QUOTE = 34;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/** 2^53: integers below it are exact doubles. */
const EXACT_INT = 9007199254740992;
/** Powers of ten that are exact doubles (10^0 .. 10^22). */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));


/** Scored rows as growing typed columns: the value (score or confidence), the 0/1 target, the line. */
export class BinaryColumns {
  n = 0;
  value: Float64Array;
  target: Uint8Array;
  lines: Uint32Array;

  constructor(capacity = 1024) {
    const c = Math.max(16, Math.ceil(capacity));
    this.value = new Float64Array(c);
    this.target = new Uint8Array(c);
    this.lines = new Uint32Array(c);
  }

  push(value: number, target: number, line: number): void {
    if (this.n === this.value.length) this.grow();
    const i = this.n++;
    this.value[i] = value;
    this.target[i] = target;
    this.lines[i] = line;
  }

  /** Double the capacity (the scanner calls this when its local copy of n reaches it). */
  grow(): void {
    const c = this.value.length * 2;
    const value = new Float64Array(c);
    value.set(this.value);
    const target = new Uint8Array(c);
    target.set(this.target);
    const lines = new Uint32Array(c);
    lines.set(this.lines);
    this.value = value;
    this.target = target;
    this.lines = lines;
  }

  /** The columns cut to length n (copied when much capacity would be wasted, else views). */
  finish(): { value: Float64Array; target: Uint8Array; lines: Uint32Array } {
    const n = this.n;
    const copy = this.value.length > n + (n >> 2) + 64;
    const cut = <T extends Float64Array | Uint8Array | Uint32Array>(a: T): T => (copy ? a.slice(0, n) : a.subarray(0, n)) as T;
    return { value: cut(this.value), target: cut(this.target), lines: cut(this.lines) };
  }
}

const CANONICAL_INT = /^(?:0|[1-9]\d{0,14})$/;

/**
 * The ID of each scored row, for duplicate detection. Canonical integers ("0", "17", no sign, no
 * leading zero, at most 15 digits) are kept as numbers, so a million integer IDs cost one
 * Float64Array and duplicates are found with a bitset; for those, numeric equality is exactly text
 * equality. Other IDs are kept as text. Entry i belongs to scored row i.
 */
export class IdLog {
  count = 0;
  /** Entry i's ID when it is a canonical integer, else NaN. Written directly by the scanner. */
  num: Float64Array;
  private text = new Map<number, string>();
  /** Column of each entry's ID field; allocated only once some ID is not in column 1. */
  private col: Uint32Array | null = null;

  constructor(capacity = 1024) {
    this.num = new Float64Array(Math.max(16, Math.ceil(capacity)));
  }

  /** Record the ID of the next scored row. `value` must be a canonical integer. */
  pushNumber(value: number, column = 1): void {
    if (this.count === this.num.length) this.grow();
    const i = this.count++;
    this.num[i] = value;
    if (column !== 1 || this.col) this.setColumn(i, column);
  }

  /** Record an ID given as text (canonical integers are stored as numbers). */
  pushText(id: string, column = 1): void {
    if (CANONICAL_INT.test(id)) return this.pushNumber(Number(id), column);
    if (this.count === this.num.length) this.grow();
    const i = this.count++;
    this.num[i] = NaN;
    // A CSV field is a view into a chunk of the file's text: keep a copy, not the chunk.
    this.text.set(i, detach(id));
    if (column !== 1 || this.col) this.setColumn(i, column);
  }

  /** Every entry's ID as text ('' for none), for joining on ID (built only on request). */
  strings(): string[] {
    const out = new Array<string>(this.count);
    for (let i = 0; i < this.count; i++) {
      const v = this.num[i];
      out[i] = v === v ? String(v) : this.text.get(i) ?? '';
    }
    return out;
  }

  /** Record that the next scored row has no ID. */
  pushNone(): void {
    this.pushText('', 1);
  }

  private setColumn(i: number, column: number): void {
    if (!this.col) this.col = new Uint32Array(this.num.length).fill(1);
    if (this.col.length < this.num.length) {
      const c = new Uint32Array(this.num.length).fill(1);
      c.set(this.col);
      this.col = c;
    }
    this.col[i] = column;
  }

  /** Double the capacity. */
  grow(): void {
    const num = new Float64Array(this.num.length * 2);
    num.set(this.num);
    this.num = num;
    if (this.col) {
      const c = new Uint32Array(num.length).fill(1);
      c.set(this.col);
      this.col = c;
    }
  }

  /**
   * The IDs as a set column, for aligning runs: one Float64Array when every ID is a canonical
   * integer (a million strings would cost more than the metrics), else strings ('' for none).
   */
  idColumn(): { idNumbers: Float64Array } | { ids: string[] } {
    const n = this.count;
    if (this.text.size === 0) return { idNumbers: this.num.slice(0, n) };
    const ids: string[] = new Array(n);
    for (let i = 0; i < n; i++) ids[i] = this.num[i] === this.num[i] ? String(this.num[i]) : this.text.get(i) ?? '';
    return { ids };
  }

  /**
   * A warning for every later occurrence of an ID (not for the first), in entry order. `lines[i]`
   * is the line of entry i. Empty IDs are never duplicates.
   */
  duplicates(lines: Uint32Array, field: string, note: string): RowProblem[] {
    const n = this.count;
    const num = this.num;
    const repeats: number[] = [];
    // Numeric IDs: a bitset when the largest is small enough for one, else a sorted copy.
    let max = -1;
    for (let i = 0; i < n; i++) {
      const v = num[i];
      if (v > max) max = v;
    }
    if (max >= 0) {
      if (max < 2 ** 31 && max <= 64 * n + (1 << 22)) {
        const seen = new Uint32Array((max >>> 5) + 1);
        for (let i = 0; i < n; i++) {
          const v = num[i];
          if (v !== v) continue;
          const w = v >>> 5;
          const bit = 1 << (v & 31);
          if (seen[w] & bit) repeats.push(i);
          else seen[w] |= bit;
        }
      } else {
        const sorted = num.slice(0, n).sort(); // NaN sorts last
        const repeated = new Set<number>();
        for (let i = 1; i < n && sorted[i] === sorted[i]; i++) if (sorted[i] === sorted[i - 1]) repeated.add(sorted[i]);
        if (repeated.size) {
          const first = new Set<number>();
          for (let i = 0; i < n; i++) {
            const v = num[i];
            if (!repeated.has(v)) continue;
            if (first.has(v)) repeats.push(i);
            else first.add(v);
          }
        }
      }
    }
    // Text IDs.
    const seenText = new Set<string>();
    for (const [i, id] of this.text) {
      if (id === '') continue;
      if (seenText.has(id)) repeats.push(i);
      else seenText.add(id);
    }
    if (!repeats.length) return [];
    repeats.sort((a, b) => a - b);
    // First line of each repeated ID.
    const keyOf = (i: number) => (num[i] === num[i] ? `#${num[i]}` : `$${this.text.get(i)}`);
    const wanted = new Set(repeats.map(keyOf));
    const firstLine = new Map<string, number>();
    for (let i = 0; i < n && firstLine.size < wanted.size; i++) {
      if (num[i] !== num[i] && !this.text.has(i)) continue;
      const k = keyOf(i);
      if (wanted.has(k) && !firstLine.has(k)) firstLine.set(k, lines[i]);
    }
    return repeats.map((i) => {
      const k = keyOf(i);
      const id = k.slice(1);
      const column = this.col ? this.col[i] : 1;
      return {
        line: lines[i], column, endColumn: column + id.length, severity: 'warning' as const, code: 'duplicate-id' as const,
        message: `${field} ${JSON.stringify(id)} already appeared on line ${firstLine.get(k)}; ${note}.`,
      };
    });
  }
}

const utf8Encoder = new TextEncoder();

/**
 * Text IDs of the scored rows without a string per row: their UTF-8 bytes back to back (copied out
 * of the file, so the file's buffer is not kept) and where each ends. The strings are made only
 * when something asks for them (`strings()`; a generic set's `ids` is a lazy property over it):
 * the CLI's score never does, and on a million rows making them costs as much as the whole parse.
 * Entry i belongs to scored row i.
 */
export class TextIdLog {
  count = 0;
  /** ID bytes, back to back. Written directly by the scanner. */
  bytes: Uint8Array;
  used = 0;
  /** End offset (in `bytes`) of entry i; entry i starts where entry i - 1 ends. */
  ends: Uint32Array;
  /** 1-based column of entry i's field when not 1 (allocated on first need). */
  private col: Uint32Array | null = null;
  /** Line of the ID field when it differs from the row's line (a quoted line break before it). */
  readonly fieldLines = new Map<number, number>();
  /** Some ID has a byte >= 0x80 (then decoding is per ID, not one slice of one string). */
  nonAscii = false;

  constructor(capacity = 1024, bytesPerId = 8) {
    const c = Math.max(16, Math.ceil(capacity));
    this.ends = new Uint32Array(c);
    this.bytes = new Uint8Array(Math.max(4096, Math.ceil(c * bytesPerId)));
  }

  /** Room for `extra` more ID bytes after `used`. */
  reserve(extra: number): Uint8Array {
    if (this.used + extra > this.bytes.length) {
      const next = new Uint8Array(Math.max(this.bytes.length * 2, this.used + extra));
      next.set(this.bytes.subarray(0, this.used));
      this.bytes = next;
    }
    return this.bytes;
  }

  /** Room for one more entry. */
  growEntries(): void {
    const c = this.ends.length * 2;
    const ends = new Uint32Array(c);
    ends.set(this.ends);
    this.ends = ends;
    if (this.col) {
      const col = new Uint32Array(c).fill(1);
      col.set(this.col);
      this.col = col;
    }
  }

  /** Record the ID (already trimmed) of the next scored row, from the general path's text. */
  pushText(id: string, column = 1, fieldLine?: number, line?: number): void {
    if (this.count === this.ends.length) this.growEntries();
    const encoded = utf8Encoder.encode(id);
    const out = this.reserve(encoded.length);
    for (let k = 0; k < encoded.length; k++) {
      const b = encoded[k];
      out[this.used + k] = b;
      if (b >= 0x80) this.nonAscii = true;
    }
    this.used += encoded.length;
    const i = this.count++;
    this.ends[i] = this.used;
    if (column !== 1) this.setColumn(i, column);
    if (fieldLine !== undefined && fieldLine !== line) this.fieldLines.set(i, fieldLine);
  }

  setColumn(i: number, column: number): void {
    if (!this.col) this.col = new Uint32Array(this.ends.length).fill(1);
    this.col[i] = column;
  }

  column(i: number): number {
    return this.col ? this.col[i] : 1;
  }

  private startOf(i: number): number {
    return i === 0 ? 0 : this.ends[i - 1];
  }

  /** Entry i's ID as text. */
  text(i: number): string {
    return utf8.decode(this.bytes.subarray(this.startOf(i), this.ends[i]));
  }

  private sameBytes(i: number, j: number): boolean {
    const si = this.startOf(i);
    const sj = this.startOf(j);
    const len = this.ends[i] - si;
    if (this.ends[j] - sj !== len) return false;
    const b = this.bytes;
    for (let k = 0; k < len; k++) if (b[si + k] !== b[sj + k]) return false;
    return true;
  }

  /** Every entry's ID as a string. */
  strings(): string[] {
    const n = this.count;
    const out = new Array<string>(n);
    if (!this.nonAscii) {
      // ASCII: one decode, then slices (byte offsets are character offsets).
      const all = utf8.decode(this.bytes.subarray(0, this.used));
      let start = 0;
      for (let i = 0; i < n; i++) {
        const end = this.ends[i];
        out[i] = all.slice(start, end);
        start = end;
      }
    } else {
      for (let i = 0; i < n; i++) out[i] = this.text(i);
    }
    return out;
  }

  /**
   * For every later occurrence of a non-empty ID (not the first), in entry order: the entry and
   * the entry of its first occurrence.
   */
  repeats(): { entry: number; first: number }[] {
    return this.prefixedIntegerRepeats() ?? this.hashedRepeats();
  }

  /**
   * IDs that are one prefix and a canonical integer (`r17`, `doc-3`, `42`): the integers in a
   * bitset, no hashing. Undefined when some ID is not of that shape, or the integers are too large.
   */
  private prefixedIntegerRepeats(): { entry: number; first: number }[] | undefined {
    const n = this.count;
    const b = this.bytes;
    const ends = this.ends;
    if (n === 0) return [];
    // The prefix: the first ID up to its trailing digits.
    let prefixLen = ends[0];
    while (prefixLen > 0 && b[prefixLen - 1] >= ZERO && b[prefixLen - 1] <= NINE) prefixLen--;
    const value = new Float64Array(n);
    let max = 0;
    let start = 0;
    for (let i = 0; i < n; i++) {
      const end = ends[i];
      const digits = end - start - prefixLen;
      if (digits < 1 || digits > 9) return undefined;
      for (let k = 0; k < prefixLen; k++) if (b[start + k] !== b[k]) return undefined;
      let v = 0;
      const d0 = start + prefixLen;
      if (digits > 1 && b[d0] === ZERO) return undefined;
      for (let k = d0; k < end; k++) {
        const d = b[k] - ZERO;
        if (d < 0 || d > 9) return undefined;
        v = v * 10 + d;
      }
      value[i] = v;
      if (v > max) max = v;
      start = end;
    }
    if (max > 64 * n + (1 << 22)) return undefined;
    const seen = new Uint32Array((max >>> 5) + 1);
    const repeated: number[] = [];
    for (let i = 0; i < n; i++) {
      const v = value[i];
      const w = v >>> 5;
      const bit = 1 << (v & 31);
      if (seen[w] & bit) repeated.push(i);
      else seen[w] |= bit;
    }
    if (!repeated.length) return [];
    const firstOf = new Map<number, number>();
    const wanted = new Set(repeated.map((i) => value[i]));
    for (let i = 0; i < n && firstOf.size < wanted.size; i++) if (wanted.has(value[i]) && !firstOf.has(value[i])) firstOf.set(value[i], i);
    return repeated.map((entry) => ({ entry, first: firstOf.get(value[entry])! }));
  }

  /** Any IDs: an open-addressing table of entry numbers keyed by a hash of the bytes, confirmed on the bytes. */
  private hashedRepeats(): { entry: number; first: number }[] {
    const n = this.count;
    const out: { entry: number; first: number }[] = [];
    let size = 16;
    while (size < n * 2) size *= 2;
    const mask = size - 1;
    const table = new Int32Array(size).fill(-1);
    const hashes = new Int32Array(size);
    const { ends, bytes } = this;
    let start = 0;
    for (let i = 0; i < n; i++) {
      const end = ends[i];
      if (end === start) continue;
      let h = 0x811c9dc5 | 0; // FNV-1a, then a murmur3 finish to spread sequential IDs
      for (let k = start; k < end; k++) h = Math.imul(h ^ bytes[k], 0x01000193);
      h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16;
      start = end;
      let slot = h & mask;
      for (;;) {
        const j = table[slot];
        if (j === -1) { table[slot] = i; hashes[slot] = h; break; }
        if (hashes[slot] === h && this.sameBytes(i, j)) { out.push({ entry: i, first: j }); break; }
        slot = (slot + 1) & mask;
      }
    }
    return out;
  }
}

/**
 * Give `set` an `ids` made only when first read (by `make`): the CLI's score never reads them, and
 * on a million rows making the strings costs as much as the parse. Enumerable, so a copy, JSON or
 * a structured clone carries the strings; assigning replaces it with a plain value.
 */
export function defineLazyIds(set: { ids?: string[] }, make: () => string[]): void {
  let pending: (() => string[]) | null = make;
  let made: string[] | undefined;
  Object.defineProperty(set, 'ids', {
    enumerable: true,
    configurable: true,
    get() {
      if (pending) { made = pending(); pending = null; }
      return made;
    },
    set(value: string[] | undefined) {
      Object.defineProperty(set, 'ids', { value, enumerable: true, configurable: true, writable: true });
    },
  });
}

/** What a row handler writes into. */
export interface RowSink {
  columns: BinaryColumns;
  /** null when the file has no ID column. */
  ids: IdLog | null;
  /** Text IDs (a generic table's ID column), else null. */
  textIds?: TextIdLog | null;
  problems: RowProblem[];
  /** Problems not kept because of MAX_PROBLEMS (counted, not stored: a file of a million "73%" rows). */
  droppedProblems: number;
  /** Data records seen (blank lines excluded). */
  rows: number;
  /** Data records left out because of problems. */
  skipped: number;
}

export function newRowSink(capacity: number, withIds: boolean, withTextIds = false): RowSink {
  return {
    columns: new BinaryColumns(capacity), ids: withIds ? new IdLog(capacity) : null, textIds: withTextIds ? new TextIdLog(capacity) : null,
    problems: [], droppedProblems: 0, rows: 0, skipped: 0,
  };
}

/** One CSV record as the general path sees it (a subset of parseCsv's CsvRecord). */
export interface RowRecord {
  fields: string[];
  line: number;
  columns: number[];
  /** Line of each field, when a quoted field spanned lines (general path only). */
  fieldLines?: number[];
}

/** Validate one record and push it (or count it as skipped) into the sink. */
export type RowHandler = (record: RowRecord, sink: RowSink) => void;

/** Drop problems beyond the cap, counting them. */
export function capSinkProblems(sink: RowSink): void {
  sink.droppedProblems += trimProblems(sink.problems);
}

/** Which column holds what; every other column is skipped unread. */
export interface NumericLayout {
  /** Delimiter byte (44 for ',', 9 for tab). */
  delimiter: number;
  /** Fields per record (the header's count). */
  columns: number;
  /** Column of the probability (risk score, confidence). */
  valueCol: number;
  /** Column of the 0/1 target (label, correct). */
  targetCol: number;
  /** Column of the ID, or -1. */
  idCol: number;
  /**
   * The ID is text (into sink.textIds: any unquoted printable ASCII without spaces, else the row is
   * odd), not a canonical integer (into sink.ids).
   */
  textIds?: boolean;
}

/** Byte offset after a UTF-8 BOM, if any. */
export function bomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

const utf8 = new TextDecoder('utf-8');
const EMPTY_BYTES = new Uint8Array(0);
const EMPTY_U32 = new Uint32Array(0);

/** Bytes a text ID may hold in the scanner: printable ASCII but the quote and the delimiter. */
function idByteTable(delimiter: number): Uint8Array {
  const ok = new Uint8Array(256);
  for (let b = 33; b < 127; b++) ok[b] = b === QUOTE || b === delimiter ? 0 : 1;
  return ok;
}

/** Text of a byte range of digits and dots (decoded, never spread into call arguments). */
function asciiSlice(bytes: Uint8Array, start: number, end: number): string {
  return utf8.decode(bytes.subarray(start, end));
}

// Bits of a double, for its exponent (ulp) and neighbours.
const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const HI = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 1 : 0; // little endian: high word second
const LO = 1 - HI;
/** Veltkamp's splitter 2^27 + 1: a * SPLIT splits a double into two 26-bit halves (Dekker's product). */
const SPLIT = 134217729;
const TIE_MARGIN = 2 ** -30;

/**
 * The double nearest to an unsigned decimal (digits and at most one dot) in bytes[start, end):
 * exactly what parseFloat returns, without making a string in the common cases.
 *
 * Up to 15 significant digits, m / 10^f is correctly rounded as it stands. pandas writes float64
 * scores with up to 17 significant digits, where the mantissa M no longer fits 53 bits: then M is
 * held exactly as a sum of two doubles (Dekker's product and Knuth's sum), the quotient
 * x = M / 10^f is estimated, and the remainder M - x * 10^f, computed exactly, says whether x or a
 * neighbour is nearest. Within 2^-30 of a tie, or past 19 digits or 10^22, parseFloat decides.
 */
export function decimalFromBytes(bytes: Uint8Array, start: number, end: number): number {
  let a = 0; // the first 15 significant digits
  let b = 0; // the ones after them
  let k = 0; // how many those are
  let sig = 0;
  let f = -1;
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c === DOT) { f = 0; continue; }
    if (f >= 0) f++;
    const d = c - ZERO;
    if (sig === 0 && d === 0) continue;
    sig++;
    if (sig <= 15) a = a * 10 + d;
    else { b = b * 10 + d; k++; }
  }
  if (f < 0) f = 0;
  if (f > 22 || k > 4) return parseFloat(asciiSlice(bytes, start, end));
  if (k === 0) return a / POW10[f];

  // M = a * 10^k + b exactly, as s + ml.
  const p10 = POW10[k];
  const ph = a * p10;
  let c = SPLIT * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLIT * p10;
  const bh = c - (c - p10);
  const bl = p10 - bh;
  const pl = ah * bh - ph + ah * bl + al * bh + al * bl; // ph + pl = a * 10^k
  const s = ph + b;
  const bb = s - ph;
  const e = ph - (s - bb) + (b - bb); // s + e = ph + b
  const ml = e + pl; // two small integers: exact

  const q = POW10[f];
  c = SPLIT * q;
  const qh = c - (c - q);
  const ql = q - qh;
  let x = s / q; // within about one ulp of M / q
  for (let attempt = 0; attempt < 2; attempt++) {
    // r = M - x * q, with x * q = th + tl exactly; s - th is exact (Sterbenz: s and th are close).
    const th = x * q;
    c = SPLIT * x;
    const xh = c - (c - x);
    const xl = x - xh;
    const tl = xh * qh - th + xh * ql + xl * qh + xl * ql;
    const r = s - th + (ml - tl);
    F64[0] = x;
    const hi = U32[HI];
    const powerOfTwo = (hi & 0xfffff) === 0 && U32[LO] === 0;
    // half = q * ulp(x) / 2: the distance, scaled by q, from x to the midpoints with its neighbours.
    U32[HI] = (((hi >>> 20) & 0x7ff) - 53) << 20;
    U32[LO] = 0;
    const half = q * F64[0];
    const mag = r < 0 ? -r : r;
    const margin = half * TIE_MARGIN;
    if (mag < half - margin) {
      // Below a power of two the gap to the lower neighbour is half as wide.
      if (!(r < 0 && powerOfTwo && mag > half / 2 - margin)) return x;
      break;
    }
    if (mag <= half + margin || (r < 0 && powerOfTwo)) break;
    // The nearest double is the neighbour on r's side.
    F64[0] = x;
    if (r > 0) {
      if (U32[LO] === 0xffffffff) { U32[LO] = 0; U32[HI]++; } else U32[LO]++;
    } else if (U32[LO] === 0) { U32[LO] = 0xffffffff; U32[HI]--; } else U32[LO]--;
    x = F64[0];
  }
  return parseFloat(asciiSlice(bytes, start, end));
}

/**
 * A row the scanner does not take as it is: decode the line alone, split it (no quotes, so a split
 * is exact) and hand it to the format's row handler, the general path's own function. Returns the
 * offset of the next line, or -1 when the line holds a quote (the caller gives up).
 */
function oddRow(bytes: Uint8Array, rowStart: number, line: number, delimText: string, sink: RowSink, handle: RowHandler): number {
  const len = bytes.length;
  let end = bytes.indexOf(LF, rowStart);
  if (end === -1) end = len;
  for (let i = rowStart; i < end; i++) if (bytes[i] === QUOTE) return -1;
  // parseCsv ends a record at LF or CRLF; a CR not followed by LF stays in the field.
  const contentEnd = end < len && end > rowStart && bytes[end - 1] === CR ? end - 1 : end;
  const fields = utf8.decode(bytes.subarray(rowStart, contentEnd)).split(delimText);
  const columns = new Array<number>(fields.length);
  let column = 1;
  for (let k = 0; k < fields.length; k++) {
    columns[k] = column;
    column += fields[k].length + 1;
  }
  handle({ fields, line, columns }, sink);
  if (sink.problems.length > MAX_PROBLEMS) capSinkProblems(sink);
  return end < len ? end + 1 : len;
}

/**
 * scanNumericCsv for the layouts `id,value,target` and `value,target`: the same rows taken and
 * the same rows passed on as the general loop below, without its per-field dispatch, which makes
 * it about 40% faster on a million rows.
 */
function scanValueTarget(
  bytes: Uint8Array, start: number, firstLine: number, hasId: boolean, delimiter: number, sink: RowSink, handle: RowHandler,
  progress: ParseProgress,
): boolean {
  const len = bytes.length;
  const D = delimiter;
  const cols = sink.columns;
  const textIds = hasId ? sink.textIds ?? null : null;
  const ids = hasId && !textIds ? sink.ids : null;
  const delimText = String.fromCharCode(D);
  let outValue = cols.value;
  let outTarget = cols.target;
  let outLines = cols.lines;
  let outIds = ids ? ids.num : outValue;
  let idBytes = textIds ? textIds.bytes : EMPTY_BYTES;
  let idUsed = textIds ? textIds.used : 0;
  let idEnds = textIds ? textIds.ends : EMPTY_U32;
  const idOk = idByteTable(D);
  let n = cols.n;
  let cap = outValue.length;
  let rows = sink.rows;
  let p = start;
  let line = firstLine;
  progress.begin(len, start);
  let tick = progress.next;

  while (p < len) {
    const rowStart = p;
    if (p >= tick) { progress.at(p); tick = progress.next; }
    let c = bytes[p];
    if (c === LF) { p++; line++; continue; }
    if (c === CR && p + 1 < len && bytes[p + 1] === LF) { p += 2; line++; continue; }
    rows++;
    odd: {
      let id = 0;
      let idEnd = idUsed;
      if (textIds) {
        // Text: printable ASCII up to the delimiter, copied out. A quote gives up on the whole
        // file; a space, a control or a non-ASCII byte makes the row odd.
        if (idBytes.length - idEnd < 256) { textIds.used = idUsed; idBytes = textIds.reserve(4096); }
        let room = idBytes.length;
        while (p < len) {
          c = bytes[p];
          if (idOk[c] === 0) break;
          if (idEnd === room) { textIds.used = idUsed; idBytes = textIds.reserve(idEnd - idUsed + 4096); room = idBytes.length; }
          idBytes[idEnd++] = c;
          p++;
        }
        if (c === QUOTE) { sink.rows = rows; return false; }
        if (c !== D || idEnd === idUsed || p >= len) break odd;
        p++;
      } else if (hasId) {
        // Canonical integer: no sign, no leading zero, at most 15 digits.
        while (p < len) {
          c = bytes[p];
          if (c < ZERO || c > NINE) break;
          id = id * 10 + (c - ZERO);
          p++;
        }
        const nd = p - rowStart;
        if (nd === 0 || nd > 15 || (nd > 1 && bytes[rowStart] === ZERO) || p >= len || c !== D) break odd;
        p++;
      }
      // The value: m / 10^f is parseFloat's result while m < 2^53 and f <= 22.
      const valueStart = p;
      let m = 0;
      let f = -1;
      while (p < len) {
        c = bytes[p];
        if (c >= ZERO && c <= NINE) {
          m = m * 10 + (c - ZERO);
          if (f >= 0) f++;
        } else if (c === DOT && f < 0) {
          f = 0;
        } else break;
        p++;
      }
      // Empty, or too long to be read as a number (the row handler says so): not the scanner's.
      if (p >= len || c !== D || p - valueStart - (f >= 0 ? 1 : 0) === 0 || p - valueStart > MAX_NUMERIC_CHARS) break odd;
      if (f < 0) f = 0;
      const value = m < EXACT_INT && f <= 22 ? m / POW10[f] : decimalFromBytes(bytes, valueStart, p);
      if (value > 1) break odd;
      p++;
      // The target: one byte, 0 or 1, then the line break or the end of the file.
      c = p < len ? bytes[p] : 0;
      if (c !== ZERO && c !== 49) break odd;
      const target = c - ZERO;
      p++;
      if (p < len) {
        c = bytes[p];
        if (c === LF) p++;
        else if (c === CR && p + 1 < len && bytes[p + 1] === LF) p += 2;
        else break odd;
      }
      if (n === cap) {
        cols.n = n;
        cols.grow();
        outValue = cols.value; outTarget = cols.target; outLines = cols.lines;
        cap = outValue.length;
        if (ids) {
          while (ids.num.length < cap) ids.grow();
          outIds = ids.num;
        }
      }
      outValue[n] = value;
      outTarget[n] = target;
      outLines[n] = line;
      if (ids) outIds[n] = id;
      else if (textIds) {
        if (n === idEnds.length) { textIds.growEntries(); idEnds = textIds.ends; }
        idEnds[n] = idEnd;
        idUsed = idEnd;
      }
      n++;
      line++;
      continue;
    }
    cols.n = n;
    if (ids) ids.count = n;
    if (textIds) { textIds.count = n; textIds.used = idUsed; }
    sink.rows = rows;
    p = oddRow(bytes, rowStart, line, delimText, sink, handle);
    if (p < 0) return false;
    n = cols.n;
    outValue = cols.value; outTarget = cols.target; outLines = cols.lines;
    cap = outValue.length;
    if (ids) {
      while (ids.num.length < cap) ids.grow();
      outIds = ids.num;
    }
    if (textIds) { idBytes = textIds.bytes; idUsed = textIds.used; idEnds = textIds.ends; }
    line++;
  }
  cols.n = n;
  if (ids) ids.count = n;
  if (textIds) { textIds.count = n; textIds.used = idUsed; }
  sink.rows = rows;
  return true;
}

/**
 * Scan data records from `start` (the byte after the header's line break), line `firstLine`.
 * Returns false, with the sink in an unspecified state, when a row holds a quote: the caller must
 * then start over with parseCsv.
 */
export function scanNumericCsv(
  bytes: Uint8Array, start: number, firstLine: number, layout: NumericLayout, sink: RowSink, handle: RowHandler,
  progress: ParseProgress = NO_PROGRESS,
): boolean {
  const D = layout.delimiter;
  const C = layout.columns;
  const valueCol = layout.valueCol;
  const targetCol = layout.targetCol;
  const idCol = layout.idCol;
  // The common layouts get the unrolled loop.
  if ((idCol === 0 || idCol === -1) && valueCol === idCol + 1 && targetCol === valueCol + 1 && C === targetCol + 1) {
    return scanValueTarget(bytes, start, firstLine, idCol === 0, D, sink, handle, progress);
  }
  const len = bytes.length;
  const cols = sink.columns;
  const ids = sink.ids;
  const delimText = String.fromCharCode(D);
  // The hot loop writes through local references and a local count (no method call per row); they
  // are synced with `cols`/`ids` around the rare calls that push through them.
  let outValue = cols.value;
  let outTarget = cols.target;
  let outLines = cols.lines;
  let outIds = ids ? ids.num : outValue;
  let n = cols.n;
  let cap = outValue.length;
  // IDs straight into the array only when every one sits in column 1 (else IdLog tracks columns).
  const directIds = ids !== null && idCol === 0;
  const textIds = layout.textIds && idCol >= 0 ? sink.textIds ?? null : null;
  let idBytes = textIds ? textIds.bytes : EMPTY_BYTES;
  let idUsed = textIds ? textIds.used : 0;
  let idEnds = textIds ? textIds.ends : EMPTY_U32;
  const idOk = idByteTable(D);
  let rows = sink.rows;
  let p = start;
  let line = firstLine;
  progress.begin(len, start);
  let tick = progress.next;

  while (p < len) {
    const rowStart = p;
    if (p >= tick) { progress.at(p); tick = progress.next; }
    let c = bytes[p];
    // Blank lines are not records (parseCsv skips them too).
    if (c === LF) { p++; line++; continue; }
    if (c === CR && p + 1 < len && bytes[p + 1] === LF) { p += 2; line++; continue; }
    rows++;

    let value = 0;
    let target = 0;
    let id = -1;
    let idColumn = 1;
    let idEnd = idUsed;
    let ok = true;
    for (let col = 0; col < C; col++) {
      if (col === valueCol) {
        // Decimal: digits with at most one dot. Mantissa m and fraction digits f give m / 10^f,
        // correctly rounded (so equal to parseFloat) while m < 2^53 and 10^f is exact.
        const fieldStart = p;
        let m = 0;
        let f = -1; // -1 until the dot
        while (p < len) {
          c = bytes[p];
          if (c >= ZERO && c <= NINE) {
            m = m * 10 + (c - ZERO);
            if (f >= 0) f++;
          } else if (c === DOT && f < 0) {
            f = 0;
          } else break;
          p++;
        }
        const digits = p - fieldStart - (f >= 0 ? 1 : 0);
        if (digits === 0 || p - fieldStart > MAX_NUMERIC_CHARS) { ok = false; break; }
        if (f < 0) f = 0;
        value = m < EXACT_INT && f <= 22 ? m / POW10[f] : decimalFromBytes(bytes, fieldStart, p);
        if (value > 1) { ok = false; break; } // out of range: the general path words the problem
      } else if (col === targetCol) {
        c = p < len ? bytes[p] : 0;
        if (c !== ZERO && c !== 49) { ok = false; break; }
        target = c - ZERO;
        p++;
      } else if (col === idCol && textIds) {
        // Text ID: as in scanValueTarget.
        idColumn = p - rowStart + 1;
        while (p < len) {
          c = bytes[p];
          if (idOk[c] === 0) break;
          if (idEnd === idBytes.length) { textIds.used = idUsed; idBytes = textIds.reserve(idEnd - idUsed + 4096); }
          idBytes[idEnd++] = c;
          p++;
        }
        if (p < len && c === QUOTE) { sink.rows = rows; return false; }
        if (idEnd === idUsed || (p < len && !(c === D || c === LF || c === CR))) { ok = false; break; }
      } else if (col === idCol) {
        // Canonical integer: no sign, no leading zero, at most 15 digits (else the general path).
        const fieldStart = p;
        idColumn = p - rowStart + 1;
        let v = 0;
        while (p < len) {
          c = bytes[p];
          if (c < ZERO || c > NINE) break;
          v = v * 10 + (c - ZERO);
          p++;
        }
        const nd = p - fieldStart;
        if (nd === 0 || nd > 15 || (nd > 1 && bytes[fieldStart] === ZERO)) { ok = false; break; }
        id = v;
      } else {
        while (p < len) {
          c = bytes[p];
          if (c === D || c === LF) break;
          if (c === QUOTE) { sink.rows = rows; return false; }
          // Non-ASCII text: byte offsets would no longer be character columns.
          if (c >= 0x80) { ok = false; break; }
          p++;
        }
        if (!ok) break;
      }
      // The field must end exactly here: a delimiter before the next field, a line break (or the
      // end of the file) after the last one.
      if (col < C - 1) {
        if (p < len && bytes[p] === D) p++;
        else { ok = false; break; }
      } else if (p < len) {
        c = bytes[p];
        // A skipped last field stops at LF and may end in a CR, which CRLF explains.
        if (!(c === LF || (c === CR && p + 1 < len && bytes[p + 1] === LF))) { ok = false; break; }
      }
    }

    if (ok) {
      if (n === cap) {
        cols.n = n;
        cols.grow();
        outValue = cols.value; outTarget = cols.target; outLines = cols.lines;
        cap = outValue.length;
        if (ids) {
          while (ids.num.length < cap) ids.grow();
          outIds = ids.num;
        }
      }
      outValue[n] = value;
      outTarget[n] = target;
      outLines[n] = line;
      if (directIds) outIds[n] = id;
      else if (ids) { ids.count = n; ids.pushNumber(id, idColumn); outIds = ids.num; }
      else if (textIds) {
        if (n === idEnds.length) { textIds.growEntries(); idEnds = textIds.ends; }
        idEnds[n] = idEnd;
        if (idColumn !== 1) textIds.setColumn(n, idColumn);
        idUsed = idEnd;
      }
      n++;
      if (p < len) p += bytes[p] === CR ? 2 : 1;
      line++;
      continue;
    }

    cols.n = n;
    if (ids) ids.count = n;
    if (textIds) { textIds.count = n; textIds.used = idUsed; }
    sink.rows = rows;
    p = oddRow(bytes, rowStart, line, delimText, sink, handle);
    if (p < 0) return false;
    n = cols.n;
    outValue = cols.value; outTarget = cols.target; outLines = cols.lines;
    cap = outValue.length;
    if (ids) {
      while (ids.num.length < cap) ids.grow();
      outIds = ids.num;
    }
    if (textIds) { idBytes = textIds.bytes; idUsed = textIds.used; idEnds = textIds.ends; }
    line++;
  }
  cols.n = n;
  if (ids) ids.count = n;
  if (textIds) { textIds.count = n; textIds.used = idUsed; }
  sink.rows = rows;
  return true;
}

/**
 * Sort problems by line, then column (stable), add a summary when some were dropped. Both paths
 * finish with this, so their lists compare equal.
 */
export function finishProblems(problems: RowProblem[], dropped: number): RowProblem[] {
  const sorted = problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.line - b.p.line || (a.p.column ?? 0) - (b.p.column ?? 0) || a.i - b.i)
    .map((x) => x.p);
  if (dropped > 0) sorted.push(moreProblems(sorted, dropped));
  return sorted;
}

/** The header line, split, and the offset of the first data byte. */
export interface SimpleHeader {
  fields: string[];
  /** Byte offset just after the header's line break (bytes.length when there is none). */
  next: number;
}

/**
 * The first line as a header when the scanner can take it as is: not blank and without quotes.
 * Otherwise undefined, and the caller uses parseCsv (whose header is the first non-blank record).
 */
export function readSimpleHeader(bytes: Uint8Array, start: number, delimiter: string): SimpleHeader | undefined {
  let end = bytes.indexOf(LF, start);
  if (end === -1) end = bytes.length;
  for (let i = start; i < end; i++) if (bytes[i] === QUOTE) return undefined;
  const contentEnd = end < bytes.length && end > start && bytes[end - 1] === CR ? end - 1 : end;
  if (contentEnd === start) return undefined;
  const fields = utf8.decode(bytes.subarray(start, contentEnd)).split(delimiter);
  return { fields, next: end < bytes.length ? end + 1 : bytes.length };
}

/** One sentence: how many rows there were and the first reason one was left out. */
export function nothingScoredMessage(rows: number, problems: RowProblem[]): string {
  const first = problems.find((p) => p.severity === 'error');
  const why = first ? ` (first problem, line ${first.line}: ${first.message.replace(/\.$/, '')})` : '';
  return `None of the ${rows} data row${rows === 1 ? '' : 's'} could be scored${why}.`;
}
