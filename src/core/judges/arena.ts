// Chatbot Arena battles, as FastChat's serve/monitor/clean_battle_data.py writes them (and the
// Chatbot Arena notebook reads them: a JSON array, or JSON Lines): model_a, model_b, winner
// ("model_a", "model_b", "tie" or "tie (bothbad)"), and beside them question_id, judge (the voter,
// "arena_user_…"), turn, anony, language, tstamp and, in released sets, conversation_a and
// conversation_b ([{role, content}]). MT-Bench's human judgments (lmsys/mt_bench_human_judgments)
// have the same fields, with judges "expert_N", "author_N" and GPT-4's ["gpt-4", "pair-v2"]: a file
// holding both gives the judge's agreement with the humans.
import type { HarnessAdapter } from '../formats/adapters';
import type { FileInput, FormatContext } from '../formats/context';
import { sourceOf } from '../formats/context';
import { forEachJsonRecord } from '../formats/jsonl';
import type { ParseResult, RowProblem } from '../types';
import type { SampleRecord } from '../samples/record';
import { PairRowsBuilder } from './rows';
import { clipText, codePoints, fatalResult, fieldProblem, idText, isObject, judgeName, judgeParse } from './readerCommon';

export function isArenaBattles(_path: string, head: string): boolean {
  return /"model_a"\s*:/.test(head) && /"model_b"\s*:/.test(head) && /"winner"\s*:/.test(head);
}

export const arenaAdapter: HarnessAdapter = {
  format: 'arena',
  detect: isArenaBattles,
  parse: parseArena,
};

const TEXTS = ['model_a', 'model_b', 'winner', 'judge', 'question_id', 'conversation_a', 'conversation_b'];
const WINNERS: Record<string, number> = { model_a: 1, model_b: 0, tie: 0.5, 'tie (bothbad)': 0.5 };
/** A judge's two orders that disagree, as some tools write it: a tie, as FastChat's two-order rule counts a disagreement. */
const INCONSISTENT = 'inconsistent';

/**
 * model_a's outcome (1 win, 0.5 tie, 0 loss) for a winner written as the arena writes it, or as the
 * winning model's own name (tools that resolve a judge's verdict to a model id), or "inconsistent".
 */
function outcomeOf(winner: unknown, a: string, b: string): number | undefined {
  if (typeof winner !== 'string') return undefined;
  if (winner in WINNERS) return WINNERS[winner];
  if (winner === a) return 1;
  if (winner === b) return 0;
  return winner === INCONSISTENT ? 0.5 : undefined;
}

