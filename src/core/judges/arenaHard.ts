// Arena-Hard-Auto judgments (lmarena/arena-hard-auto, gen_judgment.py):
// data/<bench>/model_judgment/<judge>/<model>.jsonl, one record per question and model, each with two
// "games": the judge compares the model's answer with the baseline's answer twice, once in each
// order. Game 1 shows the baseline as Assistant A and the model as B; game 2 swaps them. Each game's
// `score` is the label parsed from the judge's verdict: "A>>B", "A>B", "A=B", "B>A", "B>>A" (v2.0's
// show_result.py also maps "A<B", "A<<B", "B<A", "B<<A", "B=A").
// - v0.1 (2024): {question_id, model, judge, games: [{user_prompt, judgment, score}, ...]}; the
//   baseline is not in the record but in config/judge_config.yaml's baseline_model (gpt-4-0314 by
//   default). Its show_result.py turns each game into battles against the baseline, a strong
//   verdict (">>") counting three, a game with any other label (or none) none, and fits
//   Bradley–Terry; against the baseline alone that is the model's share of the battles.
// - v2.0 (2025): {uid, category, judge, model, baseline, games: [{score, judgment, prompt}, ...]}; a
//   game may be null. Its show_result.py drops a question whose either game (or score) is null, and
//   scores the model by the mean of the exploded battle scores (a strong verdict three times).
// Forks write the label in brackets ("[A=B]", arena-hard-local, whose show_result.py strips them)
// or in lower case (it upper-cases): both are read as the label they spell. An ensemble of judges
// (ko-arena-hard-auto's gen_ensemble_judgment.py) writes games with a score only.
//
// Each valid game is a row of PairRows (a = the model, b = the baseline, outcome = the model's score:
// 1 a win, 0.5 a tie, 0 a loss; weight 3 for a strong verdict; order: which answer was shown first),
// so the win rate against the baseline, position bias, ratings over several models and the stepper
// come from the shared judge code (pairwise.ts, bradleyTerry.ts).
import type { HarnessAdapter } from '../formats/adapters';
import type { FileInput, FormatContext } from '../formats/context';
import { sourceOf } from '../formats/context';
import { forEachJsonRecord } from '../formats/jsonl';
import { baseName, dirName, joinPath } from '../../common/paths';
import type { ParseResult, RowProblem } from '../types';
import type { SampleRecord } from '../samples/record';
import { PairRowsBuilder } from './rows';
import { clipText, codePoints, fatalResult, fieldProblem, idText, isObject, judgeName, judgeParse, type Json } from './readerCommon';

