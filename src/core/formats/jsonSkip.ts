// A JSON object's bytes without some of its top-level members, cut out before JSON.parse sees them.
// An Inspect sample entry is mostly its `events` (each model call with the whole conversation so
// far) and `attachments`, which scoring never reads: parsing them into objects only to drop them
// made most of the garbage of reading a large .eval, and the garbage is what the heap grows by
// (V8 collects lazily: Node 24 let a 300 MB log's parse reach 3x the memory of its live data). One
// pass over the bytes, aware of strings and nesting; the members kept are byte-for-byte as written.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** The index just past the string that starts at `at` (its opening quote). */
function stringEnd(bytes: Uint8Array, at: number): number {
  for (let i = at + 1; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === BACKSLASH) i++;
    else if (b === QUOTE) return i + 1;
  }
  return bytes.length;
}

/** The index just past the JSON value that starts at `at` (after any space). */
function valueEnd(bytes: Uint8Array, at: number): number {
  let i = at;
  while (i < bytes.length && isSpace(bytes[i])) i++;
  const first = bytes[i];
  if (first === QUOTE) return stringEnd(bytes, i);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (; i < bytes.length; i++) {
      const b = bytes[i];
      if (b === QUOTE) { i = stringEnd(bytes, i) - 1; continue; }
      if (b === 0x7b || b === 0x5b) depth++;
      else if (b === 0x7d || b === 0x5d) { depth--; if (depth === 0) return i + 1; }
    }
    return bytes.length;
  }
  // A number, true, false, null (or a bare NaN / Infinity, as pydantic writes them).
  while (i < bytes.length && bytes[i] !== COMMA && bytes[i] !== 0x7d && bytes[i] !== 0x5d && !isSpace(bytes[i])) i++;
  return i;
}

function sameBytes(bytes: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (bytes[start + k] !== key[k]) return false;
  return true;
}

const encoder = new TextEncoder();

/**
 * `bytes` (a JSON object) without its top-level members named in `keys`; the same array when it
 * holds none of them, or when it does not start as an object (the parser then says what it is).
 */
export function withoutTopLevelKeys(bytes: Uint8Array, keys: readonly string[]): Uint8Array {
  const wanted = keys.map((k) => encoder.encode(k));
  let i = 0;
  while (i < bytes.length && isSpace(bytes[i])) i++;
  if (bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) i += 3; // a BOM
  while (i < bytes.length && isSpace(bytes[i])) i++;
  if (bytes[i] !== 0x7b) return bytes;
  i++;
  /** Each member's bytes [key, end of value), and whether it is left out. */
  const members: { start: number; end: number; drop: boolean }[] = [];
  for (;;) {
    while (i < bytes.length && isSpace(bytes[i])) i++;
    if (i >= bytes.length || bytes[i] === 0x7d) break;
    if (bytes[i] !== QUOTE) return bytes; // not JSON as expected: leave it to the parser
    const keyStart = i;
    const keyEnd = stringEnd(bytes, i);
    i = keyEnd;
    while (i < bytes.length && isSpace(bytes[i])) i++;
    if (bytes[i] !== COLON) return bytes;
    const end = valueEnd(bytes, i + 1);
    members.push({ start: keyStart, end, drop: wanted.some((k) => sameBytes(bytes, keyStart + 1, keyEnd - 1, k)) });
    i = end;
    while (i < bytes.length && isSpace(bytes[i])) i++;
    if (bytes[i] !== COMMA) break;
    i++;
  }
  if (!members.some((m) => m.drop)) return bytes;
  // The members kept, byte for byte, joined by commas in a new object.
  const kept = members.filter((m) => !m.drop);
  const size = 2 + kept.reduce((s, m) => s + m.end - m.start, 0) + Math.max(0, kept.length - 1);
  const out = new Uint8Array(size);
  let at = 0;
  out[at++] = 0x7b;
  kept.forEach((m, k) => {
    if (k) out[at++] = COMMA;
    out.set(bytes.subarray(m.start, m.end), at);
    at += m.end - m.start;
  });
  out[at++] = 0x7d;
  return out;
}
