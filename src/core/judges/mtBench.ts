// FastChat MT-Bench judgments (fastchat/llm_judge, gen_judgment.py → common.py):
// - `<judge>_single.jsonl` (play_a_match_single): question_id, model, judge [judge model, prompt
//   name], user_prompt, judgment (the judge's text), score (the [[rating]] parsed from it, -1 when
//   it could not be parsed), turn (1, or 2 for the multi-turn prompt), tstamp;
// - `<judge>_pair.jsonl` (play_a_match_pair): question_id, model_1, model_2, g1_winner and
//   g2_winner ("model_1", "model_2", "tie" or "error"; g2 is the swapped order, already mapped back
//   to the file's own order), judge, g1/g2_user_prompt, g1/g2_judgment, turn, tstamp. A pair judged
//   by a single-answer judge instead carries m1_score and m2_score and the same winner twice.
// Categories come from question.jsonl (question_id, category, turns) beside the judgments: in the
// same folder, or in the bench folder above model_judgment/ as FastChat lays them out.
import type { HarnessAdapter } from '../formats/adapters';
import type { FileInput, FormatContext } from '../formats/context';
import { sourceOf } from '../formats/context';
import { forEachJsonRecord } from '../formats/jsonl';
import { baseName, dirName, joinPath } from '../../common/paths';
import type { ParseResult, RowProblem } from '../types';
import type { SampleRecord } from '../samples/record';
import { JudgedRowsBuilder, PairRowsBuilder } from './rows';
import { clipText, codePoints, fatalResult, fieldProblem, idText, isObject, judgeName, judgeParse, type Json } from './readerCommon';

const SINGLE_KEYS = /"judgment"\s*:|"user_prompt"\s*:/;
const PAIR_KEYS = /"g1_winner"\s*:|"g1_judgment"\s*:/;

/**
 * A FastChat judgment file: its name (model_judgment/*_single.jsonl, *_pair.jsonl) or its keys. A
 * single-answer file needs no `judge` key: files written before FastChat added it (Arena-Hard-Auto's
 * first judgments, data/arena-bench-v1/model_judgment/) hold question_id, model, user_prompt,
 * judgment and score only.
 */
export function isMtBenchJudgment(path: string, head: string): boolean {
  if (!/"question_id"\s*:/.test(head)) return false;
  if (PAIR_KEYS.test(head) && /"model_1"\s*:/.test(head)) return true;
  if (!/"model"\s*:/.test(head)) return false;
  if (/"judge"\s*:/.test(head) && (SINGLE_KEYS.test(head) || /_single\.jsonl$/i.test(baseName(path)))) return true;
  return /"judgment"\s*:/.test(head) && /"user_prompt"\s*:/.test(head) && /"score"\s*:/.test(head);
}

export const mtBenchAdapter: HarnessAdapter = {
  format: 'mt-bench',
  detect: isMtBenchJudgment,
  parse: parseMtBench,
};

export function parseMtBench(input: FileInput, ctx: FormatContext): ParseResult {
  // The first record says which file this is (a pair file's records have model_1).
  let pair: boolean | undefined;
  forEachJsonRecord(sourceOf(input), (value) => {
    if (!isObject(value)) return true;
    pair = 'model_1' in value || 'g1_winner' in value;
    return false;
  });
  return pair ? parsePairs(input, ctx) : parseSingles(input, ctx);
}

// ------------------------------------------------------------------------------ single grades

const SINGLE_TEXTS = ['model', 'question_id', 'turn', 'score', 'user_prompt', 'judgment'];

