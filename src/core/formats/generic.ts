// Any table of predictions that no specific format claims: CSV, TSV (delimiter sniffed), JSON Lines
// or a JSON array of records. Columns are found by common names (or options.mapping), and the kind
// follows from which ones are there:
//   score + label (0/1)         -> binary
//   confidence + correct        -> confidence
//   pred + gold                 -> multiclass (classes = sorted union seen; confidence when present)
// A pred column holding probabilities (numbers in [0, 1], not all whole) with a 0/1 gold is read as
// a binary score. Binary and confidence CSVs without an ID column go through the byte scanner.
import type { ColumnMapping, ParseResult, PredictionSet, RowProblem } from '../types';
import { fileInput, sourceOf, type FileInput, type FormatContext } from './context';
import { forEachCsvRecordIn, parseCsv, sniffDelimiter, stripBom, type CsvRecord } from './csv';
import { firstNonSpaceByte, forEachJsonRecord, pickFields, readJsonRecords } from './jsonl';
import { detach, NO_PROGRESS } from './progress';
import { binaryValues, isLayoutColumn, type Layout, type NamedColumn } from './columnLayouts';
import { columnRoles, isTextName, mapArg, mayHaveRole, namesLookLikePredictions, namesLookLikeScores, rolesMessage, type ColumnRoles } from './roles';
import { parseBinaryLabel, parseClassName, parseProbability, readNumberText, showValue } from './numbers';
import {
  bomLength, capSinkProblems, finishProblems, newRowSink, nothingScoredMessage, readSimpleHeader,
  decimalFromBytes, defineLazyIds, scanNumericCsv, TextIdLog, type NumericLayout, type RowHandler, type RowSink,
} from './numericCsv';
import { FALSE, FlatJsonLines, NUMBER, STRING, TRUE } from './jsonlScan';
import { MAX_PROBLEMS, trimProblems } from '../problemCap';
import { clipText } from '../samples/toParse';

export type Role = keyof ColumnMapping; // score | label | confidence | correct | pred | gold | id

/** Column names recognised per role, lower case, in order of preference. */
export const ROLE_NAMES: Readonly<Record<Exclude<Role, 'gold'>, readonly string[]>> = {
  score: ['score', 'prob', 'proba', 'probability', 'risk_score', 'p', 'p_yes', 'y_score', 'y_prob', 'y_proba'],
  confidence: ['confidence', 'conf'],
  // "label" and "gold" are one role: the true class (0/1 for binary files).
  label: ['label', 'gold', 'target', 'y', 'y_true', 'gold_label', 'true_label', 'actual', 'true', 'truth', 'y_actual'],
  pred: ['pred', 'prediction', 'predicted', 'y_pred', 'pred_label', 'predicted_label', 'predicted_class'],
  correct: ['correct', 'is_correct', 'acc', 'exact_match'],
  // '' is pandas' unnamed index column (to_csv with index=True).
  id: ['id', 'doc_id', 'idx', 'index', ''],
};

/** Which column (by name as written in the file) plays each role. */
export type ResolvedColumns = Partial<Record<Exclude<Role, 'gold'>, string>>;

/**
 * Match column names to roles: options.mapping first (exact name, else case-insensitive), then the
 * common names. `mapping.gold` and `mapping.label` both name the true-class column. A name given in
 * the mapping that the file lacks is returned in `unknown`.
 */
export function resolveColumns(names: string[], mapping?: ColumnMapping): { columns: ResolvedColumns; unknown: string[] } {
  const columns: ResolvedColumns = {};
  const unknown: string[] = [];
  const taken = new Set<string>();
  const find = (want: string) => names.find((n) => n === want) ?? names.find((n) => n.trim().toLowerCase() === want.trim().toLowerCase());
  if (mapping) {
    for (const [role, want] of Object.entries(mapping) as [Role, string | undefined][]) {
      if (want === undefined) continue;
      const found = find(want);
      if (found === undefined) { unknown.push(want); continue; }
      columns[role === 'gold' ? 'label' : role] = found;
      taken.add(found);
    }
  }
  for (const role of Object.keys(ROLE_NAMES) as (keyof typeof ROLE_NAMES)[]) {
    if (columns[role] !== undefined) continue;
    for (const want of ROLE_NAMES[role]) {
      const found = names.find((n) => !taken.has(n) && n.trim().toLowerCase() === want);
      if (found !== undefined) { columns[role] = found; taken.add(found); break; }
    }
  }
  // The empty name counts as an ID only in the first column (a pandas index).
  if (columns.id === '' && names[0] !== '') delete columns.id;
  return { columns, unknown };
}

type Plan =
  | BinaryPlan
  | { kind: 'confidence'; value: string; target: string; id?: string }
  | { kind: 'multiclass'; gold: string; pred?: string; confidence?: string; id?: string; probCols?: NamedColumn[]; codes?: Record<string, string> }
  | ScoresPlan;

/**
 * score + label. `labels` reads the gold (and `pred`) through the classes of a two-class table
 * (value, lower case -> 0/1); `pred` is a decision column the user named, which then decides
 * accuracy and the confusion figures; `slow` keeps the byte scanners off (they read 0/1 literally,
 * and the labels say otherwise somewhere).
 */
interface BinaryPlan { kind: 'binary'; value: string; target: string; id?: string; labels?: Record<string, 0 | 1>; pred?: string; slow?: boolean; check?: DecisionCheck }

/**
 * A prediction column the table has (found by its name: pred, y_pred, Pred_<model>) that the user did
 * not name: value >= threshold still decides, as documented, but a user whose file has y_pred expects
 * accuracy_score(y_true, y_pred), so where the column disagrees a note says so (checkNote). `hint` is
 * the --map that would make it decide.
 */
interface DecisionCheck { column: string; threshold: number; hint: string }

/** Per-sample numbers without a gold label (roles.ts `scores`): each metric column's mean is a figure. */
interface ScoresPlan { kind: 'scores'; metrics: string[]; texts: string[]; id?: string }

/** Why a table has no plan: the sentences, once a --map among `hints` has been tried (parseGeneric). */
interface Unplanned { hints: string[]; message: (hint?: string) => string }

/** A plan, with the models of a several-models table (and the one the plan scores). */
interface Chosen { plan: Plan | Unplanned; models?: string[]; model?: string; notes?: RowProblem[] }

const unplanned = (message: string): Unplanned => ({ hints: [], message: () => message });
const rolesUnplanned = (roles: ColumnRoles, names: string[]): Unplanned => ({ hints: roles.mapHints ?? [], message: (hint) => rolesMessage(roles, names, hint) });
const isUnplanned = (plan: Plan | Unplanned): plan is Unplanned => 'hints' in plan;

/**
 * planFor, after the column roles of roles.ts (names and content together): per-class probability
 * columns (two classes are binary), a positive-class probability column, several models side by
 * side, the gold found by name or content, per-sample scores without a gold label. A mapping of
 * the value columns turns the layouts off; a mapped prediction of a binary table decides accuracy.
 */
