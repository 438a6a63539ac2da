// A byte-level reader for JSON Lines of flat records (`{"id":"r7","score":0.25,"label":1}`): one
// object per line, keys and string values without escapes, numbers, true, false, null. It finds
// each field's key and the byte span of its value without decoding the line or making an object,
// for the generic reader's fast path. Anything else on a line (an escape, a nested value, a
// duplicate key, a number literal too long to read) makes `line` return false, and the caller
// reads the whole file with JSON.parse instead.
import { MAX_NUMERIC_CHARS } from './numbers';

export const STRING = 1;
export const NUMBER = 2;
export const TRUE = 3;
export const FALSE = 4;
export const NULL = 5;

const QUOTE = 34;
const BACKSLASH = 92;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10;
}

const utf8 = new TextDecoder('utf-8');

export class FlatJsonLines {
  /** Every key, in order of first appearance. */
  readonly names: string[] = [];
  private keyBytes: Uint8Array[] = [];
  /** The fields of the last line read: key index, value span (strings without their quotes), kind. */
  fields = 0;
  key = new Int32Array(16);
  start = new Int32Array(16);
  end = new Int32Array(16);
  kind = new Uint8Array(16);
  private stamp = new Int32Array(16);
  private lineNo = 0;

  /** Read bytes[s, e) (one line without its line break) as a flat object; false if it is not one. */
  line(bytes: Uint8Array, s: number, e: number): boolean {
    this.lineNo++;
    this.fields = 0;
    let p = s;
    while (p < e && isSpace(bytes[p])) p++;
    if (p >= e || bytes[p] !== 0x7b /* { */) return false;
    p++;
    while (p < e && isSpace(bytes[p])) p++;
    if (p < e && bytes[p] === 0x7d /* } */) return this.rest(bytes, p + 1, e);
    for (;;) {
      if (p >= e || bytes[p] !== QUOTE) return false;
      const ks = ++p;
      while (p < e && bytes[p] !== QUOTE) {
        const c = bytes[p];
        if (c === BACKSLASH || c < 32) return false;
        p++;
      }
      if (p >= e) return false;
      const k = this.keyOf(bytes, ks, p);
      if (this.stamp[k] === this.lineNo) return false; // a duplicate key: JSON.parse keeps the last
      this.stamp[k] = this.lineNo;
      p++;
      while (p < e && isSpace(bytes[p])) p++;
      if (p >= e || bytes[p] !== 0x3a /* : */) return false;
      p++;
      while (p < e && isSpace(bytes[p])) p++;
      if (p >= e) return false;
      const c = bytes[p];
      let vs = p, ve: number, kind: number;
      if (c === QUOTE) {
        vs = ++p;
        while (p < e && bytes[p] !== QUOTE) {
          const b = bytes[p];
          if (b === BACKSLASH || b < 32) return false;
          p++;
        }
        if (p >= e) return false;
        ve = p++;
        kind = STRING;
      } else if (c === 0x2d || (c >= 48 && c <= 57)) {
        // A JSON number: -? int frac? exp? (the grammar is checked; its value is read later).
        if (bytes[p] === 0x2d) p++;
        const is = p;
        while (p < e && bytes[p] >= 48 && bytes[p] <= 57) p++;
        if (p === is || (p - is > 1 && bytes[is] === 48)) return false;
        if (p < e && bytes[p] === 0x2e) {
          const fs = ++p;
          while (p < e && bytes[p] >= 48 && bytes[p] <= 57) p++;
          if (p === fs) return false;
        }
        if (p < e && (bytes[p] === 0x65 || bytes[p] === 0x45)) {
          p++;
          if (p < e && (bytes[p] === 0x2b || bytes[p] === 0x2d)) p++;
          const es = p;
          while (p < e && bytes[p] >= 48 && bytes[p] <= 57) p++;
          if (p === es) return false;
        }
        ve = p;
        if (ve - vs > MAX_NUMERIC_CHARS) return false;
        kind = NUMBER;
      } else if (this.word(bytes, p, e, 'true')) { ve = p += 4; kind = TRUE; }
      else if (this.word(bytes, p, e, 'false')) { ve = p += 5; kind = FALSE; }
      else if (this.word(bytes, p, e, 'null')) { ve = p += 4; kind = NULL; }
      else return false; // a nested value, NaN, Infinity, ...: JSON.parse's (and Python's) business
      this.push(k, vs, ve, kind);
      while (p < e && isSpace(bytes[p])) p++;
      if (p >= e) return false;
      if (bytes[p] === 0x2c /* , */) {
        p++;
        while (p < e && isSpace(bytes[p])) p++;
        continue;
      }
      if (bytes[p] === 0x7d) return this.rest(bytes, p + 1, e);
      return false;
    }
  }

  private rest(bytes: Uint8Array, p: number, e: number): boolean {
    while (p < e && isSpace(bytes[p])) p++;
    return p === e;
  }

  private word(bytes: Uint8Array, p: number, e: number, w: string): boolean {
    if (p + w.length > e) return false;
    for (let i = 0; i < w.length; i++) if (bytes[p + i] !== w.charCodeAt(i)) return false;
    return true;
  }

  private push(k: number, vs: number, ve: number, kind: number): void {
    const i = this.fields++;
    if (i === this.key.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T): T => { const b = new (a.constructor as new (n: number) => T)(a.length * 2); b.set(a); return b; };
      this.key = grow(this.key); this.start = grow(this.start); this.end = grow(this.end); this.kind = grow(this.kind);
    }
    this.key[i] = k; this.start[i] = vs; this.end[i] = ve; this.kind[i] = kind;
  }

  private keyOf(bytes: Uint8Array, s: number, e: number): number {
    const len = e - s;
    const keys = this.keyBytes;
    for (let k = 0; k < keys.length; k++) {
      const kb = keys[k];
      if (kb.length !== len) continue;
      let same = true;
      for (let i = 0; i < len; i++) if (kb[i] !== bytes[s + i]) { same = false; break; }
      if (same) return k;
    }
    keys.push(bytes.slice(s, e));
    this.names.push(utf8.decode(bytes.subarray(s, e)));
    if (keys.length > this.stamp.length) {
      const st = new Int32Array(this.stamp.length * 2);
      st.set(this.stamp);
      this.stamp = st;
    }
    return keys.length - 1;
  }

  /** The field of key k on the last line read, or -1. */
  field(k: number): number {
    for (let i = 0; i < this.fields; i++) if (this.key[i] === k) return i;
    return -1;
  }
}
