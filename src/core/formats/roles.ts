// What each column of a table means: one model of column roles for every table-like input (CSV,
// TSV, Parquet, JSON Lines, a JSON array of records). Each column gets a role from its name and its
// content together, and content wins where the two disagree:
//  - a column equal to the argmax of the probability columns is a prediction;
//  - probability columns whose suffixes are the values of a label column (or that sum to 1 on every
//    row) are the classes of one model, never several models;
//  - names like actual_*, true_*, y_true, gold, target, ground_truth, label are the gold; a name that
//    says "predicted" (pred*, y_pred, predicted_*, *_predictions) never is;
//  - a table of a handful of rows whose columns are metric names (accuracy, f1, auc, ...) is a
//    summary of results, not predictions.
// `columnRoles` is the one entry: the generic reader plans from its answer, the CLI's --map hint and
// the editor's "Map columns…" pick show it (`missing`, `ambiguous`, `mapHint`).
import type { ColumnMapping } from '../types';
import { readNumberText } from './numbers';
import { shellQuote } from '../../common/shellQuote';

export type ColumnRole =
  | 'id' | 'gold' | 'pred' | 'score' | 'classProb' | 'confidence' | 'correct'
  | 'modelScore' | 'modelPred' | 'group' | 'text' | 'metric' | 'unknown';

export interface ColumnInfo {
  column: string;
  role: ColumnRole;
  /** classProb: the class the column gives P(class) of. */
  className?: string;
  /** modelScore / modelPred: the model (a variant of the score or the prediction). */
  model?: string;
  /** Why this role, in a few words ("named like a gold label", "equals the argmax of p_*"). */
  why: string;
}

/** The --map fields (ColumnMapping keys). */
export type MapField = keyof ColumnMapping;

export interface ColumnRoles {
  columns: ColumnInfo[];
  /** The column of each --map field, as far as the roles settle it. */
  mapping: ColumnMapping;
  /** Per-class probability columns of one model (classes in column order). */
  classProbs?: { name: string; column: string }[];
  /** A gold or prediction column holding codes (0/1) of the probability columns' classes: code -> class. */
  classCodes?: Record<string, string>;
  /** Several models side by side (Prob_LogReg, Pred_LogReg, Prob_SVM, ...). */
  models?: { name: string; prob?: string; pred?: string }[];
  /** Set when the table is a summary of results, not predictions: why, in a sentence. */
  notPredictions?: string;
  /** Sentences: a role no column plays ("No column holds the gold label ..."). */
  missing: string[];
  /** Sentences: a role several columns could play. */
  ambiguous: string[];
  /** The first of mapHints. */
  mapHint?: string;
  /**
   * --map arguments that may score the table, most likely first; shown only after scoring with one
   * succeeded (generic.ts's parseGeneric, tableRoles.ts try them in turn).
   */
  mapHints?: string[];
  /** A table of per-sample scores without a gold label: its metric columns, in file order (each one's mean is a figure). */
  scores?: string[];
  /** Sentences about a reading that scores: a choice made among several columns (which confidence is used). */
  notes: string[];
}

export interface ColumnRolesOptions {
  /** The user's mapping (--map, or the editor's remembered choice): it wins over everything. */
  mapping?: ColumnMapping;
  /** Rows in the whole table, when known (a summary table has a handful). */
  rowCount?: number;
}

// ---------------------------------------------------------------------------------------------
// Names

const norm = (s: string) => s.trim().toLowerCase();

/** Gold names in order of preference (the generic reader's order first: label, gold, target, y, ...). */
const GOLD_ORDER = [
  'label', 'gold', 'target', 'y', 'y_true', 'gold_label', 'true_label', 'actual', 'true', 'truth', 'y_actual',
  'ground_truth', 'groundtruth', 'labels', 'ytrue', 'gt', 'true_class', 'actual_label', 'actual_class', 'outcome',
  // The right answer of a question (simple-evals style: correct_answer beside extracted_answer).
  'correct_answer', 'gold_answer', 'true_answer', 'answer_key',
];
const GOLD_EXACT = new Set(GOLD_ORDER);
const GOLD_PATTERN = /^(?:actual|true|gold|target|ground_?truth|observed|real)[_ -]|[_ -](?:actual|true|gold|target|truth|ground_?truth)$/;
const PRED_EXACT = new Set([
  'pred', 'preds', 'prediction', 'predictions', 'predicted', 'y_pred', 'ypred', 'y_hat', 'yhat', 'pred_label', 'predicted_label', 'predicted_class', 'output_label',
  // The answer a harness extracted from the model's response (simple-evals, MMLU-Pro scripts).
  'extracted_answer', 'predicted_answer', 'model_answer', 'pred_answer', 'parsed_answer',
]);
const PRED_PATTERN = /^(?:pred|predicted|prediction|predictions)(?:$|[_ -])|[_ -](?:pred|preds|predicted|prediction|predictions)$|^y_?hat/;
const SCORE_EXACT = new Set(['score', 'prob', 'proba', 'probability', 'risk_score', 'p', 'p_yes', 'y_score', 'y_prob', 'y_proba', 'pred_prob', 'pred_proba', 'predicted_probability', 'prob_positive', 'p_positive', 'positive_prob']);
const CONFIDENCE_EXACT = new Set(['confidence', 'conf']);
/** A confidence named so in part (verbal_numerical_confidence, logit_confidence, conf_score). */
const CONFIDENCE_PATTERN = /(?:^|[_ -])(?:conf|confidence)(?:$|[_ -])/i;
const CORRECT_EXACT = new Set(['correct', 'is_correct', 'acc', 'exact_match']);
/** Names ending in an ID: customer_id, question-id, passageId. */
const ID_SUFFIX = /(?:[_\-. ]id|[a-z]Id|[a-z]ID)$/;