function choosePlan(names: string[], columns: ResolvedColumns, sample: Sample, ctx: FormatContext): Chosen {
  const m = ctx.options.mapping;
  const roles = columnRoles(names, sample, { mapping: m });
  if (roles.notPredictions && !m) return { plan: unplanned(roles.notPredictions) };
  const notes: RowProblem[] = roles.notes.map((message) => ({ line: 1, severity: 'info', code: 'unscorable', message }));
  const withNotes = (chosen: Chosen): Chosen => (notes.length && !isUnplanned(chosen.plan) ? { ...chosen, notes: [...(chosen.notes ?? []), ...notes] } : chosen);
  if (roles.scores) return withNotes({ plan: scoresPlan(roles, columns) });
  columns = withRoles(columns, roles);
  // Two classes are binary: a mapped prediction of them still leaves the probabilities the score.
  const twoClasses = roles.classProbs?.length === 2 && !!m && m.pred !== undefined && m.score === undefined && m.confidence === undefined;
  const mappedValues = !!m && (m.score !== undefined || m.pred !== undefined || m.confidence !== undefined) && !twoClasses;
  const layout: Layout | undefined = mappedValues ? undefined
    : roles.classProbs ? { kind: 'classProbs', classes: roles.classProbs }
      : roles.models?.length ? { kind: 'models', models: roles.models }
        : undefined;
  const id = columns.id;
  if (layout?.kind === 'classProbs' && columns.label !== undefined) {
    const gold = sample(columns.label).filter((v) => !isBlankValue(v)).map((v) => String(v).trim().toLowerCase());
    const classes = layout.classes.map((c) => c.name.toLowerCase());
    const codes = roles.classCodes;
    if (!gold.every((g) => classes.includes(g) || (codes && g in codes))) return { plan: rolesUnplanned(roles, names) };
    if (layout.classes.length === 2) {
      const plan = twoClassPlan(layout.classes, columns.label, codes, id, m?.pred !== undefined ? columns.pred : undefined);
      return withNotes({ plan: withCheck(plan, columns.pred, `--map pred=${mapArg(columns.pred ?? '')}`, sample, ctx) });
    }
    return withNotes({ plan: { kind: 'multiclass', gold: columns.label, pred: columns.pred, probCols: layout.classes, id, codes } });
  }
  if (layout?.kind === 'models' && columns.label !== undefined) {
    const models = layout.models.map((x) => x.name);
    const wanted = ctx.options.model;
    const found = wanted === undefined ? undefined : layout.models.find((x) => x.name.toLowerCase() === wanted.trim().toLowerCase());
    const model = found ?? layout.models[0];
    const note: RowProblem[] = wanted !== undefined && !found
      ? [{ line: 1, severity: 'warning', code: 'unscorable', message: `The file has no model "${wanted}"; its models are ${models.join(', ')}. Scoring ${model.name}.` }]
      : [];
    const label = columns.label;
    if (model.prob !== undefined && binaryValues(sample(label))) {
      // With the score named too: a mapped pred alone turns the models layout off (mappedValues).
      const hint = `--map score=${mapArg(model.prob)} --map pred=${mapArg(model.pred ?? '')}`;
      const plan = withCheck({ kind: 'binary', value: model.prob, target: label, id }, model.pred, hint, sample, ctx);
      return withNotes({ plan, models, model: model.name, notes: note });
    }
    if (model.pred !== undefined) return withNotes({ plan: { kind: 'multiclass', gold: label, pred: model.pred, confidence: model.prob, id }, models, model: model.name, notes: note });
  }
  let plan = planFor(columns, sample, m);
  if (typeof plan === 'object' && plan.kind === 'binary') plan = withCheck(plan, columns.pred, `--map pred=${mapArg(columns.pred ?? '')}`, sample, ctx);
  return withNotes({ plan: plan === undefined ? rolesUnplanned(roles, names) : typeof plan === 'string' ? unplanned(plan) : plan });
}

/**
 * The plan with a check of `column` (a prediction column found by name) against value >= threshold,
 * when the column could decide but does not: the user named no pred (then a named one decides
 * already, or they chose otherwise), the threshold is known now (--threshold best picks it after
 * the parse), and the sample's values read as the two classes, not as probabilities or other labels.
 */
function withCheck(plan: BinaryPlan, column: string | undefined, hint: string, sample: Sample, ctx: FormatContext): BinaryPlan {
  if (column === undefined || plan.pred !== undefined || column === plan.value || column === plan.target) return plan;
  if (ctx.options.mapping?.pred !== undefined || ctx.options.bestThreshold) return plan;
  const values = sample(column).filter((v) => !isBlankValue(v));
  if (!values.length || looksLikeProbabilities(values) || values.some((v) => decisionOf(v, plan.labels) === UNREAD)) return plan;
  return { ...plan, check: { column, threshold: ctx.options.threshold ?? 0.5, hint } };
}

/** A row's value of a checked prediction column that is not one of the two classes. */
const UNREAD = 2;

/** A checked prediction column's value: 0/1 as the gold is read (binaryLabel), else UNREAD (never a problem: the column only informs). */
function decisionOf(raw: unknown, labels: Record<string, 0 | 1> | undefined): number {
  if (isBlankValue(raw)) return UNREAD;
  return binaryLabel(raw, 1, undefined, '', [], labels) ?? UNREAD;
}

/**
 * The note of a check (DecisionCheck): on how many rows the column disagrees with score >= threshold,
 * the accuracy it would give, and the --map that makes it decide; undefined where it agrees on every
 * row it reads. `decision` holds each scored row's 0, 1 or UNREAD.
 */
function checkNote(check: DecisionCheck, value: string, score: ArrayLike<number>, label: ArrayLike<number>, decision: ArrayLike<number>): RowProblem | undefined {
  const n = score.length;
  let read = 0, differ = 0, right = 0;
  for (let i = 0; i < n; i++) {
    const d = decision[i];
    if (d === UNREAD) continue;
    read++;
    if (d !== (score[i] >= check.threshold ? 1 : 0)) differ++;
    if (d === label[i]) right++;
  }
  if (!differ) return undefined;
  const col = quote(check.column);
  const of = read === n ? `${differ} of ${n} rows` : `${differ} of the ${read} rows where it holds one of the two classes (${n} scored)`;
  return {
    line: 1, severity: 'info', code: 'reported-mismatch',
    message: `${col} looks like the file's own prediction and disagrees with ${quote(value)} >= ${check.threshold} on ${of}: accuracy and the rates at the threshold come from ${quote(value)} >= ${check.threshold}; by ${col}, accuracy would be ${(right / read).toFixed(4)}. To let ${col} decide, write ${check.hint} (in VS Code: Map Columns…).`,
  };
}

/**
 * Two classes are binary (docs/metrics.md): score = P(the class coded 1), where a prediction column
 * that follows the argmax says which code is which class (`codes`), else P(the second class in
 * sorted order, case ignored). The gold (and a mapped prediction) is read through those classes.
 */
function twoClassPlan(classes: NamedColumn[], gold: string, codes: Record<string, string> | undefined, id: string | undefined, pred: string | undefined): BinaryPlan {
  const lower = classes.map((c) => c.name.toLowerCase());
  const oneCode = codes && Object.keys(codes).find((k) => binaryLabel(k, 1, undefined, '', []) === 1);
  let positive: number;
  if (oneCode !== undefined) positive = lower.indexOf(codes![oneCode].toLowerCase());
  else positive = lower.indexOf(sortClasses(lower.slice())[1]);
  if (positive < 0) positive = 1;
  const labels: Record<string, 0 | 1> = {};
  lower.forEach((c, k) => { labels[c] = k === positive ? 1 : 0; });
  for (const [code, name] of Object.entries(codes ?? {})) labels[code] = name.toLowerCase() === lower[positive] ? 1 : 0;
  // The byte scanners read 0/1 (and JSON's true/false) as they are: only where the labels agree.
  const slow = Object.entries(labels).some(([k, v]) => { const literal = binaryLabel(k, 1, undefined, '', []); return literal !== undefined && literal !== v; });
  return { kind: 'binary', value: classes[positive].column, target: gold, id, labels, ...(pred !== undefined ? { pred } : {}), ...(slow ? { slow } : {}) };
}

/** The scores plan of roles.ts's metric columns, with the table's text columns for the stepper and search. */
function scoresPlan(roles: ColumnRoles, columns: ResolvedColumns): ScoresPlan {
  const texts = roles.columns.filter((c) => c.role === 'text').map((c) => c.column).slice(0, MAX_SCORE_TEXTS);
  const id = roles.mapping.id ?? columns.id;
  return { kind: 'scores', metrics: roles.scores!, texts, ...(id !== undefined ? { id } : {}) };
}

/** Text fields kept per row of a scores table (the question, the answer, the reference, ...). */
const MAX_SCORE_TEXTS = 6;

/**
 * The columns found by name (resolveColumns), completed and corrected by the roles: the gold found
 * by name patterns (actual_*, *_true) or content, a prediction or score found so, and never a
 * column the roles call a prediction as the gold. The user's mapping is already in both.
 */
function withRoles(columns: ResolvedColumns, roles: ColumnRoles): ResolvedColumns {
  const out = { ...columns };
  const roleOf = (name: string | undefined) => (name === undefined ? undefined : roles.columns.find((c) => c.column === name)?.role);
  const r = roles.mapping;
  if (r.gold !== undefined && (out.label === undefined || roleOf(out.label) !== 'gold')) out.label = r.gold;
  if (out.label !== undefined && ['pred', 'modelPred', 'classProb', 'modelScore', 'score'].includes(roleOf(out.label) ?? '')) delete out.label;
  if (r.pred !== undefined && out.pred === undefined && r.pred !== out.label) out.pred = r.pred;
  if (r.score !== undefined && out.score === undefined && r.score !== out.label) out.score = r.score;
  if (r.confidence !== undefined && out.confidence === undefined) out.confidence = r.confidence;
  if (r.id !== undefined && out.id === undefined) out.id = r.id;
  return out;
}

/** Values of a few leading records per column name, to tell 0/1 labels from class names. */
type Sample = (name: string) => unknown[];

/**
 * Pick the kind from the columns found (and a sample of values); a sentence when the user's mapping
 * cannot be read as asked; undefined when no kind fits (the roles then say why). The user's own
 * mapping (`given`) is honoured as written: a mapped score needs a 0/1 label, and a mapped prediction
 * of a binary table decides accuracy.
 */