/** Arena-Hard-Auto's records: a model, a question (question_id or uid) and a list of games. */
export function isArenaHardJudgment(_path: string, head: string): boolean {
  return /"games"\s*:\s*\[/.test(head) && /"model"\s*:/.test(head) && /"(question_id|uid)"\s*:/.test(head);
}

export const arenaHardAdapter: HarnessAdapter = {
  format: 'arena-hard',
  detect: isArenaHardJudgment,
  parse: parseArenaHard,
};

/** Strong verdicts count as this many battles (show_result.py's --weight / weight=3). */
export const STRONG_WEIGHT = 3;

/** Each label: Assistant A's score and how many battles it counts for (v2.0's label_to_score; v0.1's five are among them). */
const LABELS: Record<string, [number, number]> = {
  'A>B': [1, 1], 'A>>B': [1, STRONG_WEIGHT], 'A=B': [0.5, 1], 'A<<B': [0, STRONG_WEIGHT], 'A<B': [0, 1],
  'B>A': [0, 1], 'B>>A': [0, STRONG_WEIGHT], 'B=A': [0.5, 1], 'B<<A': [1, STRONG_WEIGHT], 'B<A': [1, 1],
};

/** A game's label as the judge wrote it, read: upper case, brackets around it dropped (forks write "[A=B]"). */
export function readLabel(score: unknown): { label: string; a: number; weight: number; bracketed: boolean } | undefined {
  if (typeof score !== 'string') return undefined;
  const upper = score.trim().toUpperCase();
  const bare = upper.replace(/^\[+/, '').replace(/\]+$/, '').trim();
  const hit = LABELS[bare];
  return hit ? { label: bare, a: hit[0], weight: hit[1], bracketed: bare !== upper } : undefined;
}

const TEXTS = ['model', 'baseline', 'question_id', 'game', 'score', 'category', 'user_prompt', 'judgment'];

export function parseArenaHard(input: FileInput, ctx: FormatContext): ParseResult {
  // v2.0 records name their baseline (and uid, category); v0.1 records do not.
  let v2 = false;
  forEachJsonRecord(sourceOf(input), (value) => {
    if (!isObject(value)) return true;
    v2 = 'baseline' in value || 'uid' in value;
    return false;
  });
  const b = new PairRowsBuilder(v2
    ? 'unreadable: a null game or score, or a label other than A>>B, A>B, A=B, B>A, B>>A (and A<B, A<<B, B<A, B<<A, B=A), in one game or both, so the question is left out whole, as Arena-Hard-Auto v2.0\'s show_result.py drops it'
    : 'unreadable: no game, no score, or a label other than A>>B, A>B, A=B, B>A, B>>A (and A<B, A<<B, B<A, B<<A, B=A); as Arena-Hard-Auto v0.1\'s show_result.py, such a game counts for no battle and its question\'s other game still counts');
  const problems: RowProblem[] = [];
  const records: SampleRecord[] = [];
  const configured = v2 ? undefined : baselineFromConfig(input.path, ctx);
  const unknownLabels = new Map<string, number>();
  let skipped = 0;
  let bracketed = 0;
  let selfGames = 0;
  let firstSelf = 0;
  let extraGames = 0;
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => {
    const line = span.line;
    if (!isObject(value)) { problems.push({ line, severity: 'error', code: 'json-parse', message: `Line ${line}: a judgment record is a JSON object; this is ${Array.isArray(value) ? 'an array' : typeof value}. It is left out.` }); skipped++; return; }
    const model = typeof value.model === 'string' && value.model ? value.model : undefined;
    const question = idText(value.uid) ?? idText(value.question_id);
    if (model === undefined) { problems.push(fieldProblem(line, 'model', 'the name of the model judged', value.model)); skipped++; return; }
    if (question === undefined) { problems.push(fieldProblem(line, v2 ? 'uid' : 'question_id', 'the question\'s id', value.uid ?? value.question_id)); skipped++; return; }
    const listed: unknown = value.games;
    if (!Array.isArray(listed)) { problems.push(fieldProblem(line, 'games', 'the list of the two games', listed)); skipped++; return; }
    const baseline = (typeof value.baseline === 'string' && value.baseline) || configured?.name || 'baseline';
    if (baseline === model) {
      // The baseline's own file judges it against itself: no comparison (Arena-Hard-Auto's fit gives it no weight either).
      selfGames += listed.length;
      firstSelf ||= line;
      return;
    }
    if (listed.length > 2) extraGames++;
    const games = [0, 1].map((k) => gameOf(listed[k]));
    for (const g of games) {
      if (g?.label === undefined && g?.raw !== undefined) unknownLabels.set(g.raw, (unknownLabels.get(g.raw) ?? 0) + 1);
    }
    const pair = [b.models.of(model), b.models.of(baseline)];
    const readable = games.map((g) => g?.label !== undefined);
    if (v2 && !(readable[0] && readable[1])) {
      b.invalid(pair, line);
      b.invalid(pair, line);
      return;
    }
    const judge = judgeName(value.judge) ?? 'judge';
    const category = typeof value.category === 'string' ? value.category : '';
    games.forEach((g, k) => {
      if (!g || g.label === undefined) { b.invalid(pair, line); return; }
      if (g.label.bracketed) bracketed++;
      // Game 1: A is the baseline, B the model; game 2: A is the model.
      const modelScore = k === 0 ? 1 - g.label.a : g.label.a;
      const lengths = answerLengths(g.prompt);
      b.add(model, baseline, modelScore, {
        question, turn: 0, judge, weight: g.label.weight, order: k === 0 ? 2 : 1, ...(category ? { category } : {}),
        // a is the model: in game 1 its answer is B's.
        lengthA: lengths ? lengths[k === 0 ? 1 : 0] : undefined, lengthB: lengths ? lengths[k === 0 ? 0 : 1] : undefined,
      });
      records.push({
        sample_id: `${question}/game ${k + 1}`,
        line,
        model_id: model,
        input: { raw: questionOf(g.prompt) },
        judgement: { judge, score: modelScore, verdict: g.label.label, ...(g.judgment ? { explanation: g.judgment } : {}) },
        metadata: { model, baseline, question_id: question, game: String(k + 1), score: String(g.raw), category, user_prompt: g.prompt },
      });
    });
  }, ctx.progress);
  if (scan.fatal) return fatalResult('arena-hard', scan.fatal, scan.problems);
  problems.unshift(...scan.problems);
  if (!records.length && selfGames && !b.invalidVerdicts.count) {
    const name = configured?.name ?? 'the baseline';
    return { ...fatalResult('arena-hard', `Every record judges ${name} against itself (the baseline's own file, from line ${firstSelf}): there is no comparison to score. Score the files of the models judged against it.`, problems), skipped, kind: 'scores' };
  }
  const rows = b.build();
  if (new Set(rows.models.filter((_, k) => rows.a.includes(k))).size > 1) {
    for (const r of records) r.sample_id = `${r.model_id}/${r.sample_id}`;
  }
  if (unknownLabels.size) {
    const listed = [...unknownLabels.entries()].sort((x, y) => y[1] - x[1]).slice(0, 5).map(([l, c]) => `${JSON.stringify(l)} (${c})`).join(', ');
    problems.push({ line: 1, severity: 'warning', code: 'bad-label', message: `Labels Arena-Hard-Auto does not read: ${listed}${unknownLabels.size > 5 ? ', …' : ''}. Those games count for no battle.` });
  }
  if (bracketed) problems.push({ line: 1, severity: 'info', code: 'bad-label', message: `${bracketed} verdicts are written in brackets ("[A>B]") or lower case: each is read as the label it spells, as arena-hard-local's show_result.py strips the brackets.` });
  if (selfGames) problems.push({ line: firstSelf, severity: 'info', code: 'filtered', message: `${selfGames} games judge the baseline against itself (from line ${firstSelf}): no comparison, so they are left out.` });
  if (extraGames) problems.push({ line: 1, severity: 'warning', code: 'bad-label', message: `${extraGames} records hold more than two games; Arena-Hard-Auto reads the first two, and so does Eval Lens.` });
  if (!v2) {
    problems.push({
      line: 1, severity: 'info', code: 'missing-field',
      message: configured
        ? `The records do not name the baseline; ${configured.path} does (baseline_model: ${configured.name}).`
        : 'The records do not name the baseline (Arena-Hard-Auto v0.1 keeps it in config/judge_config.yaml\'s baseline_model; its default is gpt-4-0314), and no such file is above this one: it is called "baseline" here.',
    });
  }
  problems.push({ line: 1, severity: 'info', code: 'filtered', message: `A strong verdict (A>>B, B>>A) counts as ${STRONG_WEIGHT} battles and any other as 1, as Arena-Hard-Auto's show_result.py counts them; the win rate is the model's share of its battles against the baseline, a tie half.` });
  return judgeParse('arena-hard', records, rows, {
    fields: TEXTS,
    of: (r) => {
      const md = r.metadata ?? {};
      return [md.model ?? '', md.baseline ?? '', md.question_id ?? '', md.game ?? '', md.score ?? '', md.category ?? '', clipText(md.user_prompt), clipText(r.judgement?.explanation)];
    },
  }, { problems, skipped: skipped + scan.badRecords, ...(new Set(records.map((r) => r.model_id)).size === 1 && records[0] ? { sourceModel: records[0].model_id } : {}) });
}

