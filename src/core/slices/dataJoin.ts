// A data file joined to the predictions on their IDs: folktexts' task data CSV (its first, unnamed
// column is the pandas index the predictions file also carries), RAFT's train.csv / test.csv (ID).
// IDs are matched as text, trimmed; "1.0" and "1" also meet when both sides are numbers. An ID on
// more than one data row is ambiguous: those predictions are left out, never joined to either row.
import type { PredictionSet, RowProblem } from '../types';
import type { CompanionReader } from '../formats/context';
import { forEachCsvRecord } from '../formats/csv';
import { findColumn, type RowValues } from './columnValues';
import { baseName } from '../../common/paths';

export interface JoinResult {
  values: RowValues;
  /** Predictions without a data row. */
  unmatched: number;
  unmatchedIds: string[];
  /** Predictions whose ID is on several data rows. */
  ambiguous: number;
  problems: RowProblem[];
}

/** How many IDs a problem names. */
const NAMED_IDS = 5;

function canonical(id: string): string {
  const t = id.trim();
  if (t === '') return t;
  const v = Number(t);
  return Number.isFinite(v) ? String(v) : t;
}

function quote(s: string): string {
  return JSON.stringify(s);
}

/** The join column: --join-key, else an unnamed first column (pandas' index), else ID/id. */
function joinColumn(header: string[], joinKey: string | undefined): number {
  if (joinKey !== undefined) return findColumn(header, joinKey);
  if (header[0]?.trim() === '' || /^unnamed: 0$/i.test(header[0] ?? '')) return 0;
  return findColumn(header, 'id');
}

/** Read `dataPath` and give each prediction the value of `column` on the data row with its ID. */
export function joinDataFile(
  set: PredictionSet, dataPath: string, column: string, joinKey: string | undefined, io: CompanionReader,
  /** Tests: the general join only (the reference the integer-key join is checked against). */
  options: { general?: boolean } = {},
): JoinResult | { fatal: RowProblem } {
  const fatal = (message: string): { fatal: RowProblem } => ({ fatal: { line: 1, severity: 'error', code: 'group-column', path: dataPath, message } });
  if (!set.ids && !set.idNumbers) return fatal(`The predictions have no ID column, so ${baseName(dataPath)} cannot be joined to them.`);
  const text = io.readText(dataPath);
  if (text === undefined) return fatal(`The data file ${dataPath} cannot be read.`);
  const delimiter = /\.tsv$/i.test(dataPath) ? '\t' : ',';
  const fast = options.general ? undefined : joinByIntegerKeys(set, text, delimiter, dataPath, column, joinKey);
  if (fast) return fast;
  if (!set.ids) return fatal(`The predictions have no ID column, so ${baseName(dataPath)} cannot be joined to them.`);
  let header: string[] | undefined;
  let keyCol = -1, valueCol = -1;
  // Data row k of each ID (integer IDs keyed as numbers: a million string keys cost seconds), the
  // value of row k as a code into `distinct`, and the lines of IDs seen more than once.
  const rows = new IdIndex();
  const codes: number[] = [];
  const distinct: string[] = [];
  const codeOf = new Map<string, number>();
  const lineOf: number[] = [];
  const duplicates = new Map<string, number[]>();
  const duplicatedRows = new Set<number>();
  let stop: string | undefined;
  const parseProblems = forEachCsvRecord(text, delimiter, (rec) => {
    if (!header) {
      header = rec.fields;
      keyCol = joinColumn(header, joinKey);
      valueCol = findColumn(header, column);
      const shown = header.map((h) => quote(h)).join(', ');
      if (keyCol === -1) stop = `${baseName(dataPath)} has no ${joinKey === undefined ? 'ID column (an unnamed first column or ID)' : `column ${quote(joinKey)}`} to join on; its columns are ${shown}. Name one with --join-key.`;
      else if (valueCol === -1) stop = `Neither the predictions nor ${baseName(dataPath)} have a column ${quote(column)}; the data file's columns are ${shown}.`;
      return stop === undefined;
    }
    if (keyCol >= rec.fields.length) return true;
    const id = rec.fields[keyCol].trim();
    const seen = rows.get(id);
    if (seen !== undefined) {
      const lines = duplicates.get(id) ?? [lineOf[seen]];
      lines.push(rec.line);
      duplicates.set(id, lines);
      duplicatedRows.add(seen);
      return true;
    }
    rows.set(id, codes.length);
    lineOf.push(rec.line);
    if (valueCol >= rec.fields.length) { codes.push(-1); return true; }
    const value = rec.fields[valueCol];
    let c = codeOf.get(value);
    if (c === undefined) { c = distinct.length; distinct.push(value); codeOf.set(value, c); }
    codes.push(c);
    return true;
  });
  if (!header) return fatal(`The data file ${baseName(dataPath)} is empty.`);
  if (stop) return fatal(stop);

  const problems: RowProblem[] = parseProblems.map((p) => ({ ...p, path: dataPath }));
  const values: RowValues = new Array(set.n);
  const unmatchedIds: string[] = [];
  let unmatched = 0, ambiguous = 0;
  let firstUnmatchedLine = 0;
  let byNumber: Map<string, number> | undefined;
  for (let i = 0; i < set.n; i++) {
    const raw = set.ids[i];
    const id = raw === undefined ? '' : raw.trim();
    let k = rows.get(id);
    if (k === undefined && id !== '') {
      // "1.0" meets "1": built on the first miss only.
      byNumber ??= rows.canonicalIndex();
      k = byNumber.get(canonical(id));
    }
    if (k !== undefined && duplicatedRows.has(k)) { ambiguous++; continue; }
    const code = k === undefined ? -1 : codes[k];
    if (code < 0) {
      unmatched++;
      if (unmatchedIds.length < NAMED_IDS) unmatchedIds.push(id);
      if (!firstUnmatchedLine) firstUnmatchedLine = set.lines[i];
      continue;
    }
    values[i] = distinct[code];
  }
  return { values, unmatched, unmatchedIds, ambiguous, problems: joinProblems(dataPath, unmatched, unmatchedIds, firstUnmatchedLine, duplicates, ambiguous, problems) };
}