function planFor(columns: ResolvedColumns, sample: Sample, given: ColumnMapping = {}): Plan | string | undefined {
  const { score, label, confidence, correct, pred, id } = columns;
  const binaryLabels = (name: string) => {
    const scratch: RowProblem[] = [];
    return sample(name).every((v) => isBlankValue(v) || binaryLabel(v, 1, undefined, name, scratch) !== undefined);
  };
  if (given.score !== undefined && score !== undefined && label !== undefined && !binaryLabels(label)) {
    const values = [...new Set(sample(label).filter((v) => !isBlankValue(v)).map((v) => String(v).trim()))];
    return `The column mapping makes ${quote(label)} the gold label and ${quote(score)} the score, but ${quote(label)} holds ${values.slice(0, 4).map((v) => JSON.stringify(v)).join(', ')}${values.length > 4 ? ', ...' : ''}, not 0/1 labels: a score is scored against a 0/1 label (a predicted class is compared with other labels: --map pred=COLUMN).`;
  }
  if (score !== undefined && label !== undefined && (pred === undefined || binaryLabels(label))) {
    const decides = given.pred !== undefined && pred !== undefined && pred !== score && !looksLikeProbabilities(sample(pred));
    return { kind: 'binary', value: score, target: label, id, ...(decides ? { pred } : {}) };
  }
  if (confidence !== undefined && correct !== undefined) return { kind: 'confidence', value: confidence, target: correct, id };
  if (pred !== undefined && label !== undefined) {
    if (looksLikeProbabilities(sample(pred)) && binaryLabels(label)) return { kind: 'binary', value: pred, target: label, id };
    return { kind: 'multiclass', gold: label, pred, confidence, id };
  }
  return undefined;
}

function quote(name: string): string {
  return name === '' ? 'the unnamed first column' : JSON.stringify(name);
}