interface Game {
  raw: string | undefined;
  label: ReturnType<typeof readLabel>;
  judgment: string;
  prompt: string;
}

/** One game: its label, the judge's text (v2.0: the completion object's answer) and the prompt it was shown. */
function gameOf(v: unknown): Game | undefined {
  if (!isObject(v)) return undefined;
  const raw = typeof v.score === 'string' ? v.score : v.score === null || v.score === undefined ? undefined : JSON.stringify(v.score);
  return { raw, label: readLabel(v.score), judgment: textOf(v.judgment), prompt: promptOf(v) };
}

function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isObject(v)) {
    if (typeof v.answer === 'string') return v.answer;
    if (typeof v.content === 'string') return v.content;
  }
  return '';
}

/** The user prompt the judge saw: v0.1's user_prompt, v2.0's prompt messages (the user's). */
function promptOf(g: Json): string {
  if (typeof g.user_prompt === 'string') return g.user_prompt;
  if (Array.isArray(g.prompt)) {
    const user = g.prompt.filter(isObject).filter((m) => m.role === 'user').map((m) => textOf(m.content) || (typeof m.content === 'string' ? m.content : ''));
    return user.join('\n\n');
  }
  return typeof g.prompt === 'string' ? g.prompt : '';
}

/** The question inside the judge's prompt ("<|User Prompt|>\n…\n\n<|The Start of Assistant A's Answer|>"), or the prompt. */
function questionOf(prompt: string): string {
  const start = prompt.indexOf('<|User Prompt|>');
  const end = prompt.indexOf("<|The Start of Assistant A's Answer|>");
  if (start >= 0 && end > start) return prompt.slice(start + '<|User Prompt|>'.length, end).trim();
  return prompt;
}

