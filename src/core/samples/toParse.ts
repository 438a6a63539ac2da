// From the one sample record to the columnar set the metrics read. Every harness adapter ends here,
// so a multiple-choice question, a pair of labels, a harness's own verdict and a bare per-sample
// score each become the same PredictionSet whichever harness wrote them.
import type { BinarySet, ConfidenceSet, MulticlassSet, ParseResult, ProbabilitySet, RowProblem, ScoresSet, FormatName } from '../types';
import type { SampleRecord } from './record';
import { AGENT_FIELDS, agentTexts, countsOfRecord, isAgentRun } from './agentColumns';

/** Longest text kept per field for the stepper and search (the file keeps the rest). */
export const MAX_TEXT = 4000;

export function clipText(s: string | undefined): string {
  if (!s) return '';
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s;
}

/** How the records say whether a sample is right. */
export type RecordMode =
  /** choices, the gold's index and each choice's probability (or the predicted index) */
  | 'choices'
  /** a gold label and a predicted label, compared as labels */
  | 'labels'
  /** the harness's own verdict (evaluation.is_correct): accuracy is the share of right verdicts */
  | 'verdict'
  /** per-sample numbers only (no gold): the figures are their means */
  | 'scores'
  /** a risk score and a 0/1 label per sample (SampleRecord.risk): the binary kind */
  | 'binary'
  /** a predicted and a true probability per sample (SampleRecord.probability): the probability kind */
  | 'probability'
  /** a stated confidence and the harness's verdict (evaluation.is_correct): the confidence kind; only when asked for */
  | 'confidence';

/** The richest mode every record supports. */
export function recordMode(records: readonly SampleRecord[]): RecordMode {
  if (records.length && records.every((r) => r.risk)) return 'binary';
  if (records.length && records.every((r) => r.probability)) return 'probability';
  if (records.length && records.every((r) => (r.input?.choices?.length && r.goldIndex !== undefined && (r.choiceProbs?.length || r.predIndex !== undefined)))) return 'choices';
  if (records.length && records.every((r) => r.gold !== undefined && r.pred !== undefined)) return 'labels';
  if (records.length && records.every((r) => typeof r.evaluation?.is_correct === 'boolean')) return 'verdict';
  return 'scores';
}

export interface RecordsToParseOptions {
  format: FormatName;
  task?: string;
  /** Force a mode (default: recordMode). */
  mode?: RecordMode;
  problems?: RowProblem[];
  skipped?: number;
  reported?: Record<string, number | null>;
  reportedPath?: string;
  sourceModel?: string;
  /** Text fields for the stepper, in order, read from each record (default: input, choices, reference, output, answer, explanation). */
  texts?: { fields: string[]; of: (r: SampleRecord) => string[] };
}

const DEFAULT_TEXTS = {
  fields: ['input', 'choices', 'reference', 'output', 'answer', 'explanation'],
  of: (r: SampleRecord): string[] => [
    clipText(r.input?.raw ?? r.messages?.find((m) => m.role === 'user')?.content),
    clipText((r.input?.choices ?? []).map((c, k) => `${String.fromCharCode(65 + (k % 26))}) ${c}`).join('\n')),
    clipText((r.input?.reference ?? []).join('\n')),
    clipText(r.output?.raw?.join('\n') ?? [...(r.messages ?? [])].reverse().find((m) => m.role === 'assistant')?.content),
    clipText(r.answer),
    clipText(r.judgement?.explanation),
  ],
};

/**
 * The ParseResult of a harness's records: the set of the richest mode all records support, the
 * per-sample metrics (every key of `metrics`, NaN where a record lacks it) as taskMetrics, the
 * stated confidences where every record has one.
 */