function isBlankValue(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/** Numbers in [0, 1], not all whole: a probability column, not class indices. */
function looksLikeProbabilities(values: unknown[]): boolean {
  let fractional = false;
  let any = false;
  for (const v of values) {
    if (isBlankValue(v)) continue;
    const t = typeof v === 'string' ? readNumberText(v) : undefined;
    const x = typeof v === 'number' ? v : t?.kind === 'number' ? t.value : undefined;
    if (x === undefined || !(x >= 0 && x <= 1)) return false;
    any = true;
    if (!Number.isInteger(x)) fractional = true;
  }
  return any && fractional;
}

// ---------------------------------------------------------------------------------------------

export interface GenericParseOptions {
  /**
   * 'auto' (the byte scanner where it applies), 'general' (the RFC 4180 reader into the same row
   * handler; for tests) or 'rows' (the row-at-a-time builder that JSON and multiclass tables use,
   * for CSV too: the reference the scanner's results are checked against in tests).
   */
  path?: 'auto' | 'general' | 'rows';
}

/**
 * Parse a CSV, TSV, JSON Lines or JSON-array file of predictions. A table without a plan is fatal
 * with the roles' sentences; a --map among their hints is named only when scoring the file with it
 * scored at least one row (each is tried in turn), else the sentences say what the file holds and
 * what Eval Lens would need.
 */
export function parseGeneric(input: FileInput, ctx: FormatContext, options: GenericParseOptions = {}): ParseResult {
  const result = parseTable(input, ctx, options);
  const why = UNPLANNED.get(result);
  if (!why) return result;
  // A large file is tried on its head (whole lines): a mapping that scores rows there scores the file.
  const trial = trialInput(input);
  const hint = workingHint(why.hints, ctx.options.mapping, (mapping) => parseTable(trial, { ...ctx, progress: undefined, options: { ...ctx.options, mapping } }, options));
  const message = why.message(hint);
  return { ...result, fatal: message, problems: result.problems.map((p, i) => (i === 0 && p.message === result.fatal ? { ...p, message } : p)) };
}

/**
 * The first of `hints` (--map arguments) with which `parse` scores at least one row, merged over the
 * user's own mapping; undefined when none does.
 */
export function workingHint(hints: readonly string[], base: ColumnMapping | undefined, parse: (mapping: ColumnMapping) => ParseResult): string | undefined {
  for (const hint of hints.slice(0, MAX_HINT_TRIALS)) {
    const mapping: ColumnMapping = { ...base, ...hintMapping(hint) };
    const tried = parse(mapping);
    if (!tried.fatal && tried.set && tried.set.n > 0 && tried.set.kind !== 'scores') return hint;
  }
  return undefined;
}

/** Above this size a hint is tried on the file's first TRIAL_BYTES, cut after a line. */
const TRIAL_BYTES = 1 << 20;

/** The input a hint is tried on: the file, or the whole lines of its head when it is large (not a JSON document). */
function trialInput(input: FileInput): FileInput {
  if (input.givenText !== undefined || input.bytes.length <= 2 * TRIAL_BYTES) return input;
  const bytes = input.bytes;
  const first = firstNonSpaceByte(bytes, bomLength(bytes));
  if (first >= 0 && bytes[first] === 0x5b) return input; // a JSON array: no head of it parses
  const cut = bytes.lastIndexOf(10, TRIAL_BYTES);
  return cut > 0 ? fileInput(input.path, bytes.subarray(0, cut + 1)) : input;
}

/** How many hints are tried at most (each one parses the file). */
const MAX_HINT_TRIALS = 6;

/** The fields of a --map hint ("--map label=churned --map score='p 1'"), unquoted. */
export function hintMapping(hint: string): ColumnMapping {
  const out: ColumnMapping = {};
  for (const m of hint.matchAll(/--map (\w+)=('(?:[^']|'\\'')*'|\S+)/g)) {
    const value = m[2].startsWith("'") ? m[2].slice(1, -1).replace(/'\\''/g, "'") : m[2];
    out[m[1] as keyof ColumnMapping] = value;
  }
  return out;
}

/** Results that failed for want of a plan, with the hints to try and the sentences to write. */
const UNPLANNED = new WeakMap<ParseResult, Unplanned>();

function unplannedResult(why: Unplanned, extra: RowProblem[] = []): ParseResult {
  const result = fatal(why.message(undefined), 'unscorable', extra);
  UNPLANNED.set(result, why);
  return result;
}

function parseTable(input: FileInput, ctx: FormatContext, options: GenericParseOptions): ParseResult {
  if (isJsonFile(input.path, input.bytes)) return parseJsonTable(input, ctx, options);
  return parseDelimited(input, ctx, options.path ?? 'auto');
}

function isJsonFile(path: string, bytes: Uint8Array): boolean {
  if (/\.(jsonl|ndjson|json)$/i.test(path)) return true;
  if (/\.(csv|tsv|tab)$/i.test(path)) return false;
  for (let i = bomLength(bytes); i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    return c === 123 || c === 91; // { or [
  }
  return false;
}

function fatal(message: string, code: 'empty-file' | 'unscorable', extra: RowProblem[] = []): ParseResult {
  return {
    format: 'generic', set: null, skipped: 0, unlabeled: 0, fatal: message,
    problems: [{ line: 1, column: 1, severity: 'error', code, message }, ...extra],
  };
}

/** How many leading records decide the kind. */
const SAMPLE_ROWS = 200;
const SAMPLE_BYTES = 64 * 1024;

function delimiterFor(path: string, text: string): string {
  if (/\.(tsv|tab)$/i.test(path)) return '\t';
  return sniffDelimiter(text);
}

/** What a binary or confidence table is read by: its value, target and ID columns. */
export interface ColumnPlan {
  kind: 'binary' | 'confidence';
  value: string;
  target: string;
  id?: string;
  /** The names of the header, in order. */
  names: string[];
}

/**
 * The plan parseDelimited makes from a table's head (`headBytes`: the first SAMPLE_BYTES bytes of
 * the text after any BOM, `complete` when that is all of it), for readers of other containers
 * (Parquet) that read the planned columns themselves. Undefined where parseDelimited would not read
 * the file as one binary or confidence set (multiclass, several models, no plan, a bad mapping).
 */
export function planTableHead(path: string, headBytes: Uint8Array, complete: boolean, ctx: FormatContext): ColumnPlan | undefined {
  const headText = new TextDecoder('utf-8').decode(headBytes);
  if (!headText.trim()) return undefined;
  const delimiter = delimiterFor(path, headText);
  const head = parseCsv(headText, delimiter);
  const sampleRecords = (complete ? head.records : head.records.slice(0, -1)).slice(0, SAMPLE_ROWS);
  const names = head.header;
  const { columns, unknown } = resolveColumns(names, ctx.options.mapping);
  if (unknown.length) return undefined;
  const index = (name: string) => names.indexOf(name);
  const chosen = choosePlan(names, columns, (name) => sampleRecords.map((r) => r.fields[index(name)]), ctx);
  const plan = chosen.plan;
  if (isUnplanned(plan) || (plan.kind !== 'binary' && plan.kind !== 'confidence') || chosen.models || chosen.notes?.length) return undefined;
  // A checked prediction column is a column more than Parquet's direct read takes: the text path reads it.
  if (plan.kind === 'binary' && (plan.pred !== undefined || plan.slow || plan.check)) return undefined;
  return { kind: plan.kind, value: plan.value, target: plan.target, id: plan.id, names };
}

/** The head parseDelimited plans from: SAMPLE_BYTES bytes. */
export const PLAN_HEAD_BYTES = SAMPLE_BYTES;

function parseDelimited(input: FileInput, ctx: FormatContext, path: 'auto' | 'general' | 'rows'): ParseResult {
  const fast = path === 'auto';
  const bytes = input.bytes;
  const start = bomLength(bytes);
  // The head decides header, delimiter and kind without decoding a large file whole.
  const headBytes = bytes.subarray(start, Math.min(bytes.length, start + SAMPLE_BYTES));
  const complete = start + headBytes.length === bytes.length;
  const headText = new TextDecoder('utf-8').decode(headBytes);
  if (!headText.trim()) return fatal('The file is empty.', 'empty-file');
  const delimiter = delimiterFor(input.path, headText);
  const head = parseCsv(headText, delimiter);
  // A cut head may end inside a record: leave the last one out of the sample.
  const sampleRecords = (complete ? head.records : head.records.slice(0, -1)).slice(0, SAMPLE_ROWS);
  const names = head.header;
  const { columns, unknown } = resolveColumns(names, ctx.options.mapping);
  if (unknown.length) {
    return fatal(`The column mapping names ${unknown.map(quote).join(', ')}, which the header (${names.map(quote).join(', ')}) does not have.`, 'unscorable');
  }
  const index = (name: string) => names.indexOf(name);
  const chosen = choosePlan(names, columns, (name) => sampleRecords.map((r) => r.fields[index(name)]), ctx);
  const plan = chosen.plan;
  if (isUnplanned(plan)) {
    if (!Object.keys(columns).filter((r) => r !== 'id').length && looksLikeDataRow(names)) {
      const shown = names.slice(0, 6).join(delimiter === '\t' ? '\t' : ',');
      return fatal(`The file has no header row (its first line, ${JSON.stringify(shown.length > 60 ? `${shown.slice(0, 57)}...` : shown)}, looks like data); a generic table needs a header naming its columns, such as score,label.`, 'unscorable');
    }
    return unplannedResult(plan);
  }

  // Binary and confidence files, with or without an ID column: the byte scanner.
  const idCol = plan.id === undefined ? -1 : index(plan.id);
  const rowAtATime = plan.kind === 'multiclass' || plan.kind === 'scores' || (plan.kind === 'binary' && plan.pred !== undefined);
  if (fast && !rowAtATime && !(plan.kind === 'binary' && plan.slow) && (delimiter === ',' || delimiter === '\t')) {
    const header = readSimpleHeader(bytes, start, delimiter);
    if (header && header.fields.length === names.length && header.fields.every((f, i) => f === names[i])) {
      const layout: NumericLayout = {
        delimiter: delimiter.charCodeAt(0), columns: names.length, valueCol: index(plan.value), targetCol: index(plan.target), idCol, textIds: idCol >= 0,
      };
      const sink = newRowSink(estimateRows(headBytes, bytes.length - header.next), false, idCol >= 0);
      if (scanNumericCsv(bytes, header.next, 2, layout, sink, numericRowHandler(layout, plan), ctx.progress)) {
        const result = finishNumeric(sink, plan, []);
        if (plan.kind === 'binary' && plan.check) checkScanned(result, plan, plan.check, bytes, header.next, names, delimiter);
        return withModels(result, chosen);
      }
    }
  }

  // The general path, one record at a time (the first record is the header, already read), from
  // the text decoded a chunk at a time.
  const source = sourceOf(input);
  const progress = ctx.progress ?? NO_PROGRESS;
  if (rowAtATime || (path === 'rows' && plan.id !== undefined)) {
    const builder = new RowsBuilder(plan);
    let first = true;
    const { problems: csvProblems, fatal: tooLarge } = forEachCsvRecordIn(source, delimiter, (rec) => {
      if (first) { first = false; return; }
      builder.add(csvRow(rec, names));
    }, progress);
    if (tooLarge) return fatal(tooLarge, 'unscorable');
    return withModels(builder.finish(csvProblems), chosen);
  }
  const layout: NumericLayout = {
    delimiter: delimiter.charCodeAt(0), columns: names.length, valueCol: index(plan.value), targetCol: index(plan.target), idCol, textIds: idCol >= 0,
  };
  const sink = newRowSink(1024, false, idCol >= 0);
  // A checked prediction column is read beside each scored row (the byte scanner reads it in a pass of its own).
  const checks: number[] = [];
  const check = plan.kind === 'binary' ? plan.check : undefined;
  const handle = check ? checkingHandler(numericRowHandler(layout, plan), index(check.column), (plan as BinaryPlan).labels, checks) : numericRowHandler(layout, plan);
  let first = true;
  const { problems: csvProblems, fatal: tooLarge } = forEachCsvRecordIn(source, delimiter, (rec) => {
    if (first) { first = false; return; }
    sink.rows++;
    handle(rec, sink);
    if (sink.problems.length > MAX_PROBLEMS) capSinkProblems(sink);
  }, progress);
  if (tooLarge) return fatal(tooLarge, 'unscorable');
  let result: ParseResult;
  if (sink.textIds) result = finishNumeric(sink, plan, csvProblems);
  else {
    sink.problems.unshift(...csvProblems);
    capSinkProblems(sink);
    result = finishNumeric(sink, plan, []);
  }
  if (check && result.set?.kind === 'binary') addCheckNote(result, check, (plan as BinaryPlan).value, checks);
  return withModels(result, chosen);
}

/** A row handler that also reads the checked prediction column of each row `handle` scored. */
function checkingHandler(handle: RowHandler, col: number, labels: Record<string, 0 | 1> | undefined, out: number[]): RowHandler {
  return (rec, sink) => {
    const before = sink.columns.n;
    handle(rec, sink);
    if (sink.columns.n > before) out.push(decisionOf(rec.fields[col], labels));
  };
}

/** The check's note (checkNote), if any, at the head of a binary result's problems. */
function addCheckNote(result: ParseResult, check: DecisionCheck, value: string, decision: ArrayLike<number>): void {
  const set = result.set;
  if (result.fatal || set?.kind !== 'binary' || decision.length !== set.n) return;
  const note = checkNote(check, value, set.score, set.label, decision);
  if (note) result.problems.unshift(note);
}

/**
 * The check of a table the byte scanner read: a second scan of the same bytes takes the prediction
 * column as its value (0/1 parse as numbers; yes/no, class names and the rest go to the row handler),
 * matched to the scored rows by line. Keeping the check out of the first scan leaves its unrolled
 * loops as they are; routing such tables to the row-at-a-time path instead costs ~4x the parse.
 */
function checkScanned(result: ParseResult, plan: BinaryPlan, check: DecisionCheck, bytes: Uint8Array, start: number, names: string[], delimiter: string): void {
  const set = result.set;
  if (result.fatal || set?.kind !== 'binary') return;
  const col = names.indexOf(check.column);
  const layout: NumericLayout = { delimiter: delimiter.charCodeAt(0), columns: names.length, valueCol: col, targetCol: names.indexOf(plan.target), idCol: -1 };
  const sink = newRowSink(set.n + 16, false);
  const handle: RowHandler = (rec, s) => {
    if (rec.fields.length !== names.length) return;
    s.columns.push(decisionOf(rec.fields[col], plan.labels), 0, rec.line);
  };
  if (!scanNumericCsv(bytes, start, 2, layout, sink, handle)) return;
  const got = sink.columns.finish();
  // Scanned as a number, a value other than 0 and 1 (0.7, 0.5) is none of the classes.
  const decision = new Uint8Array(set.n).fill(UNREAD);
  for (let i = 0, j = 0; i < set.n; i++) {
    while (j < sink.columns.n && got.lines[j] < set.lines[i]) j++;
    if (j < sink.columns.n && got.lines[j] === set.lines[i]) { const d = got.value[j]; decision[i] = d === 0 || d === 1 ? d : UNREAD; }
  }
  addCheckNote(result, check, plan.value, decision);
}

/**
 * Rows a table of `size` bytes likely holds, from the lines of its head (a little over, so the
 * columns are seldom grown or cut: each costs a copy of them).
 */
function estimateRows(head: Uint8Array, size: number): number {
  let lines = 0;
  for (let i = 0; i < head.length; i++) if (head[i] === 10) lines++;
  if (lines < 2) return size / 12 + 16;
  return Math.ceil((size / (head.length / lines)) * 1.05) + 16;
}

/** The models of a several-models table on the result, and the plan's notes (the model asked for is missing, which confidence is used). */
function withModels(result: ParseResult, chosen: Chosen): ParseResult {
  if (chosen.notes?.length && !result.fatal) result.problems.unshift(...chosen.notes);
  if (!chosen.models) return result;
  return { ...result, models: chosen.models, model: chosen.model };
}

/** A first line whose fields are mostly numbers is a data row, not a header. */
function looksLikeDataRow(fields: string[]): boolean {
  const numeric = fields.filter((f) => readNumberText(f).kind === 'number').length;
  return numeric > 0 && numeric * 3 >= fields.length;
}

function columnCountProblem(line: number, got: number, expected: number): RowProblem {
  return {
    line, column: 1, severity: 'error', code: 'column-count',
    message: `The row has ${got} field${got === 1 ? '' : 's'} where the header has ${expected}; the row is skipped.`,
  };
}

/** Binary/confidence rows into a RowSink: shared by the scanner's odd rows and the parseCsv path. */
function numericRowHandler(layout: NumericLayout, plan: BinaryPlan | Extract<Plan, { kind: 'confidence' }>): RowHandler {
  const { columns: expected, valueCol, targetCol, idCol } = layout;
  const targetIsLabel = plan.kind === 'binary';
  return (rec, sink) => {
    const { fields, columns } = rec;
    if (fields.length !== expected) {
      sink.problems.push(columnCountProblem(rec.line, fields.length, expected));
      sink.skipped++;
      return;
    }
    const lineOf = (k: number) => rec.fieldLines?.[k] ?? rec.line;
    const value = parseProbability(fields[valueCol], lineOf(valueCol), columns[valueCol], plan.value, sink.problems);
    const target = targetIsLabel
      ? binaryLabel(fields[targetCol], lineOf(targetCol), columns[targetCol], plan.target, sink.problems, plan.labels)
      : parseCorrect(fields[targetCol], lineOf(targetCol), columns[targetCol], plan.target, sink.problems);
    if (value === undefined || target === undefined) {
      sink.skipped++;
      return;
    }
    sink.columns.push(value, target, rec.line);
    if (sink.textIds && idCol >= 0) {
      // As RowsBuilder.addId: trimmed; an empty ID is a warning and the row is still scored.
      const id = fields[idCol].trim();
      const line = lineOf(idCol);
      if (id === '') {
        sink.problems.push({ line, column: columns[idCol], severity: 'warning', code: 'missing-field', message: `${quote(plan.id!)} (the ID) is empty; the row is still scored.` });
      }
      sink.textIds.pushText(id, columns[idCol], line, rec.line);
    }
  };
}

/**
 * A gold label of a generic table: parseBinaryLabel's 0/1 and True/False, and Yes/No in any case
 * (churn and survey tables write actual_churn = Yes): Yes is the positive class. `labels` (a
 * two-class table's classes and codes, lower case) is read first.
 */
function binaryLabel(raw: unknown, line: number, column: number | undefined, field: string, problems: RowProblem[], labels?: Record<string, 0 | 1>): 0 | 1 | undefined {
  if (labels && raw !== undefined && raw !== null && typeof raw !== 'object') {
    const key = String(raw).trim().toLowerCase();
    if (Object.prototype.hasOwnProperty.call(labels, key)) return labels[key];
    if (key !== '') {
      problems.push({ line, column, severity: 'error', code: 'unknown-class', message: `${quote(field)} ${showValue(raw)} is none of the two classes (${Object.keys(labels).join(', ')}); the row is skipped.` });
      return undefined;
    }
  }
  if (typeof raw === 'string') {
    const lower = raw.trim().toLowerCase();
    if (lower === 'yes') return 1;
    if (lower === 'no') return 0;
  }
  return parseBinaryLabel(raw, line, column, field, problems);
}

/** Correctness is a 0/1 label too (lm-eval's acc and exact_match are 0.0/1.0 floats). */
function parseCorrect(raw: unknown, line: number, column: number | undefined, field: string, problems: RowProblem[]): 0 | 1 | undefined {
  return parseBinaryLabel(raw, line, column, field, problems);
}

/**
 * The row problems and the duplicate-ID warnings of a table with text IDs as RowsBuilder lists
 * them: the reader's own problems, then the first MAX_PROBLEMS of the rows' problems and the
 * warnings in row order (a warning after its row's other problems), the rest counted.
 */
function withDuplicateIds(sink: RowSink, lines: Uint32Array, readerProblems: RowProblem[]): { problems: RowProblem[]; dropped: number } {
  const log = sink.textIds!;
  const repeats = log.repeats();
  const rowProblems = sink.problems;
  let dropped = sink.droppedProblems;
  if (!repeats.length) return { problems: [...readerProblems, ...rowProblems], dropped };
  const merged: RowProblem[] = [];
  let k = 0;
  for (const { entry, first } of repeats) {
    const rowLine = lines[entry];
    while (k < rowProblems.length && rowProblems[k].line <= rowLine) merged.push(rowProblems[k++]);
    if (merged.length >= MAX_PROBLEMS) break;
    merged.push({
      line: log.fieldLines.get(entry) ?? rowLine, column: log.column(entry), severity: 'warning', code: 'duplicate-id',
      message: `ID ${JSON.stringify(log.text(entry))} already appeared on line ${lines[first]}; the row is still scored.`,
    });
  }
  while (k < rowProblems.length) merged.push(rowProblems[k++]);
  // Everything is counted: what the sink dropped, and the warnings past the cap.
  const kept = Math.min(merged.length, MAX_PROBLEMS);
  dropped += rowProblems.length + repeats.length - kept;
  merged.length = kept;
  return { problems: [...readerProblems, ...merged], dropped };
}

function finishNumeric(sink: RowSink, plan: BinaryPlan | Extract<Plan, { kind: 'confidence' }>, readerProblems: RowProblem[]): ParseResult {
  const { value, target, lines } = sink.columns.finish();
  const n = sink.columns.n;
  const listed = sink.textIds ? withDuplicateIds(sink, lines, readerProblems) : { problems: sink.problems, dropped: sink.droppedProblems };
  const problems = finishProblems(listed.problems, listed.dropped);
  const base: ParseResult = { format: 'generic', set: null, problems, skipped: sink.skipped, unlabeled: 0, kind: plan.kind };
  if (sink.rows === 0) {
    problems.unshift({ line: 1, severity: 'error', code: 'empty-file', message: 'The file has a header but no data rows.' });
    return { ...base, fatal: 'The file has a header but no data rows.' };
  }
  if (n === 0) return { ...base, fatal: nothingScoredMessage(sink.rows, problems) };
  const set: PredictionSet = plan.kind === 'binary'
    ? { kind: 'binary', n, score: value, label: target, lines }
    : { kind: 'confidence', n, confidence: value, correct: target, lines };
  const log = sink.textIds;
  if (log) defineLazyIds(set, () => log.strings());
  return { ...base, set };
}

// ---------------------------------------------------------------------------------------------
// Row-at-a-time path (multiclass, files with IDs, JSON records)

/** One record, CSV or JSON, seen through column names. */
interface Row {
  line: number;
  /** Raw value of a column (string for CSV; any JSON value for JSON). */
  get(name: string): unknown;
  /** 1-based column of the field, when known (CSV). */
  column(name: string): number | undefined;
  /** Line of the field (differs from `line` after a quoted line break). */
  fieldLine(name: string): number;
  /** A problem with the record as a whole (wrong column count, not an object), or undefined. */
  problem?: RowProblem;
}

function csvRow(rec: CsvRecord, names: string[]): Row {
  const index = (name: string) => names.indexOf(name);
  const row: Row = {
    line: rec.line,
    get: (name) => rec.fields[index(name)],
    column: (name) => rec.columns[index(name)],
    fieldLine: (name) => rec.fieldLines[index(name)] ?? rec.line,
  };
  if (rec.fields.length !== names.length) row.problem = columnCountProblem(rec.line, rec.fields.length, names.length);
  return row;
}

function jsonRow(value: unknown, line: number): Row {
  const obj = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const row: Row = { line, get: (name) => obj?.[name], column: () => undefined, fieldLine: () => line };
  if (!obj) {
    row.problem = { line, severity: 'error', code: 'json-parse', message: `The record on line ${line} is ${showValue(value)}, not an object with named fields; it is skipped.` };
  }
  return row;
}

/** Rows in, a PredictionSet out: validation, IDs and duplicates for the row-at-a-time path. */
class RowsBuilder {
  private problems: RowProblem[] = [];
  private dropped = 0;
  private skipped = 0;
  private rows = 0;
  private lines: number[] = [];
  private ids: string[] = [];
  private firstLineOfId = new Map<string, number>();
  private values: number[] = [];
  private targets: number[] = [];
  private golds: string[] = [];
  private preds: string[] = [];
  private confidences: number[] = [];
  private probRows: number[][] = [];
  /** binary with a mapped prediction: each row's decision. */
  private decisions: number[] = [];
  /** binary with a checked prediction column (DecisionCheck): each scored row's 0, 1 or UNREAD. */
  private checks: number[] = [];
  /** scores: each metric column's values (NaN where a row has none), and each row's text fields. */
  private metricValues: number[][] = [];
  private textRows: string[][] = [];

  constructor(private plan: Plan) {
    if (plan.kind === 'scores') this.metricValues = plan.metrics.map(() => []);
  }

  add(row: Row): void {
    const { plan, problems } = this;
    this.rows++;
    if (row.problem) {
      problems.push(row.problem);
      this.skipped++;
      this.cap();
      return;
    }
    const at = (name: string) => [row.get(name), row.fieldLine(name), row.column(name)] as const;
    let ok: boolean;
    if (plan.kind === 'multiclass' && plan.probCols) {
      ok = this.addWithProbs(row, plan.gold, plan.pred, plan.probCols, plan.codes);
    } else if (plan.kind === 'multiclass') {
      const [g, gl, gc] = at(plan.gold);
      const gold = parseClassName(g, gl, gc, plan.gold, problems);
      const [p, pl, pc] = at(plan.pred!);
      const pred = parseClassName(p, pl, pc, plan.pred!, problems);
      let conf: number | undefined = NaN;
      if (plan.confidence !== undefined) {
        const [c, cl, cc] = at(plan.confidence);
        conf = parseProbability(c, cl, cc, plan.confidence, problems);
      }
      ok = gold !== undefined && pred !== undefined && conf !== undefined;
      if (ok) {
        this.golds.push(detach(gold!));
        this.preds.push(detach(pred!));
        this.confidences.push(conf!);
      }
    } else if (plan.kind === 'scores') {
      ok = true;
      plan.metrics.forEach((name, k) => {
        const [v, vl, vc] = at(name);
        this.metricValues[k].push(scoreValue(v, vl, vc, name, problems));
      });
      if (plan.texts.length) this.textRows.push(plan.texts.map((name) => textValue(row.get(name))));
    } else {
      const [v, vl, vc] = at(plan.value);
      const value = parseProbability(v, vl, vc, plan.value, problems);
      const [t, tl, tc] = at(plan.target);
      const labels = plan.kind === 'binary' ? plan.labels : undefined;
      const target = plan.kind === 'binary' ? binaryLabel(t, tl, tc, plan.target, problems, labels) : parseCorrect(t, tl, tc, plan.target, problems);
      let decision: 0 | 1 | undefined = 0;
      if (plan.kind === 'binary' && plan.pred !== undefined) {
        const [d, dl, dc] = at(plan.pred);
        decision = binaryLabel(d, dl, dc, plan.pred, problems, labels);
      }
      ok = value !== undefined && target !== undefined && decision !== undefined;
      if (ok) {
        this.values.push(value!);
        this.targets.push(target!);
        if (plan.kind === 'binary' && plan.pred !== undefined) this.decisions.push(decision!);
        if (plan.kind === 'binary' && plan.check) this.checks.push(decisionOf(row.get(plan.check.column), labels));
      }
    }
    if (!ok) {
      this.skipped++;
    } else {
      this.lines.push(row.line);
      if (plan.id !== undefined) this.addId(row, plan.id);
    }
    this.cap();
  }

  /**
   * A row of per-class probabilities: gold (and pred, when a column gives it) must name one of the
   * classes (case ignored); the prediction is otherwise the most probable class. Probabilities that
   * do not sum to 1 are divided by their sum, with a warning.
   */
  private addWithProbs(row: Row, goldCol: string, predCol: string | undefined, probCols: NamedColumn[], codes?: Record<string, string>): boolean {
    const { problems } = this;
    const classOf = (raw: unknown, col: string): number | undefined => {
      const written = parseClassName(raw, row.fieldLine(col), row.column(col), col, problems);
      if (written === undefined) return undefined;
      // A code (0/1) of a class, read from the prediction column that follows the argmax (roles.ts).
      const name = codes && !probCols.some((c) => c.name.toLowerCase() === written.toLowerCase()) ? codes[written.toLowerCase()] ?? written : written;
      let k = probCols.findIndex((c) => c.name === name);
      if (k === -1) k = probCols.findIndex((c) => c.name.toLowerCase() === name.toLowerCase());
      if (k === -1) {
        problems.push({
          line: row.fieldLine(col), column: row.column(col), severity: 'error', code: 'unknown-class',
          message: `${quote(col)} ${showValue(name)} is none of the classes of the probability columns (${probCols.map((c) => c.name).join(', ')}); the row is skipped.`,
        });
      }
      return k === -1 ? undefined : k;
    };
    const gold = classOf(row.get(goldCol), goldCol);
    const probs: number[] = [];
    for (const c of probCols) {
      const v = parseProbability(row.get(c.column), row.fieldLine(c.column), row.column(c.column), c.column, problems);
      if (v === undefined) return false;
      probs.push(v);
    }
    if (gold === undefined) return false;
    let pred: number | undefined;
    if (predCol !== undefined) {
      pred = classOf(row.get(predCol), predCol);
      if (pred === undefined) return false;
    } else {
      pred = 0;
      for (let j = 1; j < probs.length; j++) if (probs[j] > probs[pred]) pred = j;
    }
    const sum = probs.reduce((a, b) => a + b, 0);
    if (!(sum > 0)) {
      problems.push({ line: row.line, severity: 'error', code: 'probs-not-normalised', message: `The class probabilities (${probCols.map((c) => c.column).join(', ')}) are all 0; the row is skipped.` });
      return false;
    }
    if (Math.abs(sum - 1) > 1e-3) {
      problems.push({ line: row.line, severity: 'warning', code: 'probs-not-normalised', message: `The class probabilities sum to ${Number(sum.toPrecision(6))}, not 1; they are divided by their sum.` });
      for (let j = 0; j < probs.length; j++) probs[j] /= sum;
    }
    this.golds.push(probCols[gold].name);
    this.preds.push(probCols[pred].name);
    this.probRows.push(probs);
    return true;
  }

  private addId(row: Row, field: string): void {
    const raw = row.get(field);
    // detach: a CSV field is a view into a chunk of the file's text, which it would keep alive.
    const id = raw === undefined || raw === null ? '' : typeof raw === 'string' ? detach(raw.trim()) : typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
    this.ids.push(id);
    const line = row.fieldLine(field);
    const column = row.column(field);
    if (id === '') {
      this.problems.push({ line, column, severity: 'warning', code: 'missing-field', message: `${quote(field)} (the ID) is empty; the row is still scored.` });
    } else if (this.firstLineOfId.has(id)) {
      this.problems.push({ line, column, severity: 'warning', code: 'duplicate-id', message: `ID ${JSON.stringify(id)} already appeared on line ${this.firstLineOfId.get(id)}; the row is still scored.` });
    } else {
      this.firstLineOfId.set(id, row.line);
    }
  }

  private cap(): void {
    this.dropped += trimProblems(this.problems);
  }

  finish(initialProblems: RowProblem[]): ParseResult {
    const { plan } = this;
    const sorted = finishProblems([...initialProblems, ...this.problems], this.dropped);
    const base: ParseResult = { format: 'generic', set: null, problems: sorted, skipped: this.skipped, unlabeled: 0, kind: plan.kind };
    if (this.rows === 0) {
      sorted.unshift({ line: 1, severity: 'error', code: 'empty-file', message: 'The file has no data records.' });
      return { ...base, fatal: 'The file has no data records.' };
    }
    const n = this.lines.length;
    if (n === 0) return { ...base, fatal: nothingScoredMessage(this.rows, sorted) };
    const lines = Uint32Array.from(this.lines);
    const withIds = plan.id !== undefined ? { ids: this.ids } : {};
    let set: PredictionSet;
    if (plan.kind === 'multiclass' && plan.probCols) {
      // The classes are the probability columns, in file order: all of them are known.
      const classes = plan.probCols.map((c) => c.name);
      const indexOf = new Map(classes.map((c, i) => [c, i]));
      const k = classes.length;
      const probs = new Float64Array(n * k);
      this.probRows.forEach((row, i) => probs.set(row, i * k));
      set = {
        kind: 'multiclass', n, lines, classes, classesKnown: true,
        gold: Int32Array.from(this.golds, (g) => indexOf.get(g)!),
        pred: Int32Array.from(this.preds, (p) => indexOf.get(p)!),
        probs, ...withIds,
      };
    } else if (plan.kind === 'multiclass') {
      const classes = sortClasses([...new Set([...this.golds, ...this.preds])]);
      const indexOf = new Map(classes.map((c, i) => [c, i]));
      set = {
        kind: 'multiclass', n, lines, classes, classesKnown: false,
        gold: Int32Array.from(this.golds, (g) => indexOf.get(g)!),
        pred: Int32Array.from(this.preds, (p) => indexOf.get(p)!),
        ...(plan.confidence !== undefined ? { confidence: Float64Array.from(this.confidences) } : {}),
        ...withIds,
      };
    } else if (plan.kind === 'binary') {
      set = {
        kind: 'binary', n, lines, score: Float64Array.from(this.values), label: Uint8Array.from(this.targets), ...withIds,
        ...(plan.pred !== undefined ? { pred: Uint8Array.from(this.decisions) } : {}),
      };
      const note = plan.check && checkNote(plan.check, plan.value, set.score, set.label, this.checks);
      if (note) sorted.unshift(note);
    } else if (plan.kind === 'scores') {
      set = { kind: 'scores', n, lines, ...withIds, ...(plan.texts.length ? { texts: { fields: plan.texts.slice(), values: this.textRows } } : {}) };
      const taskMetrics = plan.metrics.map((name, k) => ({ name, values: Float64Array.from(this.metricValues[k]) }));
      return { ...base, set, taskMetrics };
    } else {
      set = { kind: 'confidence', n, lines, confidence: Float64Array.from(this.values), correct: Uint8Array.from(this.targets), ...withIds };
    }
    return { ...base, set };
  }
}

/**
 * One per-sample metric value: a number (a boolean is 0/1), NaN where the row has none (empty,
 * null, NaN, None: left out of that metric's mean only), ±Infinity as written; text is a warning
 * and NaN (the row still counts).
 */
function scoreValue(raw: unknown, line: number, column: number | undefined, field: string, problems: RowProblem[]): number {
  if (raw === undefined || raw === null) return NaN;
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'boolean') return raw ? 1 : 0;
  if (typeof raw === 'string') {
    const t = readNumberText(raw);
    if (t.kind === 'number') return t.value;
    if (t.kind === 'missing') return NaN;
    if (t.kind === 'non-finite') {
      const s = raw.trim().toLowerCase().replace(/^\+/, '');
      return s.includes('inf') ? (s.startsWith('-') ? -Infinity : Infinity) : NaN;
    }
  }
  problems.push({ line, column, severity: 'warning', code: 'not-a-number', message: `${quote(field)} ${showValue(raw)} is not a number; it is left out of ${field}'s mean (the row still counts).` });
  return NaN;
}