/** The lengths (characters, as Python counts them) of Assistant A's and B's answers in the judge's prompt. */
function answerLengths(prompt: string): [number, number] | undefined {
  const a = between(prompt, "<|The Start of Assistant A's Answer|>", "<|The End of Assistant A's Answer|>");
  const b = between(prompt, "<|The Start of Assistant B's Answer|>", "<|The End of Assistant B's Answer|>");
  return a === undefined || b === undefined ? undefined : [codePoints(a), codePoints(b)];
}

function between(s: string, open: string, close: string): string | undefined {
  const i = s.indexOf(open);
  if (i < 0) return undefined;
  const j = s.indexOf(close, i + open.length);
  if (j < 0) return undefined;
  // The template puts the answer on its own lines: "<|Start|>\n{ANSWER}\n<|End|>".
  return s.slice(i + open.length, j).replace(/^\n/, '').replace(/\n$/, '');
}

/**
 * v0.1's baseline from config/judge_config.yaml (baseline_model) at the root of the layout
 * data/<bench>/model_judgment/<judge>/<model>.jsonl, if that file is there.
 */
function baselineFromConfig(path: string, ctx: FormatContext): { name: string; path: string } | undefined {
  const judgeDir = dirName(path);
  const judgmentDir = dirName(judgeDir);
  if (baseName(judgmentDir) !== 'model_judgment') return undefined;
  const root = dirName(dirName(dirName(judgmentDir)));
  const config = joinPath(joinPath(root, 'config'), 'judge_config.yaml');
  const text = ctx.io.readText(config);
  if (text === undefined) return undefined;
  const m = /^baseline_model:[ \t]*([^#\s][^#\n]*?)[ \t]*(#.*)?$/m.exec(text);
  return m ? { name: m[1].replace(/^["']|["']$/g, ''), path: config } : undefined;
}