/** The join's warnings (predictions without a data row) and errors (IDs on several data rows), after `problems`. */
function joinProblems(
  dataPath: string, unmatched: number, unmatchedIds: string[], firstUnmatchedLine: number, duplicates: Map<string, number[]>, ambiguous: number,
  problems: RowProblem[],
): RowProblem[] {
  if (unmatched) {
    problems.push({
      line: firstUnmatchedLine || 1, severity: 'warning', code: 'unmatched-id',
      message: `${unmatched} prediction${unmatched === 1 ? ' has' : 's have'} no row in ${baseName(dataPath)} (ID ${unmatchedIds.map(quote).join(', ')}${unmatched > unmatchedIds.length ? ', …' : ''}); ${unmatched === 1 ? 'it is' : 'they are'} left out of the groups.`,
    });
  }
  if (duplicates.size) {
    const named = [...duplicates].slice(0, NAMED_IDS);
    const first = named[0];
    problems.push({
      line: first[1][1], severity: 'error', code: 'duplicate-id', path: dataPath,
      message: `${duplicates.size} ID${duplicates.size === 1 ? ' is' : 's are'} on more than one row of ${baseName(dataPath)} (${named.map(([id, lines]) => `${quote(id)} on lines ${lines.slice(0, 3).join(', ')}${lines.length > 3 ? ', …' : ''}`).join('; ')}${duplicates.size > named.length ? '; …' : ''}), so ${ambiguous} prediction${ambiguous === 1 ? '' : 's'} with ${duplicates.size === 1 ? 'that ID' : 'those IDs'} cannot be joined and ${ambiguous === 1 ? 'is' : 'are'} left out of the groups.`,
    });
  }
  return problems;
}

/**
 * joinDataFile for the common data file: no quote anywhere (so a record is a line), every key a
 * canonical integer. One pass over the text with no record objects: data row k of key v in a typed
 * array indexed by v, each value found among the distinct values by a hash of its characters (a
 * string is made only for a new one); the predictions' integer IDs (idNumbers) looked up without
 * making their strings. The same result as the general join, problems and all; undefined when the
 * file is not of that kind (the general join then reads it).
 */