/** A text field of a scores row, for the stepper and search (clipped as the sample record clips). */
function textValue(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  return detach(clipText(typeof raw === 'string' ? raw : typeof raw === 'object' ? JSON.stringify(raw) : String(raw)));
}

/** Whole numbers in numeric order ("2" before "10"), anything else in code-unit order. */
function sortClasses(classes: string[]): string[] {
  if (classes.every((c) => /^-?\d+$/.test(c))) return classes.sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0));
  return classes.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Column names any role may take, lower case and trimmed (resolveColumns compares them so). */
const ROLE_NAME_SET = new Set<string>(Object.values(ROLE_NAMES).flat());

/** A record that is not an object: its row (with the problem) is made at once, the value let go. */
class NotAnObject {
  constructor(readonly row: Row) {}
}

/**
 * JSON Lines (or a JSON array) of records, read one record at a time. Which field plays which role
 * is only known once every key has been seen, so each record is kept, but only with the fields
 * some role could take (by name or by the mapping): a record's other fields (long texts, nested
 * metadata) are let go as soon as it has been read.
 */
function parseJsonTable(input: FileInput, ctx: FormatContext, options: GenericParseOptions = {}): ParseResult {
  const bytes = input.givenText === undefined ? input.bytes : undefined;
  if (bytes && options.path !== 'rows') {
    const fast = parseFlatJsonLines(bytes, ctx);
    if (fast) return fast;
  }
  if (bytes ? firstNonSpaceByte(bytes, 0) === -1 : !stripBom(input.givenText!).trim()) return fatal('The file is empty.', 'empty-file');
  const mapped = new Set(Object.values(ctx.options.mapping ?? {}).filter((v): v is string => typeof v === 'string').map((v) => v.trim().toLowerCase()));
  const wanted = (key: string) => {
    const k = key.trim().toLowerCase();
    return ROLE_NAME_SET.has(k) || mapped.has(k) || isLayoutColumn(key) || mayHaveRole(key);
  };
  // Column names: every key in order of first appearance.
  const names: string[] = [];
  const seen = new Set<string>();
  const sample: unknown[] = [];
  const kept: (Record<string, unknown> | NotAnObject)[] = [];
  const lines: number[] = [];
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => {
    if (sample.length < SAMPLE_ROWS) sample.push(value);
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      kept.push(new NotAnObject(jsonRow(value, span.line)));
      lines.push(span.line);
      return;
    }
    for (const k of Object.keys(value)) if (!seen.has(k)) { seen.add(k); names.push(k); }
    kept.push(thinRecord(value as Record<string, unknown>, wanted));
    lines.push(span.line);
  }, ctx.progress);
  const problems = scan.problems;
  if (scan.fatal) return fatal(scan.fatal, 'unscorable');
  if (!scan.records) {
    return fatal('No JSON record in the file could be read.', 'unscorable', problems);
  }
  const { columns, unknown } = resolveColumns(names, ctx.options.mapping);
  if (unknown.length) {
    return fatal(`The column mapping names ${unknown.map(quote).join(', ')}, which no record has (keys: ${names.slice(0, 12).map(quote).join(', ')}).`, 'unscorable', problems);
  }
  const sampled = sample.map((r) => r as Record<string, unknown> | null);
  const chosen = choosePlan(names, columns, (name) => sampled.map((r) => (r && typeof r === 'object' ? r[name] : undefined)), ctx);
  const plan = chosen.plan;
  if (isUnplanned(plan)) return unplannedResult(plan, problems);
  const builder = new RowsBuilder(plan);
  kept.forEach((r, i) => builder.add(r instanceof NotAnObject ? r.row : jsonRow(r, lines[i])));
  return withModels(builder.finish(problems), chosen);
}

