// One lm-evaluation-harness sample line (--log_samples) as the shared SampleRecord. Multiple choice:
// each choice (the request's continuation without the target delimiter) with its probability, the
// softmax of the loglikelihoods as lm-eval's acc reads them (argmax), the gold choice from
// `target`. Generation: the model's raw output (resps), the answer the filter extracted from it
// (filtered_resps, what lm-eval scored) and the references. The doc is the metadata; every numeric
// per-sample field (acc, acc_norm, exact_match, …) a metric; the templated prompt the formatted input.
// The readers are lmEval.ts's own, so the sample view reads a line as the report scored it.
import { continuations, goldChoice, readLoglikelihood, readResponses, requestArguments, verdictOf, numericMetrics, withoutDelimiter, softmax } from '../formats/lmEval';
import { locateAnswer } from './answerSpan';
import type { SampleRecord } from './record';

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v);
}

/** doc fields that hold the question as the user wrote it (lmEval.ts reads the same ones first). */
const DOC_TEXT_KEYS = ['prompt', 'question', 'query', 'input', 'problem', 'text', 'ctx', 'context', 'sentence', 'premise', 'passage'];

export interface LmEvalContext {
  line: number;
  task?: string;
  /** The task's target_delimiter (results file), default " ". */
  delimiter?: string;
}

export function lmEvalSampleRecord(rec: Obj, ctx: LmEvalContext): SampleRecord {
  const doc = rec.doc;
  const record: SampleRecord = {
    sample_id: asText(rec.doc_id ?? `line ${ctx.line}`),
    line: ctx.line,
    ...(ctx.task ? { evaluation_name: ctx.task } : {}),
  };
  const args = requestArguments(rec);
  const prompt = typeof args[0]?.[0] === 'string' ? (args[0][0] as string) : undefined;
  const question = isObject(doc) ? DOC_TEXT_KEYS.map((k) => doc[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '') : undefined;
  const target = rec.target;
  record.input = {
    raw: question ?? prompt ?? (typeof doc === 'string' ? doc : ''),
    ...(prompt !== undefined && question !== undefined && prompt !== question ? { formatted: prompt } : {}),
    reference: Array.isArray(target) ? target.map(asText) : target === undefined || target === null ? [] : [asText(target)],
  };
  const { responses } = readResponses(rec);
  if (responses.kind === 'loglikelihood' && responses.values.length >= 2) {
    const lls = responses.values.map(readLoglikelihood);
    const cont = continuations(rec, lls.length);
    const delimiter = ctx.delimiter ?? ' ';
    const choices = cont ? cont.texts.map((c) => (cont.fromArgs ? withoutDelimiter(c, delimiter) : c)) : lls.map((_, j) => `choice ${j}`);
    record.input.choices = choices;
    if (lls.every((x): x is number => x !== undefined) && lls.some((x) => x > -Infinity)) {
      record.choiceProbs = softmax(lls);
      let pred = 0;
      for (let j = 1; j < lls.length; j++) if (lls[j] > lls[pred]) pred = j; // the first of equal maxima, as numpy
      record.predIndex = pred;
      record.answer = choices[pred];
      const acc = verdictOf(rec, 'acc');
      const gold = goldChoice(target, cont?.texts.map((c) => c.trim()), lls.length, pred, acc?.value);
      if ('index' in gold) record.goldIndex = gold.index;
      // The loglikelihoods themselves, for the reader who wants them (a probability of 0.00 may hide -40 or -400).
      record.metadata = { loglikelihoods: lls.map((x) => String(x)).join(', ') };
    }
  } else if (responses.kind === 'loglikelihood') {
    const ll = readLoglikelihood(responses.values[0]);
    record.metadata = { loglikelihood: String(ll), is_greedy: String(responses.greedy?.[0] ?? '') };
  } else if (responses.kind === 'generation') {
    // resps: what the model generated; filtered_resps: what the task's filter kept (the answer scored).
    const raw = Array.isArray(rec.resps) ? rec.resps.flat(2).filter((x): x is string => typeof x === 'string') : [];
    record.output = { raw: raw.length ? raw : [responses.text] };
    record.answer = responses.text.trim();
  }
  const verdict = verdictOf(rec);
  if (verdict) record.evaluation = { score: verdict.value, is_correct: verdict.value === 1 };
  const metrics = numericMetrics(rec);
  if (Object.keys(metrics).length) record.metrics = metrics;
  if (isObject(doc)) {
    const meta: Record<string, string> = { ...(record.metadata ?? {}) };
    for (const [k, v] of Object.entries(doc)) meta[`doc.${k}`] = typeof v === 'string' ? v : JSON.stringify(v);
    if (typeof rec.filter === 'string') meta.filter = rec.filter;
    record.metadata = meta;
  }
  const at = locateAnswer(record);
  if (at) record.answer_at = at;
  return record;
}