export function recordsToParse(records: readonly SampleRecord[], o: RecordsToParseOptions): ParseResult {
  const problems = o.problems ?? [];
  const base = {
    format: o.format, task: o.task, problems, skipped: o.skipped ?? 0, unlabeled: 0,
    ...(o.reported ? { reported: o.reported, reportedPath: o.reportedPath } : {}),
    ...(o.sourceModel ? { sourceModel: o.sourceModel } : {}),
  };
  if (!records.length) {
    const fatal = 'The file holds no sample that could be scored.';
    return { ...base, set: null, fatal };
  }
  const mode = o.mode ?? recordMode(records);
  const n = records.length;
  const lines = Uint32Array.from(records.map((r) => r.line));
  const ids = records.map((r) => r.sample_id);
  const texts = o.texts ?? DEFAULT_TEXTS;
  const textValues = { fields: texts.fields, values: records.map(texts.of) };
  // An agent run: each sample's turns, tool calls, tokens and tools as columns too (issue 29).
  const counts = records.map(countsOfRecord);
  if (isAgentRun(counts) && !AGENT_FIELDS.some((f) => textValues.fields.includes(f))) {
    textValues.fields = [...textValues.fields, ...AGENT_FIELDS];
    textValues.values.forEach((row, i) => row.push(...agentTexts(counts[i])));
  }
  const taskMetrics = perSampleMetrics(records);
  const extra = taskMetrics.length ? { taskMetrics } : {};
  if (mode === 'scores') {
    const set: ScoresSet = { kind: 'scores', n, lines, ids, texts: textValues };
    return { ...base, set, ...extra };
  }
  if (mode === 'choices') return { ...base, set: choiceSet(records, lines, ids, textValues), ...extra };
  if (mode === 'binary') {
    const set: BinarySet = {
      kind: 'binary', n, lines, ids,
      score: Float64Array.from(records, (r) => r.risk!.score),
      label: Uint8Array.from(records, (r) => r.risk!.label),
    };
    if (records.every((r) => r.risk!.pred !== undefined)) set.pred = Uint8Array.from(records, (r) => r.risk!.pred!);
    return { ...base, set, ...extra };
  }
  if (mode === 'probability') {
    const set: ProbabilitySet = {
      kind: 'probability', n, lines, ids, texts: textValues,
      predProb: Float64Array.from(records, (r) => r.probability!.pred),
      goldProb: Float64Array.from(records, (r) => r.probability!.gold),
    };
    return { ...base, set, ...extra };
  }
  if (mode === 'confidence') {
    const set: ConfidenceSet = {
      kind: 'confidence', n, lines, ids,
      confidence: Float64Array.from(records, (r) => r.confidence ?? NaN),
      correct: Uint8Array.from(records, (r) => (r.evaluation?.is_correct ? 1 : 0)),
    };
    return { ...base, set, ...extra };
  }
  // labels and verdicts: classes named by the texts.
  const classes: string[] = [];
  const index = new Map<string, number>();
  const classOf = (name: string) => {
    let k = index.get(name);
    if (k === undefined) { k = classes.length; classes.push(name); index.set(name, k); }
    return k;
  };
  const gold = new Int32Array(n);
  const pred = new Int32Array(n);
  records.forEach((r, i) => {
    if (mode === 'labels') {
      gold[i] = classOf(r.gold!);
      pred[i] = classOf(r.pred!);
      return;
    }
    // A verdict decides, not string equality: a wrong answer that reads like the reference is named apart.
    const ref = r.gold ?? r.input?.reference?.[0] ?? '(reference)';
    gold[i] = classOf(ref);
    const answer = r.answer ?? r.pred ?? r.output?.raw?.[0] ?? '(no answer)';
    pred[i] = r.evaluation!.is_correct ? gold[i] : classOf(answer === ref ? `${answer} (judged wrong)` : answer);
  });
  const set: MulticlassSet = { kind: 'multiclass', n, lines, ids, classes, classesKnown: false, gold, pred, texts: textValues };
  const confidence = records.map((r) => r.confidence);
  if (confidence.every((c) => typeof c === 'number' && c >= 0 && c <= 1)) set.confidence = Float64Array.from(confidence as number[]);
  if (mode === 'verdict' || looksLikeFreeText(records, gold, pred)) {
    set.freeText = {
      reason: mode === 'verdict' ? 'Each sample is graded by the harness itself' : `The answers are free text, not labels (${new Set(gold).size} distinct references in ${n} samples)`,
      keepAccuracy: true,
    };
  }
  return { ...base, set, ...extra };
}

/** More distinct references or answers than half the samples, on enough samples, or answers that read as prose. */
function looksLikeFreeText(records: readonly SampleRecord[], gold: Int32Array, pred: Int32Array): boolean {
  const n = records.length;
  const prose = (t: string | undefined) => !!t && (t.length > 40 || t.trim().split(/\s+/).length >= 4);
  const many = new Set(gold).size > n / 2 || new Set(pred).size > n / 2;
  return many && (n >= 10 || records.some((r) => prose(r.gold) || prose(r.pred)));
}

function choiceSet(records: readonly SampleRecord[], lines: Uint32Array, ids: string[], texts: { fields: string[]; values: string[][] }): MulticlassSet {
  const n = records.length;
  const k = records.reduce((m, r) => Math.max(m, r.input?.choices?.length ?? r.choiceProbs?.length ?? 0), 0);
  const first = records[0].input?.choices;
  // Choice texts name the classes only when every sample offers the same short, distinct choices.
  const same = !!first && first.length === k && new Set(first).size === k && first.every((c) => c !== '' && c.length <= 40)
    && records.every((r) => r.input?.choices?.length === k && r.input.choices.every((x, j) => x === first[j]));
  const classes = same ? [...first] : Array.from({ length: k }, (_, j) => String(j));
  const gold = new Int32Array(n);
  const pred = new Int32Array(n);
  const haveProbs = records.every((r) => r.choiceProbs?.length);
  const probs = haveProbs ? new Float64Array(n * k) : undefined;
  const confidence = haveProbs ? new Float64Array(n) : undefined;
  records.forEach((r, i) => {
    gold[i] = r.goldIndex ?? -1;
    let p = r.predIndex;
    if (haveProbs) {
      const ps = r.choiceProbs!;
      ps.forEach((v, j) => { probs![i * k + j] = v; });
      // The first of equal maxima, as numpy's argmax (lm-eval, lighteval) takes it.
      if (p === undefined) { p = 0; for (let j = 1; j < ps.length; j++) if (ps[j] > ps[p]) p = j; }
      confidence![i] = ps[p];
    }
    pred[i] = p ?? -1;
  });
  const set: MulticlassSet = { kind: 'multiclass', n, lines, ids, classes, classesKnown: true, gold, pred, texts };
  if (probs) { set.probs = probs; set.confidence = confidence; }
  return set;
}

/** Each per-sample metric by name, in the order first seen; NaN where a record lacks it. */
function perSampleMetrics(records: readonly SampleRecord[]): NonNullable<ParseResult['taskMetrics']> {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const r of records) for (const name of Object.keys(r.metrics ?? {})) if (!seen.has(name)) { seen.add(name); names.push(name); }
  return names.map((name) => ({
    name,
    values: Float64Array.from(records, (r) => {
      const v = r.metrics?.[name];
      return typeof v === 'number' ? v : NaN;
    }),
  }));
}

/** Softmax of log-probabilities (lighteval's, lm-eval's loglikelihoods), stable for large magnitudes. */
export function softmax(logprobs: readonly number[]): number[] {
  const m = Math.max(...logprobs);
  const e = logprobs.map((l) => Math.exp(l - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}