function parseSingles(input: FileInput, ctx: FormatContext): ParseResult {
  const b = new JudgedRowsBuilder('score -1 or null (the judge\'s [[rating]] could not be parsed)');
  const problems: RowProblem[] = [];
  const records: SampleRecord[] = [];
  const textScores = { count: 0, first: 0 };
  const sampled = { count: 0, first: 0, sizes: new Set<number>(), partial: 0 };
  let skipped = 0;
  // The records are read whole first: a judgment given again later in the file (a re-run appended
  // to it) replaces the earlier one, which must then be in no figure, not even as an invalid verdict.
  const read: { value: unknown; line: number }[] = [];
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => { read.push({ value, line: span.line }); }, ctx.progress);
  if (scan.fatal) return fatalResult('mt-bench', scan.fatal, scan.problems);
  const replaced = rejudged(read);
  for (const { value, line } of read) {
    if (!isObject(value)) { problems.push({ line, severity: 'error', code: 'json-parse', message: `Line ${line}: a judgment record is a JSON object; this is ${Array.isArray(value) ? 'an array' : typeof value}. It is left out.` }); skipped++; continue; }
    const model = typeof value.model === 'string' && value.model ? value.model : undefined;
    const question = idText(value.question_id);
    if (model === undefined) { problems.push(fieldProblem(line, 'model', 'the name of the model judged', value.model)); skipped++; continue; }
    if (question === undefined) { problems.push(fieldProblem(line, 'question_id', 'the question\'s id', value.question_id)); skipped++; continue; }
    const turn = turnOf(value);
    const later = replaced.get(line);
    if (later !== undefined) {
      problems.push({
        line, severity: 'warning', code: 'duplicate-id',
        message: `Line ${line}: ${model} on question ${question}${turn ? `, turn ${turn}` : ''} is judged again on line ${later}; the later judgment is kept (gen_judgment.py appends a re-run to the file), so this one is left out.`,
      });
      skipped++;
      continue;
    }
    const m = b.models.of(model);
    // Some judge scripts write the rating as text ("8", "8.5"): read as the number it spells.
    const textual = typeof value.score === 'string' ? textScore(value.score) : undefined;
    if (textual !== undefined) { textScores.count++; textScores.first ||= line; }
    // Several answers per question (FastChat's --num-choices): forks that judge each write the
    // ratings as a list, one per answer ([6, 6, 4, 6, 4]; Liquid4All/mt_bench's run_judge_single):
    // the record's score is the mean of its ratings other than -1, and -1 when every rating is (then
    // it is invalid, as a single -1 is).
    const samples = sampleScores(value.score);
    if (samples) {
      if (!sampled.count++) sampled.first = line;
      sampled.sizes.add(samples.all);
      if (samples.valid.length && samples.valid.length < samples.all) sampled.partial++;
    }
    const score = samples ? (samples.valid.length ? samples.valid.reduce((a, x) => a + x, 0) / samples.valid.length : -1) : textual ?? value.score;
    // show_result.py drops score == -1; a score that is no number at all cannot be a verdict either.
    if (score === -1 || score === null || (typeof score === 'number' && !Number.isFinite(score))) { b.invalid(m, line); continue; }
    if (typeof score !== 'number') { problems.push(fieldProblem(line, 'score', 'the judge\'s rating (a number; -1 when it could not be parsed)', score)); skipped++; continue; }
    const judge = judgeName(value.judge);
    b.add(model, question, turn, score, judge, humanScore(value));
    records.push(singleRecord(value, line, model, question, turn, score, judge));
  }
  problems.unshift(...scan.problems);
  if (textScores.count) problems.push({ line: textScores.first, severity: 'info', code: 'not-a-number', message: `${textScores.count} scores are written as text ("8", from line ${textScores.first}): each is read as the number it spells.` });
  if (sampled.count) {
    problems.push({
      line: sampled.first, severity: 'info', code: 'filtered',
      message: `${sampled.count} judgments hold a list of ${[...sampled.sizes].join(' or ')} ratings, one per answer the model gave to the question (from line ${sampled.first}): each judgment's score is the mean of its ratings other than -1${sampled.partial ? ` (${sampled.partial} of them have some -1)` : ''}, and one whose every rating is -1 is invalid. A fork's own show_result.py may instead average each answer's run over the questions and then the runs, which differs only where some ratings are -1.`,
    });
  }
  const categories = questionCategories(input.path, ctx);
  const rows = b.build(categories);
  if (categories && !rows.categories) problems.push({ line: 1, severity: 'info', code: 'missing-field', path: categories.path, message: `${categories.path} names no category for the questions of this file: no per-category means.` });
  const ids = oneModel(rows.models) ? (r: SampleRecord) => r.sample_id : (r: SampleRecord) => `${r.model_id}/${r.sample_id}`;
  for (const r of records) r.sample_id = ids(r);
  return judgeParse('mt-bench', records, rows, {
    fields: SINGLE_TEXTS,
    of: (r) => [r.model_id ?? '', r.metadata?.question_id ?? '', r.metadata?.turn ?? '', String(r.judgement?.score ?? ''), clipText(r.input?.raw), clipText(r.judgement?.explanation)],
  }, { problems, skipped: skipped + scan.badRecords, ...(oneModel(rows.models) ? { sourceModel: rows.models[0] } : {}) });
}

function turnOf(value: Json): number {
  return typeof value.turn === 'number' && Number.isInteger(value.turn) && value.turn > 0 ? value.turn : 0;
}

/**
 * Judgments given more than once (the same model, question, turn and judge): each earlier line, and
 * the last line with that key, which is kept. FastChat's gen_judgment.py appends to its output, so a
 * re-run (often of the questions whose rating could not be parsed) comes after what it redoes.
 */