/** Every value read is there and none repeats (at least two). */
function isUniqueKey(p: { values: unknown[]; filled: number; distinct: Set<string> }): boolean {
  return p.filled >= 2 && p.filled === p.values.length && p.distinct.size === p.filled;
}

const ID_EXACT = new Set(['id', 'doc_id', 'idx', 'index', 'uid', 'uuid', 'sample_id', 'sample_index', 'row_id', 'example_id', 'text_id', 'item_id', '']);
const TEXT_EXACT = new Set([
  'text', 'prompt', 'question', 'input', 'sentence', 'response', 'output', 'completion', 'context', 'passage', 'document', 'answer_text',
  // Ragas' columns (user_input, retrieved_contexts, response, reference; before 0.2 question, contexts, answer).
  'user_input', 'retrieved_contexts', 'reference_contexts', 'reference', 'contexts', 'answer',
]);

/** Whether a column's name says it holds free text (a question, a response, the contexts). */
export function isTextName(name: string): boolean {
  return TEXT_EXACT.has(norm(name));
}
/** Column names of a results summary (one row per model or run). */
const METRIC_EXACT = new Set([
  'accuracy', 'acc', 'f1', 'f1_score', 'macro_f1', 'micro_f1', 'weighted_f1', 'precision', 'recall', 'auc', 'roc_auc', 'auroc',
  'pr_auc', 'average_precision', 'loss', 'log_loss', 'logloss', 'mse', 'rmse', 'mae', 'r2', 'brier', 'brier_score', 'ece',
  'balanced_accuracy', 'mcc', 'kappa', 'specificity', 'sensitivity', 'support', 'n_samples', 'num_samples', 'stderr', 'std',
]);

/**
 * Names of per-sample metrics (Ragas' faithfulness, answer_relevancy, context_precision, ...; text
 * metrics such as bleu, rouge_l, bertscore; a judge's correctness): one such numeric column in a table
 * without a gold label makes it a table of per-sample scores, whose figures are their means.
 */
const PER_SAMPLE_METRIC = new RegExp('^(?:' + [
  'faithfulness', 'answer_relevancy', 'answer_relevance', 'response_relevancy', 'context_precision', 'context_recall',
  'context_relevancy', 'context_relevance', 'context_entity_recall', 'context_utilization', 'answer_correctness',
  'answer_similarity', 'semantic_similarity', 'factual_correctness', 'noise_sensitivity(?:_\\w+)?',
  '(?:non_)?llm_context_precision_with(?:out)?_reference', '(?:non_)?llm_context_recall', 'harmfulness', 'maliciousness',
  'coherence', 'conciseness', 'correctness', 'groundedness', 'relevance', 'fluency', 'helpfulness', 'toxicity',
  'bleu', 'sacrebleu', 'rouge[_-]?(?:1|2|l|lsum)', 'meteor', 'bert_?score(?:_f1)?', 'chrf', 'f1', 'exact_match', 'em',
].join('|') + ')$', 'i');

/**
 * A judge's grade of each sample: score_turn1, avg_score, judge_score, rating, grade (MT-Bench-style
 * single grades of 1-10). Read as a per-sample metric only when its values are numbers and not
 * probabilities (a score_<class> column of values in [0, 1] is a class probability).
 */
const GRADE_NAME = /^(?:(?:avg|average|mean|judge|overall|final|total)[_ -])?(?:score|scores|rating|grade)(?:[_ -]\w+)?$|[_ -](?:score|rating|grade)$/i;
/** When a row was written (FastChat's tstamp): a number per sample, but no score whose mean means anything. */
const TIME_NAME = /^(?:tstamp|timestamp|time_?stamp|created|created_at|updated_at|date|datetime|epoch)$/i;

/** Whether a column's name says it is a per-sample metric (see PER_SAMPLE_METRIC). */
export function isPerSampleMetricName(name: string): boolean {
  return PER_SAMPLE_METRIC.test(name.trim());
}

/** p_<class>, prob_<class>, proba_<class>, probability_<class>, probabilities_<class>, <x>_probabilities_<class>. */
const PROB_PREFIX = /^(?:.*[_ -])?(?:p|prob|proba|probs|probability|probabilities|score|scores)[_ -](.+)$/i;
const PROB_SUFFIX = /^(.+)[_ -](?:prob|proba|probability)$/i;
const PRED_PREFIX = /^(?:pred|prediction|predicted)[_ -](.+)$/i;
const PRED_SUFFIX = /^(.+)[_ -](?:pred|preds|prediction|predictions|predicted)$/i;