/**
 * A record with only the fields a plan may read: those some role could take (`wanted`), numbers,
 * booleans and nulls (a table of per-sample scores reads every numeric field), and text fields
 * named so (the stepper shows them), clipped.
 */
function thinRecord(record: Record<string, unknown>, wanted: (key: string) => boolean): Record<string, unknown> {
  return pickFields(record, (k) => {
    if (wanted(k)) return true;
    const v = record[k];
    if (v === null || typeof v === 'number' || typeof v === 'boolean') return true;
    if (isTextName(k)) {
      record[k] = typeof v === 'string' ? clipText(v) : clipText(JSON.stringify(v));
      return true;
    }
    return false;
  });
}

/**
 * JSON Lines of flat binary or confidence records read like the CSV scanner: every line tokenised
 * in its bytes (jsonlScan.ts: a pass for the keys, then one for the planned fields), numbers read
 * from the bytes, IDs copied as bytes, no object per record. The result is exactly the
 * row-at-a-time path's; undefined (that path then reads the file) where it could differ: a line
 * that is not a flat object of plain values, a value the row checks would warn about or skip, a
 * repeated or empty ID, a multiclass or several-models table, a file that is not JSON Lines.
 */
function parseFlatJsonLines(bytes: Uint8Array, ctx: FormatContext): ParseResult | undefined {
  const len = bytes.length;
  if (len === 0 || bytes[0] !== 0x7b) return undefined; // no BOM, no leading blank: the line reader's start
  const scan = new FlatJsonLines();
  const progress = ctx.progress ?? NO_PROGRESS;
  // Pass 1: every line a flat object; the keys; the first SAMPLE_ROWS records as JSON.parse gives them.
  const sample: unknown[] = [];
  let records = 0;
  let nonBlankLines = 0;
  for (let pos = 0; pos < len;) {
    let end = bytes.indexOf(10, pos);
    if (end === -1) end = len;
    const contentEnd = end > pos && bytes[end - 1] === 13 ? end - 1 : end;
    let blank = true;
    for (let i = pos; i < contentEnd; i++) { const c = bytes[i]; if (!(c === 32 || (c >= 9 && c <= 13))) { blank = false; break; } }
    if (!blank) {
      if (!scan.line(bytes, pos, contentEnd)) return undefined;
      nonBlankLines++;
      if (sample.length < SAMPLE_ROWS) sample.push(JSON.parse(new TextDecoder('utf-8').decode(bytes.subarray(pos, contentEnd))));
      records++;
    }
    pos = end + 1;
  }
  // One record alone is a JSON document, which the line reader does not take as lines.
  if (nonBlankLines < 2) return undefined;
  const names = scan.names;
  // Object.keys puts integer-like keys first: the row path's key order would differ.
  if (names.some((k) => /^(?:0|[1-9]\d*)$/.test(k) || k === '__proto__')) return undefined;
  const { columns, unknown } = resolveColumns(names, ctx.options.mapping);
  if (unknown.length) return undefined;
  const chosen = choosePlan(names, columns, (name) => sample.map((r) => (r as Record<string, unknown>)[name]), ctx);
  const plan = chosen.plan;
  if (isUnplanned(plan) || (plan.kind !== 'binary' && plan.kind !== 'confidence') || chosen.models || chosen.notes?.length) return undefined;
  if (plan.kind === 'binary' && (plan.pred !== undefined || plan.slow)) return undefined;
  const vk = names.indexOf(plan.value);
  const tk = names.indexOf(plan.target);
  const ik = plan.id === undefined ? -2 : names.indexOf(plan.id);
  const check = plan.kind === 'binary' ? plan.check : undefined;
  const ck = check ? names.indexOf(check.column) : -2;

  // Pass 2: the planned fields into typed columns.
  const value = new Float64Array(records);
  const target = new Uint8Array(records);
  const lines = new Uint32Array(records);
  const ids = ik >= 0 ? new TextIdLog(records) : undefined;
  const decision = check ? new Uint8Array(records) : undefined;
  let n = 0;
  let line = 0;
  progress.begin(len, 0);
  for (let pos = 0; pos < len;) {
    let end = bytes.indexOf(10, pos);
    if (end === -1) end = len;
    line++;
    if (end >= progress.next) progress.at(end);
    const contentEnd = end > pos && bytes[end - 1] === 13 ? end - 1 : end;
    let blank = true;
    for (let i = pos; i < contentEnd; i++) { const c = bytes[i]; if (!(c === 32 || (c >= 9 && c <= 13))) { blank = false; break; } }
    if (!blank) {
      scan.line(bytes, pos, contentEnd);
      const vf = scan.field(vk);
      const tf = scan.field(tk);
      if (vf < 0 || tf < 0 || scan.kind[vf] !== NUMBER || scan.kind[tf] !== NUMBER) return undefined;
      const x = jsonNumber(bytes, scan.start[vf], scan.end[vf]);
      if (!(x >= 0 && x <= 1)) return undefined;
      const ts = scan.start[tf];
      if (scan.end[tf] !== ts + 1 || (bytes[ts] !== 48 && bytes[ts] !== 49)) return undefined;
      value[n] = x;
      target[n] = bytes[ts] - 48;
      lines[n] = line;
      if (decision) decision[n] = jsonDecision(scan, bytes, scan.field(ck), plan.kind === 'binary' ? plan.labels : undefined);
      if (ids) {
        const f = scan.field(ik);
        if (f < 0) return undefined;
        const s = scan.start[f], e = scan.end[f];
        if (scan.kind[f] === NUMBER) {
          // A canonical integer prints as its digits (String(7) is "7").
          if (e - s > 15 || (e - s > 1 && bytes[s] === 48)) return undefined;
          for (let i = s; i < e; i++) if (bytes[i] < 48 || bytes[i] > 57) return undefined;
        } else if (scan.kind[f] !== STRING) return undefined;
        if (e === s) return undefined;
        if (ids.count === ids.ends.length) ids.growEntries();
        const out = ids.reserve(e - s);
        let o = ids.used;
        for (let i = s; i < e; i++) {
          const c = bytes[i];
          if (c <= 32 || c >= 127) return undefined; // trimmed, ASCII: as the row path keeps it
          out[o++] = c;
        }
        ids.used = o;
        ids.ends[ids.count++] = o;
      }
      n++;
    }
    pos = end + 1;
  }
  if (ids && ids.repeats().length) return undefined;
  const set: PredictionSet = plan.kind === 'binary'
    ? { kind: 'binary', n, lines, score: value, label: target }
    : { kind: 'confidence', n, lines, confidence: value, correct: target };
  if (ids) defineLazyIds(set, () => ids.strings());
  const result: ParseResult = { format: 'generic', set, problems: [], skipped: 0, unlabeled: 0, kind: plan.kind };
  if (check && decision) addCheckNote(result, check, plan.value, decision.subarray(0, n));
  return result;
}