function rejudged(read: { value: unknown; line: number }[]): Map<number, number> {
  const last = new Map<string, number>();
  const keys = new Map<number, string>();
  for (const { value, line } of read) {
    if (!isObject(value) || typeof value.model !== 'string' || !value.model) continue;
    const question = idText(value.question_id);
    if (question === undefined) continue;
    const key = JSON.stringify([value.model, question, turnOf(value), judgeName(value.judge) ?? '']);
    last.set(key, line);
    keys.set(line, key);
  }
  const out = new Map<number, number>();
  for (const [line, key] of keys) if (last.get(key) !== line) out.set(line, last.get(key)!);
  return out;
}

function oneModel(models: string[]): boolean {
  return models.length === 1;
}

/** A human's grade beside the judge's (judge against humans), under one of the names people give it. */
function humanScore(value: Json): number | undefined {
  for (const key of ['human_score', 'human_rating', 'human']) {
    const v = value[key];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return undefined;
}

/** A text, or a list of texts (one per answer judged) each under a heading. */
function perAnswer(v: unknown, heading: string): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.length && v.every((x) => typeof x === 'string')) return (v as string[]).map((x, i) => `### ${heading} ${i + 1}\n\n${x}`).join('\n\n');
  return undefined;
}

/** A list of ratings, one per answer: every entry a number (or null, an unparsed one); the valid ones are those other than -1. */
function sampleScores(v: unknown): { all: number; valid: number[] } | undefined {
  if (!Array.isArray(v) || !v.length || !v.every((x) => x === null || (typeof x === 'number' && Number.isFinite(x)))) return undefined;
  return { all: v.length, valid: (v as (number | null)[]).filter((x): x is number => x !== null && x !== -1) };
}

function singleRecord(value: Json, line: number, model: string, question: string, turn: number, score: number, judge: string | undefined): SampleRecord {
  return {
    // Question and turn: the same sample in another model's file (compare aligns on it).
    sample_id: turn ? `${question}/${turn}` : question,
    line,
    model_id: model,
    input: { raw: perAnswer(value.user_prompt, 'Prompt') },
    // Several answers judged (a list of ratings): each prompt and judgment under its own heading.
    judgement: { judge, score, verdict: String(score), explanation: perAnswer(value.judgment, 'Judgment') },
    metadata: { question_id: question, turn: turn ? String(turn) : '' },
  };
}

/**
 * question.jsonl beside the judgments: question_id → category. FastChat keeps it in the bench
 * folder (data/mt_bench/question.jsonl) above model_judgment/; a copy in the same folder is read first.
 */