function probName(column: string): string | undefined {
  const t = column.trim();
  if (SCORE_EXACT.has(norm(t))) return undefined;
  const m = /^(?:p|prob|proba|probs|probability|probabilities|score|scores)[_ -](.+)$/i.exec(t) ?? PROB_SUFFIX.exec(t) ?? PROB_PREFIX.exec(t);
  // prob_class_cat, probability_of_cat, p_label_1: the class is what follows.
  const name = m?.[1]?.trim().replace(/^(?:class|label|of)[_ -](?=.)/i, '');
  return name ? name : undefined;
}

function predName(column: string): string | undefined {
  const t = column.trim();
  if (PRED_EXACT.has(norm(t))) return undefined;
  const m = PRED_PREFIX.exec(t) ?? PRED_SUFFIX.exec(t);
  return m?.[1]?.trim() || undefined;
}

const isGoldName = (n: string) => !isPredName(n) && (GOLD_EXACT.has(norm(n)) || GOLD_PATTERN.test(norm(n)));
const isPredName = (n: string) => PRED_EXACT.has(norm(n)) || PRED_PATTERN.test(norm(n));

/**
 * Whether a column's name alone may give it a role (gold, prediction, score, probability, confidence,
 * correctness, ID): readers that thin records to the fields that matter keep these.
 */
export function mayHaveRole(name: string): boolean {
  const n = norm(name);
  return isGoldName(name) || isPredName(name) || SCORE_EXACT.has(n) || CONFIDENCE_EXACT.has(n) || CORRECT_EXACT.has(n) || ID_EXACT.has(n)
    || probName(name) !== undefined || predName(name) !== undefined;
}

/**
 * Names alone that make a table of per-sample scores (Ragas): a per-sample metric name that no
 * results summary uses (faithfulness, context_recall), or one beside a text column (question, f1).
 */
export function namesLookLikeScores(names: string[]): boolean {
  const metrics = names.filter(isPerSampleMetricName);
  return metrics.some((n) => !METRIC_EXACT.has(norm(n))) || (metrics.length > 0 && names.some(isTextName)) || namesLookLikeJudgeGrades(names);
}

/** Names of a judge's reasoning beside its grades (judgment_turn1, judge_id, explanation). */
const JUDGE_TEXT_NAME = /(?:^|[_ -])(?:judgment|judgement|judge|critique|feedback|explanation|rationale)(?:$|[_ -])/i;

/**
 * A judge's grades per sample (korean-mt-bench: score_turn1, score_turn2, avg_score beside
 * judge_id and judgment_turn1), and no gold label: the content then decides (grades, not probabilities).
 */
function namesLookLikeJudgeGrades(names: string[]): boolean {
  return names.some((n) => GRADE_NAME.test(n.trim()) && !SCORE_EXACT.has(norm(n))) && !names.some(isGoldName)
    && names.some((n) => JUDGE_TEXT_NAME.test(n.trim()) || isTextName(n));
}

/** Names alone that make a table of predictions: a gold-named column and a prediction, score or probability column. */
export function namesLookLikePredictions(names: string[]): boolean {
  const gold = names.filter(isGoldName);
  return gold.length > 0 && names.some((n) => !gold.includes(n) && (isPredName(n) || SCORE_EXACT.has(norm(n)) || probName(n) !== undefined || predName(n) !== undefined));
}

// ---------------------------------------------------------------------------------------------
// Content

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const textOf = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'object' ? jsonText(v) : String(v));

/** A value as JSON text; a value nested too deep to write (JSON.parse reads deeper than stringify writes) as a mark. */
function jsonText(v: unknown): string {
  try { return JSON.stringify(v); } catch { return '[nested too deep]'; }
}

function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v !== 'string') return undefined;
  const t = readNumberText(v.trim());
  return t.kind === 'number' ? t.value : undefined;
}

interface Profile {
  values: unknown[];
  filled: number;
  /** Every value 0/1 or true/false. */
  binary: boolean;
  /** Every value a number in [0, 1], some not whole. */
  probability: boolean;
  numeric: boolean;
  distinct: Set<string>;
  meanLength: number;
}

function profile(values: unknown[]): Profile {
  const present = values.filter((v) => !isBlank(v));
  const distinct = new Set(present.map((v) => norm(textOf(v))));
  let binary = present.length > 0;
  let probability = present.length > 0;
  let numeric = present.length > 0;
  let fractional = false;
  let length = 0;
  for (const v of present) {
    const s = norm(textOf(v));
    length += s.length;
    if (!(s === '0' || s === '1' || s === 'true' || s === 'false' || s === '0.0' || s === '1.0' || s === 'yes' || s === 'no')) binary = false;
    const x = numberOf(v);
    if (x === undefined || !Number.isFinite(x)) { numeric = false; probability = false; continue; }
    if (!(x >= 0 && x <= 1)) probability = false;
    if (!Number.isInteger(x)) fractional = true;
  }
  return { values, filled: present.length, binary, probability: probability && fractional, numeric, distinct, meanLength: present.length ? length / present.length : 0 };
}