/** A checked prediction field of a flat JSON line (field index f, -1 when the line lacks it): 0, 1 or UNREAD, as decisionOf reads it. */
function jsonDecision(scan: FlatJsonLines, bytes: Uint8Array, f: number, labels: Record<string, 0 | 1> | undefined): number {
  if (f < 0) return UNREAD;
  const kind = scan.kind[f];
  const s = scan.start[f];
  // The common 0/1 without decoding a string per line (two-class labels read them literally here: no plan.slow).
  if (kind === NUMBER && scan.end[f] === s + 1 && (bytes[s] === 48 || bytes[s] === 49)) return bytes[s] - 48;
  if (kind === TRUE) return 1;
  if (kind === FALSE) return 0;
  if (kind !== NUMBER && kind !== STRING) return UNREAD;
  const text = new TextDecoder('utf-8').decode(bytes.subarray(scan.start[f], scan.end[f]));
  // A string with an escape is left unread rather than unescaped here: the column only informs.
  if (kind === STRING && text.includes('\\')) return UNREAD;
  return decisionOf(kind === NUMBER ? Number(text) : text, labels);
}

/** A JSON number literal's value, as JSON.parse reads it (correctly rounded, as parseFloat). */
function jsonNumber(bytes: Uint8Array, s: number, e: number): number {
  let plain = true;
  for (let i = s; i < e; i++) { const c = bytes[i]; if (!((c >= 48 && c <= 57) || c === 46)) { plain = false; break; } }
  if (plain) return decimalFromBytes(bytes, s, e);
  return parseFloat(new TextDecoder('utf-8').decode(bytes.subarray(s, e)));
}