function questionCategories(path: string, ctx: FormatContext): { of: (q: string) => string | undefined; path: string } | undefined {
  const dir = dirName(path);
  for (const candidate of [joinPath(dir, 'question.jsonl'), joinPath(dirName(dir), 'question.jsonl')]) {
    if (candidate === path) continue;
    const text = ctx.io.readText(candidate);
    if (text === undefined) continue;
    const byId = new Map<string, string>();
    forEachJsonRecord(text, (value) => {
      if (!isObject(value)) return;
      const q = idText(value.question_id);
      if (q !== undefined && typeof value.category === 'string') byId.set(q, value.category);
    });
    return { of: (q) => byId.get(q), path: candidate };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------- pairs

const PAIR_TEXTS = ['model_1', 'model_2', 'question_id', 'turn', 'g1_winner', 'g2_winner', 'g1_user_prompt', 'g1_judgment', 'g2_judgment'];
const VERDICTS: Record<string, number> = { model_1: 1, model_2: 2, tie: 0 };

function parsePairs(input: FileInput, ctx: FormatContext): ParseResult {
  const b = new PairRowsBuilder('an "error" verdict in one order or both (the judge\'s [[A]]/[[B]]/[[C]] could not be read)');
  const problems: RowProblem[] = [];
  const records: SampleRecord[] = [];
  let skipped = 0;
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => {
    const line = span.line;
    if (!isObject(value)) { problems.push({ line, severity: 'error', code: 'json-parse', message: `Line ${line}: a judgment record is a JSON object; this is ${Array.isArray(value) ? 'an array' : typeof value}. It is left out.` }); skipped++; return; }
    const m1 = typeof value.model_1 === 'string' && value.model_1 ? value.model_1 : undefined;
    const m2 = typeof value.model_2 === 'string' && value.model_2 ? value.model_2 : undefined;
    const question = idText(value.question_id);
    if (m1 === undefined) { problems.push(fieldProblem(line, 'model_1', 'the name of the first model', value.model_1)); skipped++; return; }
    if (m2 === undefined) { problems.push(fieldProblem(line, 'model_2', 'the name of the second model', value.model_2)); skipped++; return; }
    if (question === undefined) { problems.push(fieldProblem(line, 'question_id', 'the question\'s id', value.question_id)); skipped++; return; }
    const g1 = value.g1_winner;
    const g2 = value.g2_winner === undefined ? g1 : value.g2_winner;
    for (const [field, v] of [['g1_winner', g1], ['g2_winner', g2]] as const) {
      if (v !== 'error' && !(typeof v === 'string' && v in VERDICTS)) {
        problems.push({ line, severity: 'error', code: 'bad-label', message: `Line ${line}: "${field}" holds ${JSON.stringify(v) ?? 'nothing'}; FastChat writes "model_1", "model_2", "tie" or "error". The record is left out.` });
        skipped++;
        return;
      }
    }
    const turn = typeof value.turn === 'number' && Number.isInteger(value.turn) && value.turn > 0 ? value.turn : 0;
    // A pair with an error verdict in either order is left out, as show_result.py drops it.
    if (g1 === 'error' || g2 === 'error') { b.invalid([b.models.of(m1), b.models.of(m2)], line); return; }
    const v1 = VERDICTS[g1 as string];
    const v2 = VERDICTS[g2 as string];
    // The two-order rule: a win only where both orders name the same winner; anything else is a tie.
    const outcome = v1 === v2 && v1 !== 0 ? (v1 === 1 ? 1 : 0) : 0.5;
    const prompt = typeof value.g1_user_prompt === 'string' ? value.g1_user_prompt : '';
    const lengths = answerLengths(prompt);
    const judge = judgeName(value.judge) ?? 'judge';
    b.add(m1, m2, outcome, { question, turn, judge, orders: [v1, v2], lengthA: lengths?.[0], lengthB: lengths?.[1] });
    records.push({
      sample_id: `${question}/${turn}/${m1}/${m2}`,
      line,
      input: { raw: prompt },
      judgement: { judge, verdict: `${g1} / ${g2}`, explanation: typeof value.g1_judgment === 'string' ? value.g1_judgment : undefined },
      metadata: {
        model_1: m1, model_2: m2, question_id: question, turn: turn ? String(turn) : '', g1_winner: String(g1), g2_winner: String(g2),
        g2_judgment: typeof value.g2_judgment === 'string' ? value.g2_judgment : '',
      },
    });
  }, ctx.progress);
  if (scan.fatal) return fatalResult('mt-bench', scan.fatal, scan.problems);
  problems.unshift(...scan.problems);
  const rows = b.build();
  return judgeParse('mt-bench', records, rows, {
    fields: PAIR_TEXTS,
    of: (r) => {
      const md = r.metadata ?? {};
      return [md.model_1 ?? '', md.model_2 ?? '', md.question_id ?? '', md.turn ?? '', md.g1_winner ?? '', md.g2_winner ?? '', clipText(r.input?.raw), clipText(r.judgement?.explanation), clipText(md.g2_judgment)];
    },
  }, { problems, skipped: skipped + scan.badRecords });
}

/**
 * The lengths of the two answers inside a pair prompt (FastChat's judge_prompts.jsonl): between
 * "[The Start of Assistant A's Answer]" and its end marker, or, in a multi-turn prompt, the last
 * "### Assistant A:" block of A's conversation (the turn being judged). Undefined when not found.
 */
export function answerLengths(prompt: string): [number, number] | undefined {
  const a = answerIn(prompt, 'A');
  const b = answerIn(prompt, 'B');
  return a === undefined || b === undefined ? undefined : [codePoints(a), codePoints(b)];
}

function answerIn(prompt: string, who: 'A' | 'B'): string | undefined {
  const start = `[The Start of Assistant ${who}'s Answer]\n`;
  const s = prompt.indexOf(start);
  if (s >= 0) {
    const e = prompt.indexOf(`\n[The End of Assistant ${who}'s Answer]`, s + start.length);
    return e >= 0 ? prompt.slice(s + start.length, e) : undefined;
  }
  const end = prompt.indexOf(`\n\n<|The End of Assistant ${who}'s Conversation with User|>`);
  if (end < 0) return undefined;
  const marker = `### Assistant ${who}:\n`;
  const last = prompt.lastIndexOf(marker, end);
  return last >= 0 ? prompt.slice(last + marker.length, end) : undefined;
}

/** A rating written as text: "8", " 8.5 ", "[[8]]", "8/10" (the number before the slash); undefined when it spells none. */
export function textScore(s: string): number | undefined {
  const m = /^\s*\[*\s*(-?\d+(?:\.\d+)?)\s*\]*\s*(?:\/\s*10\s*)?$/.exec(s);
  return m ? Number(m[1]) : undefined;
}