/** Index of the largest value of a row's probability columns (first on ties, as numpy), or -1. */
function argmaxRow(probCols: Profile[], row: number): number {
  let best = -1;
  let bestValue = -Infinity;
  probCols.forEach((p, j) => {
    const x = numberOf(p.values[row]);
    if (x !== undefined && x > bestValue) { best = j; bestValue = x; }
  });
  return best;
}

/**
 * How a column's values name the classes of the probability columns: by name (case ignored), or by
 * a code (0/1, or any value) mapped one-to-one onto the argmax class. `agreement` is the share of
 * rows where the value is the argmax class under that reading.
 */
function readAgainstClasses(p: Profile, classes: string[], probCols: Profile[]): { byName: boolean; codes?: Record<string, string>; agreement: number } {
  const lower = classes.map(norm);
  const byName = p.filled > 0 && [...p.distinct].every((v) => lower.includes(v));
  let agree = 0;
  let rows = 0;
  const votes = new Map<string, Map<number, number>>();
  p.values.forEach((v, i) => {
    if (isBlank(v)) return;
    const k = argmaxRow(probCols, i);
    if (k < 0) return;
    rows++;
    const key = norm(textOf(v));
    if (byName && lower.indexOf(key) === k) agree++;
    let m = votes.get(key);
    if (!m) votes.set(key, (m = new Map()));
    m.set(k, (m.get(k) ?? 0) + 1);
  });
  if (byName) return { byName, agreement: rows ? agree / rows : 0 };
  // Codes: each value's most frequent argmax class, one-to-one.
  const codes: Record<string, string> = {};
  const used = new Set<number>();
  let matched = 0;
  for (const [value, m] of votes) {
    let best = -1;
    let count = 0;
    for (const [k, c] of m) if (c > count) { best = k; count = c; }
    if (best < 0 || used.has(best)) return { byName: false, agreement: 0 };
    used.add(best);
    codes[value] = classes[best];
    matched += count;
  }
  return { byName: false, codes, agreement: rows ? matched / rows : 0 };
}

/** Rows whose probability columns sum to 1 (within 1e-3), as a share of the rows that have them all. */
function sumsToOne(probCols: Profile[]): number {
  const n = probCols[0]?.values.length ?? 0;
  let rows = 0;
  let ones = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    let ok = true;
    for (const p of probCols) {
      const x = numberOf(p.values[i]);
      if (x === undefined || !Number.isFinite(x)) { ok = false; break; }
      s += x;
    }
    if (!ok) continue;
    rows++;
    if (Math.abs(s - 1) <= 1e-3) ones++;
  }
  return rows ? ones / rows : 0;
}

// ---------------------------------------------------------------------------------------------

/** Shell-safe --map argument: one quoting for every command a message suggests (common/shellQuote.ts). */
export const mapArg = shellQuote;

function listColumns(names: string[], max = 20): string {
  const shown = names.map((n) => (n === '' ? '(unnamed)' : n));
  return `${shown.slice(0, max).join(', ')}${names.length > max ? `, ... (${names.length} in all)` : ''}`;
}

/**
 * The role of every column of a table, from its names and a sample of its rows (`sample(name)`: the
 * column's leading values, the same rows for every column), with what is missing or ambiguous and
 * the --map that would score it.
 */