function joinByIntegerKeys(
  set: PredictionSet, text: string, delimiter: string, dataPath: string, column: string, joinKey: string | undefined,
): JoinResult | undefined {
  if (text.indexOf('"') !== -1 || text.charCodeAt(0) === 0xfeff) return undefined;
  const D = delimiter.charCodeAt(0);
  const len = text.length;
  let p = 0;
  // Blank lines are not records; the header is the first record.
  let line = 1;
  const lineEnd = (from: number) => {
    const nl = text.indexOf('\n', from);
    return nl === -1 ? len : nl;
  };
  let header: string[] | undefined;
  while (p < len && !header) {
    const e = lineEnd(p);
    const content = e > p && text.charCodeAt(e - 1) === 13 ? text.slice(p, e - 1) : text.slice(p, e);
    if (content !== '') header = content.split(delimiter);
    p = e + 1;
    line++;
  }
  if (!header) return undefined;
  const keyCol = joinColumn(header, joinKey);
  const valueCol = findColumn(header, column);
  if (keyCol === -1 || valueCol === -1) return undefined;

  let rowOf = new Int32Array(1 << 16).fill(-1); // key -> data row
  const codes: number[] = [];
  const lineOf: number[] = [];
  const distinct: string[] = [];
  // Distinct values by a hash of their characters: slot -> code + 1.
  let table = new Int32Array(64);
  const hashes: number[] = [];
  const duplicates = new Map<string, number[]>();
  const duplicatedRows = new Set<number>();
  const lastCol = Math.max(keyCol, valueCol);
  for (; p <= len; line++) {
    const e = lineEnd(p);
    let end = e > p && text.charCodeAt(e - 1) === 13 ? e - 1 : e;
    if (p >= len) break;
    if (end === p) { p = e + 1; continue; } // a blank line
    // Fields keyCol and valueCol of the line.
    let col = 0, fs = p, key = -1, vs = -1, ve = -1, keyOk = false;
    for (let i = p; ; i++) {
      if (i === end || text.charCodeAt(i) === D) {
        if (col === keyCol) {
          // Canonical integer: no sign, no leading zero, at most 15 digits; anything else is not this path's.
          const nd = i - fs;
          if (nd === 0 || nd > 15 || (nd > 1 && text.charCodeAt(fs) === 48)) return undefined;
          let v = 0;
          for (let k = fs; k < i; k++) {
            const d = text.charCodeAt(k) - 48;
            if (d < 0 || d > 9) return undefined;
            v = v * 10 + d;
          }
          key = v;
          keyOk = true;
        }
        if (col === valueCol) { vs = fs; ve = i; }
        col++;
        fs = i + 1;
        if (i === end || col > lastCol) break;
      }
    }
    // A line ending in a CR that is not part of CRLF keeps it in its last field: not this path's.
    if (end === len && end > p && text.charCodeAt(end - 1) === 13) return undefined;
    p = e + 1;
    if (!keyOk) continue; // fewer fields than the key's column: the row is not indexed
    if (key >= rowOf.length) {
      if (key > 64 * (len >>> 2) + (1 << 22)) return undefined;
      let size = rowOf.length;
      while (size <= key) size *= 2;
      const grown = new Int32Array(size).fill(-1);
      grown.set(rowOf);
      rowOf = grown;
    }
    const seen = rowOf[key];
    if (seen !== -1) {
      const id = String(key);
      const lines = duplicates.get(id) ?? [lineOf[seen]];
      lines.push(line);
      duplicates.set(id, lines);
      duplicatedRows.add(seen);
      continue;
    }
    rowOf[key] = codes.length;
    lineOf.push(line);
    if (vs === -1) { codes.push(-1); continue; }
    let h = 0x811c9dc5 | 0;
    for (let k = vs; k < ve; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
    h ^= ve - vs;
    const mask = table.length - 1;
    let slot = h & mask;
    let code = -1;
    for (;;) {
      const c = table[slot] - 1;
      if (c === -1) break;
      if (hashes[c] === h) {
        const d = distinct[c];
        if (d.length === ve - vs && text.startsWith(d, vs)) { code = c; break; }
      }
      slot = (slot + 1) & mask;
    }
    if (code === -1) {
      code = distinct.length;
      distinct.push(text.slice(vs, ve));
      hashes.push(h);
      table[slot] = code + 1;
      if (distinct.length * 2 > table.length) {
        // Grow and re-insert.
        table = new Int32Array(table.length * 4);
        const m = table.length - 1;
        for (let c = 0; c < distinct.length; c++) {
          let sl = hashes[c] & m;
          while (table[sl] !== 0) sl = (sl + 1) & m;
          table[sl] = c + 1;
        }
      }
    }
    codes.push(code);
  }

  const values: RowValues = new Array(set.n);
  const unmatchedIds: string[] = [];
  let unmatched = 0, ambiguous = 0;
  let firstUnmatchedLine = 0;
  const nums = set.idNumbers;
  const ids = nums ? undefined : set.ids!;
  for (let i = 0; i < set.n; i++) {
    let k: number | undefined;
    let id: string | undefined;
    if (nums) {
      const v = nums[i];
      k = v >= 0 && v < rowOf.length && rowOf[v] !== -1 ? rowOf[v] : undefined;
    } else {
      const raw = ids![i];
      id = raw === undefined ? '' : raw.trim();
      let v = canonicalInt(id);
      // "1.0" meets "1" (the general join's canonical form), other text meets no integer key.
      if (v < 0 && id !== '') v = canonicalInt(canonical(id));
      k = v >= 0 && v < rowOf.length && rowOf[v] !== -1 ? rowOf[v] : undefined;
    }
    if (k !== undefined && duplicatedRows.has(k)) { ambiguous++; continue; }
    const code = k === undefined ? -1 : codes[k];
    if (code < 0) {
      unmatched++;
      if (unmatchedIds.length < NAMED_IDS) unmatchedIds.push(id ?? String(nums![i]));
      if (!firstUnmatchedLine) firstUnmatchedLine = set.lines[i];
      continue;
    }
    values[i] = distinct[code];
  }
  return { values, unmatched, unmatchedIds, ambiguous, problems: joinProblems(dataPath, unmatched, unmatchedIds, firstUnmatchedLine, duplicates, ambiguous, []) };
}

/** The value of a canonical integer ID ("0", "17": no sign, no leading zero, up to 15 digits), else -1. */
function canonicalInt(id: string): number {
  const n = id.length;
  if (n === 0 || n > 15 || (n > 1 && id.charCodeAt(0) === 48)) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** ID -> data row, with canonical integer IDs as number keys (much faster to hash than strings). */
class IdIndex {
  private num = new Map<number, number>();
  private text = new Map<string, number>();
  private keys: string[] = [];

  get(id: string): number | undefined {
    const v = canonicalInt(id);
    return v >= 0 ? this.num.get(v) : this.text.get(id);
  }

  set(id: string, row: number): void {
    const v = canonicalInt(id);
    if (v >= 0) this.num.set(v, row);
    else this.text.set(id, row);
    this.keys[row] = id;
  }

  /** Canonical number text -> row, for IDs written differently on the two sides ("1.0", "1"). */
  canonicalIndex(): Map<string, number> {
    const out = new Map<string, number>();
    for (let k = 0; k < this.keys.length; k++) {
      const c = canonical(this.keys[k]);
      if (!out.has(c)) out.set(c, k);
    }
    return out;
  }
}

/** The header of a data file (its first record), or undefined when it cannot be read. */
export function dataColumnNames(dataPath: string, io: CompanionReader): string[] | undefined {
  const text = io.readText(dataPath);
  if (text === undefined) return undefined;
  let header: string[] = [];
  forEachCsvRecord(text.slice(0, 1 << 16), /\.tsv$/i.test(dataPath) ? '\t' : ',', (rec) => {
    header = rec.fields;
    return false;
  });
  return header.filter((h) => h.trim() !== '');
}
