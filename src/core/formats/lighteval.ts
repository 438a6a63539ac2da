// lighteval details (huggingface/lighteval): `details_<task>|<fewshot>_<date_id>.parquet`, or the
// same rows as JSON Lines / a JSON array (lighteval's push_details_to_hub writes JSON Lines, and
// people save them as JSON). Each row is read into the one sample record (lightevalDetails.ts
// knows the shapes), then:
//  - a log-likelihood task (choices, one log-probability per choice) is multiple choice: the
//    probabilities are the softmax of model_response.logprobs over the choices, the prediction their
//    argmax (numpy's, the first of equal maxima, as lighteval's loglikelihood_acc takes it), the gold
//    doc.gold_index; accuracy, macro-F1, the multiclass Brier and log_loss follow as for lm-eval;
//  - a generative task is scored by the harness's own 0/1 verdict (extractive_match, em, ...);
//  - with neither, the per-sample metrics alone are the figures.
// Every per-sample metric is shown by its name (taskMetrics), with the figure of the run's
// results_<date_id>.json beside it (lightevalResults.ts). Parquet files arrive here as JSON Lines
// (scoreAsync.ts reads their columns to know they are lighteval's; parquet.ts writes the rows).
import type { ParseResult, RowProblem } from '../types';
import type { HarnessAdapter } from './adapters';
import type { FileInput, FormatContext } from './context';
import { sourceOf } from './context';
import { stripBom } from './csv';
import { forEachJsonRecord } from './jsonl';
import { MAX_PROBLEMS, moreProblems } from '../problemCap';
import type { SampleRecord } from '../samples/record';
import { clipText, recordsToParse, softmax } from '../samples/toParse';
import { isLightevalRecord, readDetail, type LightevalRow } from './lightevalDetails';
import { detailsName, lightevalResults } from './lightevalResults';

/** Per-sample 0/1 verdicts of generative tasks, in the order they are trusted (lighteval metric names). */
const VERDICT_METRICS = ['extractive_match', 'em', 'exact_match', 'quasi_exact_match', 'qem', 'pem', 'pqem', 'acc'];