export function columnRoles(names: string[], sample: (name: string) => unknown[], options: ColumnRolesOptions = {}): ColumnRoles {
  const given = options.mapping ?? {};
  const find = (want: string) => names.find((n) => n === want) ?? names.find((n) => norm(n) === norm(want));
  const profiles = new Map(names.map((n) => [n, profile(sample(n))]));
  const prof = (n: string) => profiles.get(n)!;
  const info = new Map<string, ColumnInfo>();
  const set = (column: string, role: ColumnRole, why: string, extra: Partial<ColumnInfo> = {}) => info.set(column, { column, role, why, ...extra });
  const missing: string[] = [];
  const ambiguous: string[] = [];
  const notes: string[] = [];
  const mapping: ColumnMapping = {};

  // 1. The user's mapping wins.
  for (const [field, want] of Object.entries(given) as [MapField, string | undefined][]) {
    if (want === undefined) continue;
    const found = find(want);
    if (found === undefined) continue;
    const f = field === 'label' ? 'gold' : field;
    mapping[f] = found;
    set(found, f === 'gold' ? 'gold' : f, 'given in the column mapping');
  }
  const free = (n: string) => !info.has(n);

  // 2. A summary of results (a handful of rows, metric-named columns) holds no predictions.
  const metricCols = names.filter((n) => METRIC_EXACT.has(norm(n)));
  const rows = options.rowCount ?? Math.max(0, ...names.map((n) => prof(n).values.length));
  const predictionNamed = names.some((n) => isGoldName(n) || isPredName(n) || SCORE_EXACT.has(norm(n)) || probName(n) !== undefined);
  // A per-sample table may log a metric or two per row (label, pred, acc): with prediction columns, a
  // summary needs metrics for most columns and very few rows.
  // Free text (a question, a response) is per sample: a summary's rows are labelled by short names.
  const freeText = names.some((n) => TEXT_EXACT.has(norm(n)) || (!prof(n).numeric && prof(n).meanLength > 40));
  if (!Object.keys(given).length && metricCols.length >= 2 && rows <= 50 && !freeText && (!predictionNamed || (metricCols.length > names.length / 2 && rows <= 10))) {
    for (const n of names) set(n, METRIC_EXACT.has(norm(n)) ? 'metric' : prof(n).numeric ? 'unknown' : 'group', METRIC_EXACT.has(norm(n)) ? 'a metric name' : 'a row label');
    return {
      columns: names.map((n) => info.get(n)!), mapping: {}, missing: [], ambiguous: [], notes: [],
      notPredictions: `It is a summary of results, not predictions: ${rows} row${rows === 1 ? '' : 's'} whose columns are metrics (${metricCols.slice(0, 6).join(', ')}); scoring needs one row per prediction, with its gold label.`,
    };
  }

  // 3. Probability columns: the classes of one model, or several models.
  const probs = names.filter((n) => free(n) && probName(n) !== undefined && (prof(n).probability || prof(n).binary || prof(n).filled === 0))
    .map((column) => ({ name: probName(column)!, column }));
  const preds = names.filter((n) => free(n) && predName(n) !== undefined).map((column) => ({ name: predName(column)!, column }));
  let classProbs: ColumnRoles['classProbs'];
  let classCodes: Record<string, string> | undefined;
  let models: ColumnRoles['models'];
  // The top probability of a prediction column (Ludwig's recommended_probability beside
  // recommended_predictions and recommended_probabilities_<class>) is its confidence, not a class.
  if (probs.length > 2) {
    for (const t of probs.filter((p) => preds.some((q) => norm(q.name) === norm(p.name)))) {
      probs.splice(probs.indexOf(t), 1);
      set(t.column, 'confidence', 'the probability of the predicted class');
      if (mapping.confidence === undefined) mapping.confidence = t.column;
    }
  }
  if (probs.length >= 2) {
    const classes = probs.map((p) => p.name);
    const probProfiles = probs.map((p) => prof(p.column));
    // Columns whose values are the class names, or codes of them that follow the argmax.
    const readers = names.filter((n) => free(n) && !probs.some((p) => p.column === n) && !SCORE_EXACT.has(norm(n)))
      .map((n) => ({ n, r: readAgainstClasses(prof(n), classes, probProfiles) }));
    const named = readers.filter((x) => x.r.byName);
    const argmaxCol = readers.filter((x) => x.r.agreement >= 0.99 && prof(x.n).filled > 0 && prof(x.n).distinct.size <= classes.length)
      .sort((a, b) => Number(isPredName(b.n)) - Number(isPredName(a.n)))[0];
    const sum1 = sumsToOne(probProfiles) >= 0.95;
    const sharedWithPreds = probs.filter((p) => preds.some((q) => norm(q.name) === norm(p.name)));
    const classesByContent = named.length > 0 || sum1 || (argmaxCol !== undefined && !sharedWithPreds.length);
    if (classesByContent && sharedWithPreds.length < 2) {
      classProbs = probs;
      for (const p of probs) set(p.column, 'classProb', named.length ? `its suffix is a value of ${named[0].n}` : sum1 ? 'the probability columns sum to 1 on each row' : 'a class probability', { className: p.name });
      // The prediction: a column equal to the argmax (content), else one named so.
      const predCol = mapping.pred ?? (argmaxCol && (isPredName(argmaxCol.n) || !isGoldName(argmaxCol.n) || readers.some((x) => x !== argmaxCol && isGoldName(x.n))) ? argmaxCol.n : undefined);
      if (predCol !== undefined && free(predCol)) { set(predCol, 'pred', 'equals the argmax of the probability columns'); mapping.pred = predCol; }
      const codesFrom = readers.find((x) => x.n === predCol);
      if (codesFrom?.r.codes) classCodes = codesFrom.r.codes;
    } else if (sharedWithPreds.length >= 1 || probs.every((p) => prof(p.column).probability)) {
      const byModel = new Map<string, { name: string; prob?: string; pred?: string }>();
      for (const p of probs) byModel.set(norm(p.name), { name: p.name, prob: p.column });
      for (const q of preds) {
        const m = byModel.get(norm(q.name));
        if (m) m.pred = q.column;
      }
      models = [...byModel.values()];
      for (const m of models) {
        if (m.prob) set(m.prob, 'modelScore', `the score of model ${m.name}`, { model: m.name });
        if (m.pred) set(m.pred, 'modelPred', `the prediction of model ${m.name}`, { model: m.name });
      }
    }
  }

  // 4. Names: gold, prediction, score, confidence, correctness, id.
  const pick = (field: MapField, role: ColumnRole, test: (n: string) => boolean, why: string) => {
    if (mapping[field] !== undefined) return;
    const found = names.filter((n) => free(n) && test(n));
    if (!found.length) return;
    mapping[field] = found[0];
    set(found[0], role, why);
  };
  for (const want of GOLD_ORDER) pick('gold', 'gold', (n) => norm(n) === want, 'named like the gold label');
  const goldNamed = names.filter((n) => isGoldName(n) && (free(n) || n === mapping.gold));
  if (given.label === undefined && given.gold === undefined && goldNamed.length > 1) {
    ambiguous.push(`Several columns are named like the gold label (${goldNamed.join(', ')}); ${mapping.gold ?? goldNamed[0]} is taken (another with --map label=COLUMN).`);
  }
  pick('gold', 'gold', isGoldName, 'named like the gold label');
  pick('pred', 'pred', (n) => PRED_EXACT.has(norm(n)), 'named like a prediction');
  pick('score', 'score', (n) => SCORE_EXACT.has(norm(n)) && (prof(n).probability || prof(n).binary || prof(n).filled === 0 || prof(n).numeric), 'named like a score');
  pick('confidence', 'confidence', (n) => CONFIDENCE_EXACT.has(norm(n)), 'named like a confidence');
  // Confidences named so in part (verbal_numerical_confidence, logit_perplexity_confidence): the
  // first is used, and the others are said (another with --map confidence=COLUMN).
  if (mapping.confidence === undefined) {
    const named = names.filter((n) => free(n) && CONFIDENCE_PATTERN.test(n) && (prof(n).probability || prof(n).binary || numberLike(prof(n).values) === 'empty'));
    if (named.length) {
      mapping.confidence = named[0];
      set(named[0], 'confidence', 'named like a confidence');
      for (const other of named.slice(1)) set(other, 'confidence', `named like a confidence (${named[0]} is used)`);
      if (named.length > 1) notes.push(`Several columns hold a confidence (${named.join(', ')}); ${named[0]} is used (another with --map confidence=COLUMN).`);
    }
  }
  pick('correct', 'correct', (n) => CORRECT_EXACT.has(norm(n)) && (prof(n).binary || prof(n).filled === 0), 'named like a correctness flag');
  pick('id', 'id', (n) => ID_EXACT.has(norm(n)) && (n !== '' || names[0] === ''), 'named like an ID');
  // customer_id, question_id, passageId: an ID when every row read has its own value (a repeated
  // one is a cluster or an item answered several times, which the exact names above decide).
  pick('id', 'id', (n) => ID_SUFFIX.test(n) && isUniqueKey(prof(n)), 'named like an ID, a value of its own on every row');
  // A prediction named loosely (predicted_churn, churn_prediction, recommended_predictions).
  pick('pred', 'pred', (n) => isPredName(n) && !prof(n).probability, 'its name says it is a prediction');
  // One probability column beside a 0/1 gold: the score (churn_probability, Probability_Malignant).
  if (mapping.score === undefined && !classProbs && !models) {
    const single = names.filter((n) => free(n) && (probName(n) !== undefined || /prob|score|risk/i.test(n)) && prof(n).probability);
    if (single.length === 1) { mapping.score = single[0]; set(single[0], 'score', 'the one probability column'); }
    else if (single.length > 1) ambiguous.push(`Several columns look like a score (${single.join(', ')}); say which with --map score=COLUMN.`);
  }

  // A 0/1 gold beside named class probabilities, with no prediction column to tell which class is 1.
  if (classProbs && mapping.gold !== undefined && !classCodes) {
    const g = prof(mapping.gold);
    const lower = classProbs.map((c) => norm(c.name));
    if (g.filled > 0 && ![...g.distinct].every((v) => lower.includes(v))) {
      ambiguous.push(`${mapping.gold} holds ${[...g.distinct].slice(0, 4).join(', ')}, not the classes of the probability columns (${classProbs.map((c) => c.name).join(', ')}), and no prediction column tells which value is which class.`);
    }
  }

  // 5. The rest: text, per-sample metrics, groups, other.
  for (const n of names) {
    if (!free(n)) continue;
    const p = prof(n);
    if (TEXT_EXACT.has(norm(n)) || (!p.numeric && p.meanLength > 40)) set(n, 'text', 'free text');
    // Named so, a metric with a stray text value is still one (the value is a warning, the row counts).
    else if (isPerSampleMetricName(n) && (numberLike(p.values) !== undefined || mostlyNumbers(p.values))) set(n, 'metric', 'named like a per-sample metric');
    else if (!p.numeric && p.distinct.size > 0 && p.distinct.size <= Math.max(2, p.filled / 2)) set(n, 'group', 'a few repeated values');
    else set(n, 'unknown', 'no role recognised');
  }

  // 6. Per-sample scores without a gold label (Ragas: faithfulness, answer_relevancy, ... per row):
  // every numeric column is a per-sample metric. Never where a column holds a prediction, a score or
  // a probability (predictions without their gold labels stay refused), nor where the user named a
  // value or gold column.
  let scorable = (mapping.gold !== undefined && (mapping.score !== undefined || mapping.pred !== undefined || !!classProbs || !!models?.length))
    || (mapping.confidence !== undefined && mapping.correct !== undefined);
  const roleOf = (n: string) => info.get(n)?.role;
  const userNamedValues = (['score', 'pred', 'confidence', 'correct', 'label', 'gold'] as MapField[]).some((f) => given[f] !== undefined);
  const valueRoles: ColumnRole[] = ['pred', 'score', 'classProb', 'modelScore', 'modelPred', 'confidence'];
  const predictionColumns = names.filter((n) => valueRoles.includes(roleOf(n)!));
  const goldIsText = mapping.gold !== undefined && isFreeText(prof(mapping.gold));
  let scores: string[] | undefined;
  if (!scorable && !predictionColumns.length && (mapping.gold === undefined || goldIsText)) {
    const metricCols = names.filter((n) => {
      const r = roleOf(n);
      if (r === 'metric' || r === 'correct') return true;
      return (r === 'unknown' || r === 'group') && !TIME_NAME.test(n.trim()) && numberLike(prof(n).values) === 'numbers';
    });
    // A judge's grades (score_turn1, avg_score: 1-10) are per-sample scores as a named metric is.
    const isGrade = (n: string) => GRADE_NAME.test(n.trim()) && !prof(n).probability;
    for (const n of metricCols) if (roleOf(n) !== 'metric' && roleOf(n) !== 'correct' && isGrade(n)) set(n, 'metric', "named like a judge's grade");
    if (metricCols.some((n) => roleOf(n) === 'metric' || roleOf(n) === 'correct')) {
      if (!userNamedValues) {
        scores = metricCols;
        for (const n of metricCols) set(n, 'metric', roleOf(n) === 'metric' ? 'named like a per-sample metric' : 'a per-sample number');
        if (mapping.gold !== undefined) {
          set(mapping.gold, 'text', 'the reference answer, free text (not a label)');
          delete mapping.gold;
        }
        delete mapping.correct;
        scorable = true;
      } else if (mapping.gold !== undefined && goldIsText) {
        missing.push(`${mapping.gold} holds free text (the reference answers: ${prof(mapping.gold).distinct.size} distinct values in ${prof(mapping.gold).filled} rows), not labels to score predictions against. The file is a table of per-sample scores (${listColumns(metricCols, 6)}): without --map, Eval Lens shows each one's mean.`);
      }
    }
  }

  // 7. What is missing, and the --map arguments that may score the table (most likely first). A
  // caller shows one only after scoring with it succeeded (generic.ts, tableRoles.ts).
  const hints: string[] = [];
  const hint = (fields: [MapField, string | undefined][]) => {
    const text = fields.filter(([, c]) => c !== undefined).map(([f, c]) => `--map ${f}=${mapArg(c!)}`).join(' ');
    if (!hints.includes(text)) hints.push(text);
  };
  const probabilityCols = names.filter((n) => roleOf(n) === 'unknown' && prof(n).probability);
  const confidenceCols = [...names.filter((n) => roleOf(n) === 'confidence'), ...probabilityCols];
  // Columns whose values are the gold's own values (nearly all of them, two or more): a prediction of it.
  const sameValues = (gold: string) => names.filter((n) => n !== gold && ['group', 'unknown', 'text', 'pred'].includes(roleOf(n) ?? '')
    && prof(n).distinct.size >= 2 && overlap(prof(n).distinct, prof(gold).distinct) >= 0.8 && (!prof(gold).binary || prof(n).binary));
  if (!scorable && !missing.length) {
    if (mapping.gold === undefined && mapping.correct === undefined) {
      // A 0/1 or class column that no name or content says is a prediction may be the gold; one
      // value on every row (HELM's train_trial_index, all 0) labels nothing, so it is none.
      const candidates = names.filter((n) => {
        const r = roleOf(n);
        return (!r || r === 'group' || r === 'unknown') && n !== '' && prof(n).distinct.size >= 2 && (prof(n).binary || r === 'group');
      });
      const valueCol = mapping.score ?? mapping.pred ?? probabilityCols[0];
      for (const g of candidates) {
        // A column of the probability columns' class names is their gold, once named so.
        if (classProbs && [...prof(g).distinct].every((v) => classProbs!.some((c) => norm(c.name) === v))) hint([['label', g]]);
        const asScore = valueCol !== undefined && (mapping.score !== undefined || prof(valueCol).probability);
        if (valueCol !== undefined && (!asScore || prof(g).binary)) hint([['label', g], [asScore ? 'score' : 'pred', valueCol]]);
        for (const p of sameValues(g)) {
          for (const c of confidenceCols.filter((c) => c !== p)) hint([['label', g], ['pred', p], ['confidence', c]]);
          hint([['label', g], ['pred', p]]);
        }
      }
      // After those: the prediction found by name: a column holding its values (answer beside model_answer) may be its gold.
      if (mapping.pred !== undefined) {
        for (const g of names.filter((n) => ['group', 'unknown', 'text'].includes(roleOf(n) ?? '') && n !== '' && overlap(prof(mapping.pred!).distinct, prof(n).distinct) >= 0.5)) hint([['label', g]]);
      }
      if (candidates.length) {
        missing.push('No column is named as the gold label.');
      } else {
        const preds2 = names.filter((n) => ['pred', 'modelPred', 'score', 'modelScore', 'classProb', 'confidence'].includes(roleOf(n) ?? ''));
        missing.push(`No column holds the gold label (the true answer): the columns are ${listColumns(names)}${preds2.length ? `, and ${preds2.join(', ')} ${preds2.length === 1 ? 'is a prediction or score' : 'are predictions or scores'}, not gold labels` : ''}. Add the gold labels to the file, or name their column with --map label=COLUMN.`);
      }
    } else if (mapping.gold !== undefined) {
      const gold = mapping.gold;
      const preds = sameValues(gold);
      for (const p of preds) {
        for (const c of confidenceCols.filter((c) => c !== p)) hint([['label', gold], ['pred', p], ['confidence', c]]);
        hint([['label', gold], ['pred', p]]);
      }
      for (const v of probabilityCols) hint([['label', gold], ['score', v]]);
      missing.push(`The gold label is ${gold}, but no column is named as a prediction or a score.`);
    } else {
      const conf = mapping.score ?? probabilityCols[0];
      if (conf !== undefined) hint([['confidence', conf], ['correct', mapping.correct!]]);
      missing.push(`${mapping.correct} holds correctness, but no column is named as the confidence.`);
    }
  }
  return {
    columns: names.map((n) => info.get(n)!), mapping,
    ...(classProbs ? { classProbs } : {}), ...(classCodes ? { classCodes } : {}), ...(models ? { models } : {}),
    ...(scores ? { scores } : {}),
    missing, ambiguous, notes, ...(hints.length ? { mapHint: hints[0], mapHints: hints } : {}),
  };
}

