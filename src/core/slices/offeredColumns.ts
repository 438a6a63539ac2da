// Which columns the report's Group by and Cluster by offer (issue 28, point 12): not the columns the
// set was read from (its score, label, prediction, confidence, correctness or ID: grouping by them
// says nothing new, clustering by an ID is no clustering) and not free text (a distinct text in
// nearly every row: a group or a cluster per row). Judged on the first scored rows only: the lists
// are made for every report, and a million-row file is not read again for them. A column left out
// can still be asked for by name (--group-by, --cluster).
import type { PredictionSet } from '../types';
import { sourceOf, type CompanionReader, type FileInput } from '../formats/context';
import { forEachCsvRecord, forEachCsvRecordIn, sniffDelimiter } from '../formats/csv';
import { forEachJsonRecord } from '../formats/jsonl';
import { DETECT_HEAD_BYTES } from '../formats/detect';
import { fieldAt, findColumn, isJsonInput, isZipInput, type RowValues } from './columnValues';

/** Scored rows read to judge the file's columns. */
const SAMPLE_ROWS = 2000;
/** A text column with at least this many values, nearly all distinct, is free text (or an ID). */
const MIN_VALUES = 20;
const DISTINCT_SHARE = 0.9;
/** A mean length longer than a group's name: questions, answers, passages. */
const LONG_TEXT = 40;

/** The listed columns that are worth offering, in their order. */
export function offeredColumns(
  names: readonly string[], input: FileInput | undefined, set: PredictionSet, lineOffset = 0,
  given?: Readonly<Record<string, (string | undefined)[]>>,
): string[] {
  const sample = sampleColumns(names, input, set, lineOffset);
  // A reader without text to read again (a typed Parquet table) gives its first rows' values.
  if (!input && given) for (const n of names) if (!sample.has(n) && given[n]) sample.set(n, given[n].slice(0, Math.min(set.n, SAMPLE_ROWS)));
  return names.filter((name) => {
    const values = sample.get(name);
    return !values || !(holdsSetFigures(values, set) || isFreeText(values));
  });
}

/**
 * A data file's columns (as dataColumnNames reads them) minus its free text, judged on the rows in
 * its first 64 KB; undefined when the file cannot be read.
 */
export function offeredDataColumns(dataPath: string, io: CompanionReader): string[] | undefined {
  const text = io.readText(dataPath);
  if (text === undefined) return undefined;
  const head = text.slice(0, 1 << 16);
  const rows: string[][] = [];
  let header: string[] | undefined;
  forEachCsvRecord(head, /\.tsv$/i.test(dataPath) ? '\t' : ',', (rec) => {
    if (!header) header = rec.fields;
    else rows.push(rec.fields);
    return rows.length < SAMPLE_ROWS;
  });
  if (!header) return [];
  // The slice may cut its last record short.
  if (text.length > head.length) rows.pop();
  return header.filter((h, k) => h.trim() !== '' && !isFreeText(rows.map((r) => r[k])));
}

/** Nearly every value a different text (numbers are never free text: they group by quantiles). */
export function isFreeText(values: RowValues): boolean {
  const present = values.filter((v): v is string => v !== undefined && v.trim() !== '');
  if (!present.length || present.every((v) => Number.isFinite(Number(v.trim())))) return false;
  const distinct = new Set(present).size >= DISTINCT_SHARE * present.length;
  // Texts of several lines are free text; so are distinct texts of a sentence's length on average
  // (as roles.ts reads a text column), however few rows there are. Long names that repeat are groups.
  if (present.some((v) => v.includes('\n'))) return true;
  if (distinct && present.reduce((s, v) => s + v.length, 0) / present.length > LONG_TEXT) return true;
  return present.length >= MIN_VALUES && distinct;
}

/**
 * Whether a column (its values for scored rows 0..k-1) holds the set's own figures: its score,
 * label, prediction (class names for multiclass), confidence, correctness or ID; a binary label
 * written as two words ("yes" / "no") counts too.
 */
