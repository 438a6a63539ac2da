// Per-instance data on the wire (the instance codec): the scoring worker encodes, the webview decodes;
// pure TypeScript that neither side owns (no DOM, no Node, no vscode).
//
// VS Code (engines >= 1.57) sends a typed array in webview.postMessage as a binary buffer (its
// whole underlying ArrayBuffer), not as JSON; everything else in a message goes through
// JSON.stringify. In code-server the bytes then cross a WebSocket to the browser at roughly
// 25-40 MB/s on the 2-core test machines, so bytes are what costs: a 1,000,000-row binary report
// as plain InstanceColumns is 49 MB (about 2 s in transit). The encoding below is lossless and
// sends only what cannot be recomputed exactly: a column that is an arithmetic sequence, a
// constant, a copy of another column, or a fixed function of other columns (each rule is checked
// on every row before it is used) is sent as that rule; the rest as the narrowest typed array that
// holds every value exactly. A folktexts report is then 11 bytes a row (score, label, two bin
// indices) instead of 49, plus its index (the instance ID: 4 bytes when shuffled, none when it is a
// sequence). The rows travel in pages of a few MB, each page's arrays in buffers of
// their own (a view into a larger buffer would send the whole buffer).
import type { InstanceColumns } from '../core/types';

/** The numeric per-instance columns (InstanceColumns without ids). */
export const INSTANCE_COLUMNS = ['lines', 'value', 'target', 'confidence', 'correct', 'bin', 'binQuantile', 'brier', 'gold', 'pred'] as const;
export type InstanceColumnName = (typeof INSTANCE_COLUMNS)[number];
/** Every numeric column that can travel: the instance columns, ids when all are integers, RAFT dataLines. */
export type WireColumnName = InstanceColumnName | 'ids' | 'dataLines';

export type StoredType = 'f64' | 'u8' | 'i8' | 'u16' | 'i16' | 'u32' | 'i32';

export type ColumnCodec =
  /** In every page, as a typed array of this type. */
  | { kind: 'stored'; type: StoredType }
  /** Every row the same value (null: NaN, which JSON cannot carry). */
  | { kind: 'const'; value: number | null }
  /** Row i (0-based, over the whole report) is start + i * step. */
  | { kind: 'seq'; start: number; step: number }
  /** Equal to another column, row by row. */
  | { kind: 'copy'; of: WireColumnName }
  /** value >= 0.5 ? value : 1 - value (the top-label confidence of a binary score). */
  | { kind: 'foldHalf' }
  /** value >= at ? 1 : 0 (the predicted class of a binary score). */
  | { kind: 'threshold'; at: number }
  /** pred === gold ? 1 : 0 */
  | { kind: 'agree' }
  /** (value - target) * (value - target) */
  | { kind: 'squaredError' }
  /** ids only: strings, carried by each page's `ids`. */
  | { kind: 'strings' };

export interface InstanceScheme {
  /** Rows of the report. */
  n: number;
  columns: Record<InstanceColumnName, ColumnCodec>;
  /** Absent: the report has no ids. A numeric codec: every id is a canonical integer (String(x)). */
  ids?: ColumnCodec;
  dataLines?: ColumnCodec;
  /** Field names of Report.texts; each page carries its rows' values. */
  textFields?: string[];
  pages: number;
}

export type WireArray = Float64Array | Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array;

export interface InstancePage {
  /** Index of the page, and the rows it holds: [offset, offset + count). */
  index: number;
  offset: number;
  count: number;
  /** The stored columns' values for these rows. */
  data: Partial<Record<WireColumnName, WireArray>>;
  ids?: string[];
  texts?: string[][];
}

export interface InstancePayload {
  scheme: InstanceScheme;
  pages: InstancePage[];
}

/** What Report carries per instance, as the encoder reads it and the decoder rebuilds it. */
export interface InstanceSource {
  instances: InstanceColumns;
  texts?: { fields: string[]; values: string[][] };
  dataLines?: Uint32Array;
  threshold: number;
}

const CTORS = {
  f64: Float64Array, u8: Uint8Array, i8: Int8Array, u16: Uint16Array, i16: Int16Array, u32: Uint32Array, i32: Int32Array,
} as const;

/** Bytes per row of a stored type. */
export const STORED_BYTES: Record<StoredType, number> = { f64: 8, u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4 };

/** Bytes of typed data per page (a few MB: small enough not to hold up the extension host's event loop). */
export const PAGE_BYTES = 2 * 1024 * 1024;

type Numeric = ArrayLike<number>;

function sameNumber(a: number, b: number): boolean {
  return a === b || (a !== a && b !== b);
}