/** Share of a's values that b holds too (0 when a is empty). */
function overlap(a: Set<string>, b: Set<string>): number {
  if (!a.size) return 0;
  let k = 0;
  for (const v of a) if (b.has(v)) k++;
  return k / a.size;
}

/**
 * Every present value a number, a NaN or a missing marker (a JSON null, "", "nan", "None"):
 * 'numbers' when at least one is a finite number, 'empty' when none is; undefined when some value
 * is text.
 */
export function numberLike(values: unknown[]): 'numbers' | 'empty' | undefined {
  let finite = false;
  for (const v of values) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'number') { if (Number.isFinite(v)) finite = true; continue; }
    if (typeof v === 'boolean') { finite = true; continue; }
    if (typeof v !== 'string') return undefined;
    const t = readNumberText(v);
    if (t.kind === 'number') finite = true;
    else if (t.kind !== 'missing' && t.kind !== 'non-finite') return undefined;
  }
  return finite ? 'numbers' : 'empty';
}

/** At least half of the present values read as numbers. */
function mostlyNumbers(values: unknown[]): boolean {
  let numbers = 0, present = 0;
  for (const v of values) {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) continue;
    present++;
    if (typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && readNumberText(v).kind === 'number')) numbers++;
  }
  return present > 0 && numbers * 2 >= present;
}