export function holdsSetFigures(values: RowValues, set: PredictionSet): boolean {
  const k = Math.min(values.length, set.n);
  let present = 0;
  for (let i = 0; i < k; i++) if (values[i] !== undefined && values[i]!.trim() !== '') present++;
  if (present === 0) return false;
  const same = (a: ArrayLike<number>) => {
    for (let i = 0; i < k; i++) {
      const v = values[i];
      if (v === undefined || v.trim() === '') continue;
      const x = Number(v.trim());
      if (!(Math.abs(x - a[i]) <= 1e-9 * Math.max(1, Math.abs(a[i])))) return false;
    }
    return true;
  };
  const named = (text: (i: number) => string | undefined) => {
    for (let i = 0; i < k; i++) {
      const v = values[i];
      if (v !== undefined && v.trim() !== '' && v.trim() !== text(i)) return false;
    }
    return true;
  };
  const arrays: ArrayLike<number>[] = [];
  if (set.kind === 'binary') arrays.push(set.score, set.label);
  else if (set.kind === 'confidence') arrays.push(set.confidence, set.correct);
  else if (set.kind === 'probability') arrays.push(set.predProb, set.goldProb);
  else if (set.kind === 'multiclass') {
    // The gold or predicted class as its index (lm-eval's target: 3 for "D"), and the correctness (acc).
    const right = new Uint8Array(k);
    for (let i = 0; i < k; i++) right[i] = set.gold[i] === set.pred[i] ? 1 : 0;
    arrays.push(set.gold, set.pred, right);
  }
  if (set.idNumbers) arrays.push(set.idNumbers);
  if (arrays.some(same)) return true;
  if (set.ids && named((i) => set.ids![i])) return true;
  if (set.kind === 'multiclass' && (named((i) => set.classes[set.gold[i]]) || named((i) => set.classes[set.pred[i]]))) return true;
  if (set.kind === 'binary') return twoWordsFor(values, set.label, k);
  if (set.kind === 'confidence') return twoWordsFor(values, set.correct, k);
  return false;
}

const countPresent = (values: RowValues) => values.reduce((n, v) => (v !== undefined && v.trim() !== '' ? n + 1 : n), 0);

/**
 * Two texts, each always beside the same one of two 0/1 values, over enough rows not to be chance:
 * the label (or correctness) in words.
 */
function twoWordsFor(values: RowValues, labels: ArrayLike<number>, k: number): boolean {
  const seen = new Map<string, number>();
  for (let i = 0; i < k; i++) {
    const v = values[i]?.trim();
    if (!v) continue;
    const had = seen.get(v);
    if (had === undefined) seen.set(v, labels[i]);
    else if (had !== labels[i]) return false;
    if (seen.size > 2) return false;
  }
  return seen.size === 2 && new Set(seen.values()).size === 2 && countPresent(values) >= MIN_VALUES;
}

/** Each named column's values for the first scored rows (index i: scored row i). */
function sampleColumns(names: readonly string[], input: FileInput | undefined, set: PredictionSet, lineOffset: number): Map<string, RowValues> {
  const k = Math.min(set.n, SAMPLE_ROWS);
  const out = new Map<string, RowValues>();
  const texts = 'texts' in set ? set.texts : undefined;
  const rest: string[] = [];
  for (const name of names) {
    const f = texts ? findColumn(texts.fields, name) : -1;
    if (texts && f >= 0) out.set(name, texts.values.slice(0, k).map((row) => row[f]));
    else rest.push(name);
  }
  if (!input || !rest.length || k === 0 || isZipInput(input)) return out;
  // Scored rows by line (lines rise through the file), and where reading can stop.
  const row = new Map<number, number>();
  let last = 0;
  for (let i = 0; i < k; i++) {
    const line = set.lines[i] + lineOffset;
    row.set(line, i);
    if (line > last) last = line;
  }
  const columns = rest.map(() => new Array<string | undefined>(k));
  if (isJsonInput(input)) {
    forEachJsonRecord(sourceOf(input), (value, span) => {
      if (span.line > last) return false;
      const i = row.get(span.line);
      if (i === undefined) return true;
      rest.forEach((name, c) => {
        const at = fieldAt(value, name);
        const v = at.found ? at.value : undefined;
        columns[c][i] = v === undefined || v === null ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v);
      });
      return true;
    });
  } else {
    const head = input.givenText ?? new TextDecoder().decode(input.bytes.subarray(0, DETECT_HEAD_BYTES));
    let at: number[] | null = null;
    forEachCsvRecordIn(sourceOf(input), sniffDelimiter(head.replace(/^\uFEFF/, '')), (rec) => {
      if (!at) {
        at = rest.map((name) => findColumn(rec.fields, name));
        return true;
      }
      if (rec.line > last) return false;
      const i = row.get(rec.line);
      if (i !== undefined) at.forEach((col, c) => { if (col >= 0 && col < rec.fields.length) columns[c][i] = rec.fields[col]; });
      return true;
    });
  }
  rest.forEach((name, c) => out.set(name, columns[c]));
  return out;
}
