// The pages of one flat Parquet column chunk decoded straight into typed columns, for the few
// column shapes a binary or confidence table of predictions has: a DOUBLE (or FLOAT) score, a 0/1
// label (INT32, INT64, BOOLEAN, DOUBLE), a UTF-8 ID (BYTE_ARRAY) copied as bytes into a TextIdLog
// (no string per row). hyparquet does the page headers and the decompression (with the bounded
// decompressors); this file only reads PLAIN and dictionary values and the definition levels.
// Anything else (a null, a value the CSV text would read otherwise, another encoding, a logical
// type) makes `decodeColumnChunk` return false, and the caller takes hyparquet's own reader.
import { parquetHeader } from 'hyparquet/src/column.js';
import { decompressPage } from 'hyparquet/src/datapage.js';
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import type { ColumnChunk, Compressors, SchemaElement } from 'hyparquet';
import type { TextIdLog } from './numericCsv';

/** Where a column's values go: a score, a 0/1 target, or ID bytes. */
export type ColumnSink =
  | { kind: 'number'; out: Float64Array }
  | { kind: 'zeroOne'; out: Uint8Array }
  | { kind: 'bytes'; out: TextIdLog };

/** Whether this reader takes the column at all (its physical and logical type). */
export function decodable(element: SchemaElement, sink: ColumnSink['kind']): boolean {
  if (element.repetition_type === 'REPEATED') return false;
  const plain = element.converted_type === undefined && element.logical_type === undefined;
  switch (sink) {
    case 'number': return plain && (element.type === 'DOUBLE' || element.type === 'FLOAT');
    case 'zeroOne': return plain && (element.type === 'INT32' || element.type === 'INT64' || element.type === 'BOOLEAN' || element.type === 'DOUBLE');
    case 'bytes': return element.type === 'BYTE_ARRAY'
      && (element.converted_type === 'UTF8' || element.logical_type?.type === 'STRING');
  }
}

interface Dictionary {
  /** number / zeroOne: the values; bytes: start offsets into `bytes` (n + 1 of them). */
  values: Float64Array | Int32Array;
  bytes?: Uint8Array;
}

/**
 * Decode the column chunk of one row group into `sink`, rows [rowStart, rowStart + rows). Returns
 * false (having written an unspecified part) where the values are not all plain and present.
 */
export function decodeColumnChunk(
  file: ArrayBuffer, chunk: ColumnChunk, element: SchemaElement, sink: ColumnSink, rowStart: number, rows: number, compressors: Compressors,
): boolean {
  const meta = chunk.meta_data;
  if (!meta) return false;
  const optional = element.repetition_type === 'OPTIONAL';
  const dictOffset = meta.dictionary_page_offset;
  const start = Number(dictOffset !== undefined && dictOffset > 0n && dictOffset < meta.data_page_offset ? dictOffset : meta.data_page_offset);
  const length = Number(meta.total_compressed_size);
  if (start + length > file.byteLength) return false;
  const reader = { view: new DataView(file, start, length), offset: 0 };
  let dictionary: Dictionary | undefined;
  let row = rowStart;
  const end = rowStart + rows;
  while (row < end && reader.offset < length) {
    const header = parquetHeader(reader);
    const compressed = new Uint8Array(file, start + reader.offset, header.compressed_page_size);
    reader.offset += header.compressed_page_size;
    if (header.type === 'DICTIONARY_PAGE') {
      const n = header.dictionary_page_header?.num_values ?? 0;
      const page = decompressPage(compressed, Number(header.uncompressed_page_size), meta.codec, compressors);
      const d = readDictionary(page, n, meta.type, sink.kind);
      if (!d) return false;
      dictionary = d;
      continue;
    }
    let values: Uint8Array;
    let count: number;
    let encoding: string;
    let levels: Uint8Array | undefined;
    if (header.type === 'DATA_PAGE' && header.data_page_header) {
      const h = header.data_page_header;
      count = h.num_values;
      encoding = h.encoding;
      const page = decompressPage(compressed, Number(header.uncompressed_page_size), meta.codec, compressors);
      let offset = 0;
      if (optional) {
        const levelBytes = new DataView(page.buffer, page.byteOffset, page.byteLength).getUint32(0, true);
        levels = page.subarray(4, 4 + levelBytes);
        offset = 4 + levelBytes;
      }
      values = page.subarray(offset);
    } else if (header.type === 'DATA_PAGE_V2' && header.data_page_header_v2) {
      const h = header.data_page_header_v2;
      count = h.num_values;
      encoding = h.encoding;
      if (h.num_nulls || h.repetition_levels_byte_length) return false;
      const levelBytes = h.definition_levels_byte_length;
      if (optional) levels = compressed.subarray(0, levelBytes);
      const body = compressed.subarray(levelBytes);
      values = h.is_compressed === false ? body : decompressPage(body, Number(header.uncompressed_page_size) - levelBytes, meta.codec, compressors);
      levels = undefined; // num_nulls is 0: every value is present
    } else {
      return false;
    }
    if (row + count > end) return false;
    if (levels && !allPresent(levels, count)) return false;
    const ok = encoding === 'PLAIN'
      ? readPlainInto(values, meta.type, count, sink, row)
      : (encoding === 'RLE_DICTIONARY' || encoding === 'PLAIN_DICTIONARY') && dictionary !== undefined
        ? readIndexedInto(values, count, dictionary, sink, row)
        : false;
    if (!ok) return false;
    row += count;
  }
  return row === end;
}