/** Reference answers rather than labels: long texts, or mostly distinct values over many rows. */
function isFreeText(p: Profile): boolean {
  return !p.numeric && p.filled > 0 && (p.meanLength > 30 || (p.distinct.size >= 10 && p.distinct.size > p.filled / 2));
}

/** What a table holds, by role, in a sentence ("It holds predictions (x), confidences (a, b) and text (q)."). */
export function describeColumns(roles: ColumnRoles): string {
  const of = (rs: ColumnRole[]) => roles.columns.filter((c) => rs.includes(c.role)).map((c) => (c.column === '' ? '(unnamed)' : c.column));
  const parts: string[] = [];
  const add = (label: string, cols: string[]) => { if (cols.length) parts.push(`${label} (${listColumns(cols, 5)})`); };
  add('gold labels', of(['gold']));
  add(of(['pred', 'modelPred']).length === 1 ? 'a prediction' : 'predictions', of(['pred', 'modelPred']));
  add('scores or probabilities', of(['score', 'classProb', 'modelScore']));
  add(of(['confidence']).length === 1 ? 'a confidence' : 'confidences', of(['confidence']));
  add('correctness flags', of(['correct']));
  add('per-sample metrics', of(['metric']));
  add('text', of(['text']));
  add('other columns', of(['group', 'unknown']));
  if (!parts.length) return '';
  return `It holds ${parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`}.`;
}

/** What Eval Lens needs of a table it cannot score, in a sentence. */
const NEEDS = 'Eval Lens needs one row per prediction with its gold label: score + label (0/1), pred + label, or confidence + correct, found by name or given with --map FIELD=COLUMN; or per-sample metrics (faithfulness, bleu, ...) without a label.';

/**
 * The sentences for a table the roles cannot score: the summary reason, or what is missing, the
 * columns, and `hint` (a --map that scored the table when tried) or, when none did, what the file
 * holds and what Eval Lens would need.
 */
export function rolesMessage(roles: ColumnRoles, names: string[], hint?: string): string {
  if (roles.notPredictions) return roles.notPredictions;
  const parts = [...roles.missing, ...roles.ambiguous];
  if (!parts.some((p) => p.includes('the columns are'))) parts.push(`Columns: ${listColumns(names)}.`);
  if (hint) parts.push(`To score it, write: ${hint}`);
  else if (!parts.some((p) => /without --map|Add the gold labels/.test(p))) {
    // No --map scored it (or none could be proposed): what the file holds, and what would be needed.
    const holds = describeColumns(roles);
    if (holds) parts.push(holds);
    parts.push(NEEDS);
  }
  return parts.join(' ');
}