/** A JSON head whose first record is a 0.11+ details row: {"doc": {"query": …, "choices": …, "gold_index": …}, …}. */
const STRUCT_HEAD = /^\s*\[?\s*\{\s*"doc"\s*:\s*\{/;
/** The flat Detail of 0.3-0.10 (sorted columns: choices, cont_tokens, example, full_prompt, gold, gold_index, …). */
const FLAT_KEYS = [/"full_prompt"\s*:/, /"example"\s*:/, /"(choices|gold_index)"\s*:/, /"cont_tokens"\s*:|"predictions"\s*:/];

export function isLightevalDetailsHead(path: string, head: string): boolean {
  if (!/\.(jsonl|json|ndjson)$/i.test(path)) return false;
  const text = stripBom(head);
  if (STRUCT_HEAD.test(text)) return /"(query|gold_index)"\s*:/.test(text);
  return /^\s*\[?\s*\{/.test(text) && FLAT_KEYS.every((re) => re.test(text));
}

export const lightevalAdapter: HarnessAdapter = {
  format: 'lighteval',
  detect: isLightevalDetailsHead,
  parse: parseLighteval,
};

interface ReadRow { row: LightevalRow; line: number; index: number }

function parseLighteval(input: FileInput, ctx: FormatContext): ParseResult {
  const problems: RowProblem[] = [];
  let omitted = 0;
  const problem = (p: RowProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
    else omitted++;
  };
  const rows: ReadRow[] = [];
  let index = 0;
  let skipped = 0;
  const take = (value: unknown, line: number) => {
    const at = index++;
    const read = readDetail(value);
    if ('problem' in read) {
      problem({ line, severity: 'error', code: 'missing-field', message: `${read.problem}; the sample is skipped.` });
      skipped++;
      return;
    }
    rows.push({ row: read.row, line, index: at });
  };
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => {
    // A JSON document wrapping the rows ({"config_general": …, "details": [...]}) holds them under "details".
    if (!isLightevalRecord(value) && isWrapper(value)) {
      for (const v of (value as { details: unknown[] }).details) take(v, span.line);
      return;
    }
    take(value, span.line);
  }, ctx.progress);
  problems.unshift(...scan.problems);
  skipped += scan.badRecords;
  if (scan.fatal) return fail(scan.fatal, problems);

  const named = detailsName(input.path);
  const task = named?.task ?? rows.find((r) => r.row.taskName)?.row.taskName;
  const results = named && task ? lightevalResults(input.path, task, named.timestamp, ctx) : undefined;

  const choiceRows = rows.filter((r) => choiceReady(r.row));
  const mode = choiceRows.length && choiceRows.length >= rows.length - choiceRows.length ? 'choices' : 'generative';
  const records: SampleRecord[] = [];
  let multiGold = 0;
  let firstMultiGold = 0;
  let verdictKey: string | undefined;

  if (mode === 'choices') {
    for (const r of rows) {
      const bad = choiceProblem(r.row);
      if (bad) {
        problem({ line: r.line, severity: 'error', code: bad.code, message: `${bad.message}; the sample is skipped.` });
        skipped++;
        continue;
      }
      const { row } = r;
      const k = row.choices.length;
      // lighteval's loglikelihood_acc reads the first len(choices) logprobs (PMI tasks append the unconditioned ones).
      const logprobs = row.logprobs!.slice(0, k);
      const pred = argmax(logprobs);
      // Several golds (doc.gold_index a list): the sample is right when the top choice is one of them,
      // as lighteval's acc says; the gold it is scored against is the one the model ranks highest.
      let gold = row.golds[0];
      if (row.golds.length > 1) {
        gold = row.golds.includes(pred) ? pred : row.golds.reduce((best, g) => (logprobs[g] > logprobs[best] ? g : best), row.golds[0]);
        if (!multiGold++) firstMultiGold = r.line;
      }
      const acc = row.metrics.acc;
      if (acc !== undefined && (acc === 1 || acc === 0) && acc !== (row.golds.includes(pred) ? 1 : 0)) {
        problem({
          line: r.line, severity: 'warning', code: 'reported-mismatch',
          message: `lighteval's acc is ${acc}, but the choice with the highest log-probability (${pred}) ${row.golds.includes(pred) ? 'is' : 'is not'} a gold choice (${row.golds.join(', ')}).`,
        });
      }
      records.push({
        ...base(r), goldIndex: gold, predIndex: pred, choiceProbs: softmax(logprobs),
        input: { raw: row.query, choices: row.choices, reference: row.golds.map((g) => row.choices[g]) },
      });
    }
  } else {
    verdictKey = verdictMetric(rows.map((r) => r.row));
    for (const r of rows) {
      const { row } = r;
      const verdict = verdictKey === undefined ? undefined : row.metrics[verdictKey];
      records.push({
        ...base(r),
        input: { raw: row.query, choices: row.choices, reference: row.golds.filter((g) => g < row.choices.length).map((g) => row.choices[g]) },
        output: { raw: row.texts },
        ...(row.texts.length ? { answer: row.texts[0] } : {}),
        ...(verdict === 0 || verdict === 1 ? { evaluation: { is_correct: verdict === 1, score: verdict } } : {}),
      });
    }
  }
  if (multiGold) {
    problem({
      line: firstMultiGold, severity: 'info', code: 'undefined-metric',
      message: `${multiGold} sample${multiGold === 1 ? ' has' : 's have'} several gold choices (doc.gold_index is a list): a sample is right when its top choice is one of them (lighteval's acc), and Brier and log loss use the probability of the gold choice the model ranks highest.`,
    });
  }
  if (omitted) problems.push(moreProblems(problems, omitted));
  if (!records.length) return fail(rows.length ? 'No sample of the file could be scored; see the problems.' : 'The file holds no lighteval details row.', problems, skipped);

  const accuracyKey = mode === 'choices' ? 'acc' : verdictKey;
  const reported = results ? reportedFigures(results.figures, accuracyKey) : undefined;
  const parsed = recordsToParse(records, {
    format: 'lighteval', task, problems, skipped,
    mode: mode === 'choices' ? 'choices' : verdictKey !== undefined ? 'verdict' : 'scores',
    ...(reported ? { reported, reportedPath: results!.path } : {}),
    ...(results?.model ? { sourceModel: results.model } : {}),
    texts: {
      fields: ['query', 'choices', 'gold', 'response'],
      of: (rec) => [
        clipText(rec.input?.raw),
        clipText((rec.input?.choices ?? []).map((c, j) => `${j}: ${c}`).join('\n')),
        clipText((rec.input?.reference ?? []).join('\n')),
        clipText(rec.output?.raw?.join('\n')),
      ],
    },
  });
  if (results && parsed.taskMetrics) {
    for (const m of parsed.taskMetrics) if (m.name in results.figures) m.reported = results.figures[m.name];
  }
  return parsed;
}

function base(r: ReadRow): SampleRecord {
  return { sample_id: r.row.id ?? String(r.index), line: r.line, metrics: r.row.metrics, ...(r.row.taskName ? { evaluation_name: r.row.taskName } : {}) };
}

function isWrapper(v: unknown): boolean {
  return typeof v === 'object' && v !== null && Array.isArray((v as { details?: unknown }).details);
}

/**
 * A multiple-choice row: two or more choices and a log-probability for each (twice as many for PMI,
 * the unconditioned ones after), unless the doc says it was generated.
 */
function choiceReady(row: LightevalRow): boolean {
  const k = row.choices.length;
  const n = row.logprobs?.length ?? 0;
  return !row.generative && k >= 2 && (n === k || n === 2 * k);
}

/** Why a row cannot be scored as multiple choice, or undefined. */
function choiceProblem(row: LightevalRow): { code: RowProblem['code']; message: string } | undefined {
  const k = row.choices.length;
  if (k < 2) return { code: 'missing-field', message: `The sample has ${k} choice${k === 1 ? '' : 's'}, and this file's samples are multiple choice` };
  const n = row.logprobs?.length ?? 0;
  if (row.generative) return { code: 'missing-field', message: 'doc.sampling_methods says the sample was generated, and this file\'s samples are multiple choice' };
  if (n !== k && n !== 2 * k) return { code: 'missing-field', message: `model_response.logprobs has ${n} value${n === 1 ? '' : 's'} for ${k} choices` };
  const lps = row.logprobs!.slice(0, k);
  if (lps.some((x) => Number.isNaN(x) || x === Infinity)) return { code: 'not-finite', message: `A choice's log-probability is ${lps.find((x) => Number.isNaN(x) || x === Infinity)}` };
  if (lps.every((x) => x === -Infinity)) return { code: 'not-finite', message: 'Every choice has log-probability -inf' };
  const out = row.golds.find((g) => g >= k);
  if (out !== undefined) return { code: 'unknown-class', message: `doc.gold_index ${out} is not one of its ${k} choices` };
  return undefined;
}

/** numpy's argmax: the first of equal maxima. */
function argmax(xs: readonly number[]): number {
  let best = 0;
  for (let j = 1; j < xs.length; j++) if (xs[j] > xs[best]) best = j;
  return best;
}

/** The 0/1 per-sample metric every row logs that says whether a generation is right, if any. */
function verdictMetric(rows: readonly LightevalRow[]): string | undefined {
  const zeroOne = (name: string) => rows.length > 0 && rows.every((r) => r.metrics[name] === 0 || r.metrics[name] === 1);
  return VERDICT_METRICS.find(zeroOne);
}

/** The results file's figures for the report: the accuracy metric as `accuracy`, the rest under their names. */
function reportedFigures(figures: Record<string, number | null>, accuracyKey: string | undefined): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [name, value] of Object.entries(figures)) out[name === accuracyKey ? 'accuracy' : name] = value;
  return out;
}

function fail(message: string, problems: RowProblem[], skipped = 0): ParseResult {
  return { format: 'lighteval', set: null, problems: [...problems, { line: 1, severity: 'error', code: 'unscorable', message }], skipped, unlabeled: 0, fatal: message };
}