/** The narrowest stored type that holds every value exactly (f64 when any is fractional or NaN). */
export function narrowestType(v: Numeric): StoredType {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!Number.isInteger(x) || Object.is(x, -0)) return 'f64';
    if (x < min) min = x;
    if (x > max) max = x;
  }
  if (v.length === 0) return 'u8';
  if (min >= 0 && max <= 0xff) return 'u8';
  if (min >= -0x80 && max <= 0x7f) return 'i8';
  if (min >= 0 && max <= 0xffff) return 'u16';
  if (min >= -0x8000 && max <= 0x7fff) return 'i16';
  if (min >= 0 && max <= 0xffffffff) return 'u32';
  if (min >= -0x80000000 && max <= 0x7fffffff) return 'i32';
  return 'f64';
}

function constantOf(v: Numeric): number | null | undefined {
  if (!v.length) return undefined;
  const first = v[0];
  for (let i = 1; i < v.length; i++) if (!sameNumber(v[i], first)) return undefined;
  return first !== first ? null : first;
}

function sequenceOf(v: Numeric): { kind: 'seq'; start: number; step: number } | undefined {
  if (v.length < 2) return undefined;
  const start = v[0];
  const step = v[1] - v[0];
  if (!Number.isInteger(start) || !Number.isInteger(step)) return undefined;
  for (let i = 2; i < v.length; i++) if (v[i] !== start + i * step) return undefined;
  return { kind: 'seq', start, step };
}

function holds(n: number, check: (i: number) => boolean): boolean {
  for (let i = 0; i < n; i++) if (!check(i)) return false;
  return true;
}

const foldHalf = (v: number) => (v >= 0.5 ? v : 1 - v);

/** How each column travels: the cheapest rule that reproduces every row exactly. */
export function instanceScheme(src: InstanceSource): Omit<InstanceScheme, 'pages'> {
  const inst = src.instances;
  const n = inst.lines.length;
  const columns = {} as Record<InstanceColumnName, ColumnCodec>;
  const plain = (v: Numeric): ColumnCodec => {
    const c = constantOf(v);
    if (c !== undefined && n > 1) return { kind: 'const', value: c };
    return { kind: 'stored', type: narrowestType(v) };
  };
  const integers = (v: Numeric): ColumnCodec => sequenceOf(v) ?? plain(v);
  columns.lines = integers(inst.lines);
  columns.value = plain(inst.value);
  columns.gold = plain(inst.gold);
  columns.bin = plain(inst.bin);
  columns.binQuantile = plain(inst.binQuantile);
  const { value, gold, pred, target, confidence, correct, brier } = inst;
  const thr = src.threshold;
  if (n > 0 && holds(n, (i) => pred[i] === (value[i] >= thr ? 1 : 0))) columns.pred = { kind: 'threshold', at: thr };
  else if (n > 0 && holds(n, (i) => pred[i] === gold[i])) columns.pred = { kind: 'copy', of: 'gold' };
  else columns.pred = plain(pred);
  if (n > 0 && holds(n, (i) => target[i] === gold[i])) columns.target = { kind: 'copy', of: 'gold' };
  else if (n > 0 && holds(n, (i) => sameNumber(target[i], value[i]))) columns.target = { kind: 'copy', of: 'value' };
  else columns.target = plain(target);
  const confConst = constantOf(confidence);
  if (confConst !== undefined && n > 1) columns.confidence = { kind: 'const', value: confConst };
  else if (n > 0 && holds(n, (i) => sameNumber(confidence[i], value[i]))) columns.confidence = { kind: 'copy', of: 'value' };
  else if (n > 0 && holds(n, (i) => sameNumber(confidence[i], foldHalf(value[i])))) columns.confidence = { kind: 'foldHalf' };
  else columns.confidence = plain(confidence);
  const correctConst = constantOf(correct);
  if (correctConst !== undefined && n > 1) columns.correct = { kind: 'const', value: correctConst };
  else if (n > 0 && holds(n, (i) => correct[i] === (pred[i] === gold[i] ? 1 : 0))) columns.correct = { kind: 'agree' };
  else columns.correct = plain(correct);
  const brierConst = constantOf(brier);
  if (brierConst !== undefined && n > 1) columns.brier = { kind: 'const', value: brierConst };
  else if (n > 0 && holds(n, (i) => sameNumber(brier[i], (value[i] - target[i]) * (value[i] - target[i])))) columns.brier = { kind: 'squaredError' };
  else columns.brier = plain(brier);

  const scheme: Omit<InstanceScheme, 'pages'> = { n, columns };
  if (!inst.ids && inst.idNumbers && inst.idNumbers.length === n) {
    // Canonical integers already (instanceIds.ts): decoded as String(x), the file's own text.
    scheme.ids = integers(inst.idNumbers);
  } else if (inst.ids && inst.ids.length === n) {
    const ids = inst.ids;
    const asNumbers = new Float64Array(n);
    const numeric = holds(n, (i) => {
      const s = ids[i];
      const x = Number(s);
      asNumbers[i] = x;
      return typeof s === 'string' && s !== '' && Number.isInteger(x) && x >= 0 && x <= 0xffffffff && String(x) === s;
    });
    scheme.ids = numeric ? integers(asNumbers) : { kind: 'strings' };
  }
  if (src.dataLines && src.dataLines.length === n) scheme.dataLines = integers(src.dataLines);
  if (src.texts && src.texts.fields.length && src.texts.values.length === n) scheme.textFields = [...src.texts.fields];
  return scheme;
}