// ---------------------------------------------------------------------------------------------

/**
 * Content sniffing for detection: a .csv/.tsv/.jsonl/.ndjson/.json file whose header (or first JSON
 * record) has columns from which a kind follows (score + label, confidence + correct, pred + gold).
 */
export function looksLikeGenericTable(path: string, head: string): boolean {
  if (!/\.(csv|tsv|tab|txt|jsonl|ndjson|json)$/i.test(path)) return false;
  const text = stripBom(head);
  if (!text.trim()) return false;
  let names: string[];
  const firstChar = text.trimStart()[0];
  if (/\.(jsonl|ndjson|json)$/i.test(path) || firstChar === '{' || firstChar === '[') {
    const first = readJsonRecords(text).records.find((r) => r.value && typeof r.value === 'object' && !Array.isArray(r.value));
    if (!first) return false;
    names = Object.keys(first.value as object);
  } else {
    const nl = text.indexOf('\n');
    const line = (nl === -1 ? text : text.slice(0, nl)).replace(/\r$/, '');
    const delimiter = /\.(tsv|tab)$/i.test(path) ? '\t' : sniffDelimiter(line);
    names = parseCsv(line, delimiter).header;
  }
  const { columns: c } = resolveColumns(names);
  return (c.score !== undefined && c.label !== undefined)
    || (c.confidence !== undefined && c.correct !== undefined)
    || (c.pred !== undefined && c.label !== undefined)
    // Per-class or per-model probability columns beside a label (columnLayouts.ts).
    || (c.label !== undefined && names.some((n) => n !== c.label && isLayoutColumn(n)))
    // Gold and prediction named otherwise (actual_churn, predicted_class, churn_probability): roles.ts.
    || namesLookLikePredictions(names)
    // Per-sample scores without a gold label (Ragas' faithfulness, answer_relevancy, ...).
    || namesLookLikeScores(names);
}