/** Definition levels (bit width 1, RLE / bit-packed hybrid) all 1: no null in the page. */
function allPresent(levels: Uint8Array, count: number): boolean {
  const out = new Uint8Array(count);
  readRleBitPackedHybrid({ view: new DataView(levels.buffer, levels.byteOffset, levels.byteLength), offset: 0 }, 1, out, levels.length);
  for (let i = 0; i < count; i++) if (out[i] !== 1) return false;
  return true;
}

/** A value the CSV text would print as 0 or 1, as that number; else -1. */
function zeroOne(v: number): number {
  return v === 0 || v === 1 ? v : -1;
}

function readPlainInto(page: Uint8Array, type: string, count: number, sink: ColumnSink, row: number): boolean {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  if (sink.kind === 'bytes') {
    if (type !== 'BYTE_ARRAY') return false;
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (p + 4 > page.length) return false;
      const len = view.getUint32(p, true);
      p += 4;
      if (p + len > page.length || !pushId(sink.out, page, p, p + len)) return false;
      p += len;
    }
    return true;
  }
  if (type === 'BOOLEAN') {
    if (sink.kind !== 'zeroOne' || page.length * 8 < count) return false;
    for (let i = 0; i < count; i++) sink.out[row + i] = (page[i >> 3] >> (i & 7)) & 1;
    return true;
  }
  const width = type === 'DOUBLE' || type === 'INT64' ? 8 : 4;
  if (page.length < count * width) return false;
  for (let i = 0; i < count; i++) {
    const v = type === 'DOUBLE' ? view.getFloat64(i * 8, true)
      : type === 'FLOAT' ? view.getFloat32(i * 4, true)
        : type === 'INT32' ? view.getInt32(i * 4, true)
          : Number(view.getBigInt64(i * 8, true));
    if (!put(sink, row + i, v)) return false;
  }
  return true;
}

/** A score in [0, 1] (it prints and reads back as itself; -0 prints as 0), or a 0/1 target. */
function put(sink: ColumnSink, at: number, v: number): boolean {
  if (sink.kind === 'number') {
    if (!(v >= 0 && v <= 1)) return false;
    sink.out[at] = v + 0;
    return true;
  }
  if (sink.kind === 'zeroOne') {
    const t = zeroOne(v);
    if (t < 0) return false;
    sink.out[at] = t;
    return true;
  }
  return false;
}

/**
 * An ID's bytes: printable ASCII without surrounding spaces, as the CSV text would carry it and its
 * reader trim it (non-ASCII text could hold Unicode spaces String#trim removes: not this path's).
 */
function pushId(log: TextIdLog, src: Uint8Array, from: number, to: number): boolean {
  if (to === from) return false;
  if (log.count === log.ends.length) log.growEntries();
  const out = log.reserve(to - from);
  let o = log.used;
  for (let k = from; k < to; k++) {
    const c = src[k];
    if (c <= 32 || c >= 127) return false;
    out[o++] = c;
  }
  log.used = o;
  log.ends[log.count++] = o;
  return true;
}

function readDictionary(page: Uint8Array, n: number, type: string, kind: ColumnSink['kind']): Dictionary | undefined {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  if (kind === 'bytes') {
    if (type !== 'BYTE_ARRAY') return undefined;
    const starts = new Int32Array(n + 1);
    const bytes = new Uint8Array(page.length);
    let p = 0, o = 0;
    for (let i = 0; i < n; i++) {
      if (p + 4 > page.length) return undefined;
      const len = view.getUint32(p, true);
      p += 4;
      if (p + len > page.length) return undefined;
      starts[i] = o;
      bytes.set(page.subarray(p, p + len), o);
      o += len;
      p += len;
    }
    starts[n] = o;
    return { values: starts, bytes };
  }
  if (type === 'BOOLEAN') return undefined;
  const width = type === 'DOUBLE' || type === 'INT64' ? 8 : 4;
  if (page.length < n * width) return undefined;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    values[i] = type === 'DOUBLE' ? view.getFloat64(i * 8, true)
      : type === 'FLOAT' ? view.getFloat32(i * 4, true)
        : type === 'INT32' ? view.getInt32(i * 4, true)
          : Number(view.getBigInt64(i * 8, true));
  }
  return { values };
}

function readIndexedInto(page: Uint8Array, count: number, dictionary: Dictionary, sink: ColumnSink, row: number): boolean {
  if (page.length < 1) return false;
  const width = page[0];
  const index = new Int32Array(count);
  if (width > 0) {
    const view = new DataView(page.buffer, page.byteOffset + 1, page.byteLength - 1);
    readRleBitPackedHybrid({ view, offset: 0 }, width, index, page.length - 1);
  }
  const n = sink.kind === 'bytes' ? dictionary.values.length - 1 : dictionary.values.length;
  for (let i = 0; i < count; i++) {
    const k = index[i];
    if (k < 0 || k >= n) return false;
    if (sink.kind === 'bytes') {
      const starts = dictionary.values as Int32Array;
      if (!pushId(sink.out, dictionary.bytes!, starts[k], starts[k + 1])) return false;
    } else if (!put(sink, row + i, dictionary.values[k])) return false;
  }
  return true;
}
