// Judged scores (docs/metrics.md#judge_score): per model, the mean of its valid grades on the
// judge's own scale (never rescaled), per turn and per category, each with its standard error
// clustered by question (the turns of one question are answered by the same model in one
// conversation: not independent) and the t interval on questions - 1 degrees of freedom. Invalid
// grades (MT-Bench's -1) are not rows at all: left out, as FastChat's show_result.py drops them.
import { clusteredStderr, tInterval } from '../metrics/errorBars';
import type { JudgedMean, JudgedModel, JudgedRows, JudgedSummary } from './types';
import type { SampleRecord } from '../samples/record';
import { JudgedRowsBuilder } from './rows';

/** The mean, clustered SE and interval of the grades at `rows` (indices), clustered by question. */
export function judgedMean(score: Float64Array, question: Int32Array, rows: readonly number[]): JudgedMean {
  const n = rows.length;
  if (!n) return { n: 0, mean: null, se: null, interval: null, questions: 0 };
  const x = new Float64Array(n);
  const code = new Int32Array(n);
  const codes = new Map<number, number>();
  let sum = 0;
  rows.forEach((r, i) => {
    x[i] = score[r];
    sum += x[i];
    let c = codes.get(question[r]);
    if (c === undefined) { c = codes.size; codes.set(question[r], c); }
    code[i] = c;
  });
  const mean = sum / n;
  const se = clusteredStderr(x, { code, count: codes.size });
  return { n, mean, se, interval: se === null ? null : tInterval(mean, se, codes.size - 1), questions: codes.size };
}

/** Every model's judged scores (models in file order). */
export function judgedSummary(rows: JudgedRows): JudgedSummary {
  const byModel = rows.models.map(() => [] as number[]);
  for (let i = 0; i < rows.model.length; i++) byModel[rows.model[i]].push(i);
  const turns = [...new Set(rows.turn)].filter((t) => t > 0).sort((a, b) => a - b);
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of rows.score) { if (s < lo) lo = s; if (s > hi) hi = s; }
  const models: JudgedModel[] = rows.models.map((model, m) => {
    const mine = byModel[m];
    const counts = new Map<number, number>();
    for (const r of mine) counts.set(rows.score[r], (counts.get(rows.score[r]) ?? 0) + 1);
    return {
      model,
      ...judgedMean(rows.score, rows.question, mine),
      invalid: rows.invalid.byModel[m] ?? 0,
      turns: turns.map((turn) => ({ turn, ...judgedMean(rows.score, rows.question, mine.filter((r) => rows.turn[r] === turn)) })).filter((t) => t.n > 0),
      categories: (rows.categories ?? []).map((category, c) => ({ category, ...judgedMean(rows.score, rows.question, mine.filter((r) => rows.category![r] === c)) })).filter((t) => t.n > 0),
      distribution: [...counts].sort((a, b) => a[0] - b[0]).map(([score, count]) => ({ score, count })),
    };
  });
  return { models, range: rows.score.length ? [lo, hi] : null, ...(rows.categoriesPath ? { categoriesPath: rows.categoriesPath } : {}) };
}

/** The mean grade of the rows weighted by w (a bootstrap resample), for one model or all. */
export function weightedMeanScore(rows: JudgedRows, w: ArrayLike<number>, model?: number): number | null {
  let s = 0;
  let n = 0;
  for (let i = 0; i < rows.score.length; i++) {
    if (model !== undefined && rows.model[i] !== model) continue;
    s += w[i] * rows.score[i];
    n += w[i];
  }
  return n > 0 ? s / n : null;
}

/**
 * The judge rows of any harness's sample records whose judge gave a grade (SampleRecord.judgement:
 * promptfoo's `score`, Inspect's model-graded scores): the model is `model_id` (one unnamed model
 * when absent), the question `sample_id` (or `question(r)`), the turn `metadata.turn`. A record
 * whose grade is no finite number is an invalid verdict, counted apart: pass `records` with every
 * record, and keep in the set only those `valid(r)` says, so that the set's rows and these align.
 */
export function judgedRowsOf(
  records: readonly SampleRecord[], o: { invalidWhat: string; question?: (r: SampleRecord) => string },
): { rows: JudgedRows; valid: (r: SampleRecord) => boolean } {
  const b = new JudgedRowsBuilder(o.invalidWhat);
  const ok = new Set<SampleRecord>();
  for (const r of records) {
    const model = r.model_id ?? 'model';
    const score = r.judgement?.score;
    if (typeof score !== 'number' || !Number.isFinite(score)) { b.invalid(b.models.of(model), r.line); continue; }
    const turn = Number(r.metadata?.turn);
    b.add(model, o.question ? o.question(r) : r.sample_id, Number.isInteger(turn) && turn > 0 ? turn : 0, score, r.judgement?.judge);
    ok.add(r);
  }
  return { rows: b.build(), valid: (r) => ok.has(r) };
}