export function parseArena(input: FileInput, ctx: FormatContext): ParseResult {
  const b = new PairRowsBuilder('a winner other than "model_a", "model_b", "tie" or "tie (bothbad)"');
  const problems: RowProblem[] = [];
  const records: SampleRecord[] = [];
  let skipped = 0;
  let unnamed = 0;
  const selfBattles = { count: 0, first: 0, model: '' };
  const inconsistent = { count: 0, first: 0 };
  const scan = forEachJsonRecord(sourceOf(input), (value, span) => {
    const line = span.line;
    if (!isObject(value)) { problems.push({ line, severity: 'error', code: 'json-parse', message: `Line ${line}: a battle is a JSON object; this is ${Array.isArray(value) ? 'an array' : typeof value}. It is left out.` }); skipped++; return; }
    const a = typeof value.model_a === 'string' && value.model_a ? value.model_a : undefined;
    const bm = typeof value.model_b === 'string' && value.model_b ? value.model_b : undefined;
    if (a === undefined) { problems.push(fieldProblem(line, 'model_a', 'the first model\'s name', value.model_a)); skipped++; return; }
    if (bm === undefined) { problems.push(fieldProblem(line, 'model_b', 'the second model\'s name', value.model_b)); skipped++; return; }
    if (a === bm) {
      // Arena-Hard-Auto's battles file holds the baseline's games against itself (1,134 of them in
      // arena-hard-local's): one sentence for them all, not one a line.
      if (!selfBattles.count) { selfBattles.first = line; selfBattles.model = a; }
      selfBattles.count++;
      skipped++;
      return;
    }
    const winner = value.winner;
    const pair = [b.models.of(a), b.models.of(bm)];
    const outcome = outcomeOf(winner, a, bm);
    if (outcome === undefined) {
      b.invalid(pair, line);
      if (b.invalidVerdicts.count <= 10) problems.push({ line, severity: 'warning', code: 'bad-label', message: `Line ${line}: winner ${JSON.stringify(winner) ?? 'is missing'}; the Chatbot Arena writes "model_a", "model_b", "tie" or "tie (bothbad)" (or the winning model's name). The battle is left out.` });
      return;
    }
    if (winner === INCONSISTENT && !inconsistent.count++) inconsistent.first = line;
    const question = idText(value.question_id) ?? `battle ${line}`;
    if (idText(value.question_id) === undefined) unnamed++;
    const turn = typeof value.turn === 'number' && Number.isInteger(value.turn) && value.turn > 0 ? value.turn : 0;
    const judge = judgeName(value.judge) ?? judgeName(value.judge_id) ?? 'judge';
    const convA = conversationText(value.conversation_a);
    const convB = conversationText(value.conversation_b);
    b.add(a, bm, outcome, {
      question, turn, judge,
      lengthA: convA ? codePoints(convA.answers) : undefined, lengthB: convB ? codePoints(convB.answers) : undefined,
    });
    records.push({
      sample_id: `${question}/${turn}/${a}/${bm}/${judge}`,
      line,
      input: { raw: convA?.question ?? '' },
      judgement: { judge, verdict: String(winner) },
      metadata: { model_a: a, model_b: bm, winner: String(winner), judge, question_id: question, conversation_a: convA?.whole ?? '', conversation_b: convB?.whole ?? '' },
    });
  }, ctx.progress);
  if (scan.fatal) return fatalResult('arena', scan.fatal, scan.problems);
  problems.unshift(...scan.problems);
  if (selfBattles.count) {
    problems.push({ line: selfBattles.first, severity: 'warning', code: 'bad-label', message: `${selfBattles.count} battle${selfBattles.count === 1 ? '' : 's'} of a model against itself (first on line ${selfBattles.first}: ${selfBattles.model}) ${selfBattles.count === 1 ? 'is' : 'are'} no comparison, so ${selfBattles.count === 1 ? 'it is' : 'they are'} left out.` });
  }
  if (inconsistent.count) {
    problems.push({ line: inconsistent.first, severity: 'info', code: 'filtered', message: `${inconsistent.count} verdict${inconsistent.count === 1 ? '' : 's'} (first on line ${inconsistent.first}) say "inconsistent": the judge's two orders disagreed, so each counts as a tie, as FastChat's two-order rule counts a disagreement.` });
  }
  if (unnamed && unnamed < records.length) problems.push({ line: 1, severity: 'info', code: 'missing-field', message: `${unnamed} battles have no question_id: each is a sample of its own.` });
  return judgeParse('arena', records, b.build(), {
    fields: TEXTS,
    of: (r) => {
      const md = r.metadata ?? {};
      return [md.model_a ?? '', md.model_b ?? '', md.winner ?? '', md.judge ?? '', md.question_id ?? '', clipText(md.conversation_a), clipText(md.conversation_b)];
    },
  }, { problems, skipped: skipped + scan.badRecords });
}

/** A conversation's first user turn, its assistant answers joined, and the whole as text. */
function conversationText(v: unknown): { question: string; answers: string; whole: string } | undefined {
  if (!Array.isArray(v)) return undefined;
  const turns = v.filter(isObject).map((m) => ({ role: String(m.role ?? ''), content: typeof m.content === 'string' ? m.content : '' }));
  if (!turns.length) return undefined;
  return {
    question: turns.find((t) => t.role === 'user')?.content ?? '',
    answers: turns.filter((t) => t.role === 'assistant').map((t) => t.content).join('\n'),
    whole: turns.map((t) => `${t.role}: ${t.content}`).join('\n\n'),
  };
}