function storedColumns(scheme: Omit<InstanceScheme, 'pages'>): [WireColumnName, StoredType][] {
  const out: [WireColumnName, StoredType][] = [];
  for (const name of INSTANCE_COLUMNS) {
    const c = scheme.columns[name];
    if (c.kind === 'stored') out.push([name, c.type]);
  }
  if (scheme.ids?.kind === 'stored') out.push(['ids', scheme.ids.type]);
  if (scheme.dataLines?.kind === 'stored') out.push(['dataLines', scheme.dataLines.type]);
  return out;
}

/** Splits a report's per-instance data into pages of about `pageBytes` (typed data plus an estimate for text). */
export function encodeInstances(src: InstanceSource, pageBytes = PAGE_BYTES): InstancePayload {
  const base = instanceScheme(src);
  const n = base.n;
  const stored = storedColumns(base);
  let rowBytes = stored.reduce((sum, [, t]) => sum + STORED_BYTES[t], 0);
  // Text travels as JSON: estimate its size per row from a sample (2 bytes a character, quoted).
  const sample = Math.min(n, 200);
  if (sample > 0 && (base.ids?.kind === 'strings' || base.textFields)) {
    let chars = 0;
    for (let i = 0; i < sample; i++) {
      if (base.ids?.kind === 'strings') chars += (src.instances.ids![i]?.length ?? 0) + 3;
      if (base.textFields) for (const t of src.texts!.values[i] ?? []) chars += (t?.length ?? 0) + 3;
    }
    rowBytes += (2 * chars) / sample;
  }
  const rowsPerPage = n === 0 ? 1 : Math.max(256, Math.min(n, Math.floor(pageBytes / Math.max(1, rowBytes))));
  const pages: InstancePage[] = [];
  const source = (name: WireColumnName): Numeric => {
    if (name === 'ids') return src.instances.ids ? Float64Array.from(src.instances.ids, Number) : src.instances.idNumbers!;
    if (name === 'dataLines') return src.dataLines!;
    return src.instances[name];
  };
  const sources = new Map(stored.map(([name]) => [name, source(name)]));
  for (let offset = 0, index = 0; offset < n || (n === 0 && index === 0); offset += rowsPerPage, index++) {
    const count = Math.min(rowsPerPage, n - offset);
    const data: InstancePage['data'] = {};
    for (const [name, type] of stored) {
      const out = new CTORS[type](count);
      const from = sources.get(name)!;
      // A typed source is copied (and converted) by the engine: ~10x faster than element by element.
      if (ArrayBuffer.isView(from)) out.set((from as unknown as Float64Array).subarray(offset, offset + count));
      else for (let i = 0; i < count; i++) out[i] = from[offset + i];
      data[name] = out;
    }
    const page: InstancePage = { index, offset, count, data };
    if (base.ids?.kind === 'strings') page.ids = src.instances.ids!.slice(offset, offset + count);
    if (base.textFields) page.texts = src.texts!.values.slice(offset, offset + count);
    pages.push(page);
    if (n === 0) break;
  }
  return { scheme: { ...base, pages: pages.length }, pages };
}

/** Every ArrayBuffer of a payload's pages (to transfer rather than copy between threads). */
export function payloadBuffers(payload: InstancePayload): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const p of payload.pages) for (const a of Object.values(p.data)) if (a && a.buffer instanceof ArrayBuffer) out.push(a.buffer);
  return out;
}

/** Pages of one report arriving in any order; `decode()` once `complete`. */
export class InstanceAssembler {
  private readonly received = new Set<number>();
  private readonly stored = new Map<WireColumnName, WireArray>();
  private readonly ids: string[] | undefined;
  private readonly texts: string[][] | undefined;

  constructor(readonly scheme: InstanceScheme) {
    for (const [name, type] of storedColumns(scheme)) this.stored.set(name, new CTORS[type](scheme.n));
    if (scheme.ids?.kind === 'strings') this.ids = new Array<string>(scheme.n);
    if (scheme.textFields) this.texts = new Array<string[]>(scheme.n);
  }

  get complete(): boolean {
    return this.received.size >= this.scheme.pages;
  }

  get rowsReceived(): number {
    return this.receivedRows;
  }

  private receivedRows = 0;

  /** Adds a page; false when it does not fit the scheme (then it is ignored). */
  add(page: InstancePage): boolean {
    if (!page || this.received.has(page.index) || page.index < 0 || page.index >= this.scheme.pages) return false;
    const { offset, count } = page;
    if (!Number.isInteger(offset) || !Number.isInteger(count) || offset < 0 || count < 0 || offset + count > this.scheme.n) return false;
    for (const [name, target] of this.stored) {
      const part = page.data?.[name];
      if (!part || part.length !== count) return false;
      target.set(part as ArrayLike<number>, offset);
    }
    if (this.ids) for (let i = 0; i < count; i++) this.ids[offset + i] = String(page.ids?.[i] ?? '');
    if (this.texts) for (let i = 0; i < count; i++) this.texts[offset + i] = Array.isArray(page.texts?.[i]) ? page.texts![i] : [];
    this.received.add(page.index);
    this.receivedRows += count;
    return true;
  }

  /** The columns as the core made them, the texts and data lines. */
  decode(): { instances: InstanceColumns; texts?: { fields: string[]; values: string[][] }; dataLines?: Uint32Array } {
    const { scheme } = this;
    const n = scheme.n;
    const done = new Map<WireColumnName, Numeric>();
    const resolving = new Set<WireColumnName>();
    const codecOf = (name: WireColumnName): ColumnCodec | undefined =>
      name === 'ids' ? scheme.ids : name === 'dataLines' ? scheme.dataLines : scheme.columns[name];
    const get = (name: WireColumnName): Numeric => {
      const have = done.get(name);
      if (have) return have;
      if (resolving.has(name)) throw new Error(`instance column ${name} refers to itself`);
      resolving.add(name);
      const codec = codecOf(name);
      const out = new Float64Array(n);
      if (!codec || codec.kind === 'strings') out.fill(NaN);
      else if (codec.kind === 'stored') {
        done.set(name, this.stored.get(name)!);
        resolving.delete(name);
        return this.stored.get(name)!;
      } else if (codec.kind === 'const') out.fill(codec.value === null ? NaN : codec.value);
      else if (codec.kind === 'seq') for (let i = 0; i < n; i++) out[i] = codec.start + i * codec.step;
      else if (codec.kind === 'copy') out.set(get(codec.of));
      else if (codec.kind === 'foldHalf') {
        const v = get('value');
        for (let i = 0; i < n; i++) out[i] = foldHalf(v[i]);
      } else if (codec.kind === 'threshold') {
        const v = get('value');
        for (let i = 0; i < n; i++) out[i] = v[i] >= codec.at ? 1 : 0;
      } else if (codec.kind === 'agree') {
        const p = get('pred');
        const g = get('gold');
        for (let i = 0; i < n; i++) out[i] = p[i] === g[i] ? 1 : 0;
      } else if (codec.kind === 'squaredError') {
        const v = get('value');
        const t = get('target');
        for (let i = 0; i < n; i++) out[i] = (v[i] - t[i]) * (v[i] - t[i]);
      }
      done.set(name, out);
      resolving.delete(name);
      return out;
    };
    const as = <C extends (typeof CTORS)[StoredType]>(ctor: C, name: WireColumnName): InstanceType<C> => {
      const v = get(name);
      return (v instanceof ctor ? v : ctor.from(v)) as InstanceType<C>;
    };
    const instances: InstanceColumns = {
      lines: as(Uint32Array, 'lines'),
      value: as(Float64Array, 'value'),
      target: as(Float64Array, 'target'),
      confidence: as(Float64Array, 'confidence'),
      correct: as(Uint8Array, 'correct'),
      bin: as(Int16Array, 'bin'),
      binQuantile: as(Int16Array, 'binQuantile'),
      brier: as(Float64Array, 'brier'),
      gold: as(Int32Array, 'gold'),
      pred: as(Int32Array, 'pred'),
    };
    if (scheme.ids?.kind === 'strings') instances.ids = this.ids;
    // Integer IDs stay numbers (a million strings cost ~0.3 s of the page's thread); their text is
    // String(x), read through src/common/instanceIds.ts.
    else if (scheme.ids) instances.idNumbers = as(Float64Array, 'ids');
    const out: ReturnType<InstanceAssembler['decode']> = { instances };
    if (scheme.dataLines) out.dataLines = as(Uint32Array, 'dataLines');
    if (scheme.textFields && this.texts) out.texts = { fields: scheme.textFields, values: this.texts };
    return out;
  }
}
