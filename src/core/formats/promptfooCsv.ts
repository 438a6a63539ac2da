// promptfoo's table as CSV (`promptfoo eval -o results.csv`, and the web view's CSV download): one row
// per test, the test's variables, then each prompt's column. Two layouts, as promptfoo wrote them:
//  - since 2025 (util/eval/evalTableUtils.ts, buildCsvHeaders and tableRowToCsvValues): for each
//    prompt, "[provider] label" (the output text), "Status" (PASS, FAIL or ERROR), "Score" (the score
//    with two decimals), "Named Scores" (JSON, two decimals), "Grader Reason", "Comment"; an optional
//    "Description" column first;
//  - before (util/output.ts, outputToSimpleString): one cell per prompt, "[PASS] (1.00)\n\n<output>
//    \n\nPass Reason: <reason>" ("[FAIL]", "[ERROR]"; "(0.50, name: 0.20)" with named scores; the
//    oldest files write "[PASS] <output>" without a score), the header "[provider] label", or the
//    prompt as JSON or text in the oldest.
// Each cell with a verdict becomes one result in the shape of results.json's (success, score,
// namedScores, failureReason, gradingResult.reason, response.output, vars, testIdx, promptIdx), so
// promptfoo.ts scores it as it scores results.json.
import type { RowProblem } from '../types';
import type { FileInput } from './context';
import { parseCsv, type CsvRecord } from './csv';
import type { JsonMember } from './jsonMembers';

const PROVIDER_HEAD = /^\[([^\]]+)\]\s/;
const VERDICT = /^\[(PASS|FAIL|ERROR)\]/;
const BLOCK = ['Status', 'Score', 'Named Scores', 'Grader Reason', 'Comment'];

/** The start of each prompt's block in a header of the current layout. */
function blockStarts(header: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + BLOCK.length < header.length; i++) {
    if (BLOCK.every((h, k) => header[i + 1 + k] === h)) out.push(i);
  }
  return out;
}

/** Columns whose cells carry promptfoo's "[PASS]" / "[FAIL]" / "[ERROR]" (the older layout). */
function verdictColumns(header: readonly string[], rows: readonly CsvRecord[]): number[] {
  const out: number[] = [];
  for (let c = 0; c < header.length; c++) {
    const cells = rows.map((r) => r.fields[c] ?? '').filter((x) => x !== '');
    if (cells.length && cells.every((x) => VERDICT.test(x))) out.push(c);
  }
  return out;
}

/** A promptfoo CSV: a header of either layout, with a verdict in the first rows of the older one. */
export function isPromptfooCsv(path: string, head: string): boolean {
  if (!/\.csv$/i.test(path)) return false;
  const t = parseCsv(head);
  if (blockStarts(t.header).length) return true;
  // The head may end inside a record: judge on the complete ones.
  const rows = t.records.slice(0, Math.max(0, t.records.length - 1));
  return rows.length > 0 && verdictColumns(t.header, rows).length > 0;
}

export interface PromptfooCsv {
  /** One member per cell with a verdict, its value a result in results.json's shape. */
  members: JsonMember[];
  /** One per prompt column, in order: its name and its provider. */
  columns: { name: string; provider: string }[];
  problems: RowProblem[];
  /** Cells without a verdict (an empty output column for that test). */
  empty: number;
  layout: 'blocks' | 'cells';
}

/** The provider of a prompt column's header ("[openai:gpt-4] prompt"), else a name for the prompt. */
function providerOf(header: string, k: number): string {
  const m = PROVIDER_HEAD.exec(header);
  if (m) return m[1];
  try {
    const v: unknown = JSON.parse(header);
    if (v && typeof v === 'object' && typeof (v as { provider?: unknown }).provider === 'string') return (v as { provider: string }).provider;
  } catch { /* the prompt as text */ }
  return `prompt ${k + 1}`;
}

function named(columns: { provider: string }[]): { name: string; provider: string }[] {
  return columns.map((c, i) => ({ name: columns.filter((x) => x.provider === c.provider).length > 1 ? `${c.provider} #${i}` : c.provider, provider: c.provider }));
}

function numberOr(s: string | undefined): number | undefined {
  if (s === undefined || s.trim() === '') return undefined;
  const v = Number(s);
  return Number.isFinite(v) ? v : undefined;
}

const FAILURE_REASON: Record<string, number> = { PASS: 0, FAIL: 1, ERROR: 2 };

export function readPromptfooCsv(input: FileInput): PromptfooCsv {
  const table = parseCsv(input.text());
  const problems = [...table.problems];
  const starts = blockStarts(table.header);
  const layout = starts.length ? 'blocks' : 'cells';
  const promptCols = starts.length ? starts : verdictColumns(table.header, table.records);
  const inBlock = new Set(starts.flatMap((s) => [s, ...BLOCK.map((_, k) => s + 1 + k)]));
  const varCols = table.header.map((_, c) => c).filter((c) => (starts.length ? !inBlock.has(c) : !promptCols.includes(c)));
  const columns = named(promptCols.map((c, k) => ({ provider: providerOf(table.header[c], k) })));
  const members: JsonMember[] = [];
  let empty = 0;
  table.records.forEach((rec, testIdx) => {
    const vars = Object.fromEntries(varCols.map((c) => [table.header[c], rec.fields[c] ?? '']));
    promptCols.forEach((c, promptIdx) => {
      const column = rec.columns[c] ?? 1;
      const cell = layout === 'blocks' ? blockCell(rec, c) : simpleCell(rec.fields[c] ?? '');
      if (!cell) { empty++; return; }
      if (cell.bad) {
        problems.push({ line: rec.fieldLines[c] ?? rec.line, column, severity: 'warning', code: 'bad-label', message: `Line ${rec.fieldLines[c] ?? rec.line}: ${cell.bad}; the cell is left out.` });
        return;
      }
      members.push({
        key: `${testIdx}/${promptIdx}`, line: rec.fieldLines[c] ?? rec.line, column,
        value: {
          success: cell.status === 'PASS', failureReason: FAILURE_REASON[cell.status],
          ...(cell.score !== undefined ? { score: cell.score } : {}),
          ...(cell.namedScores ? { namedScores: cell.namedScores } : {}),
          ...(cell.reason ? { gradingResult: { reason: cell.reason } } : {}),
          response: { output: cell.output }, vars, testIdx, promptIdx, provider: { id: columns[promptIdx].provider },
        },
      });
    });
  });
  return { members, columns, problems, empty, layout };
}

interface Cell {
  status: 'PASS' | 'FAIL' | 'ERROR';
  score?: number;
  namedScores?: Record<string, number>;
  reason?: string;
  output: string;
  bad?: string;
}

/** The current layout: output, Status, Score, Named Scores, Grader Reason (Comment is not a grade). */
function blockCell(rec: CsvRecord, start: number): Cell | undefined {
  const f = (k: number) => rec.fields[start + k] ?? '';
  const status = f(1).trim().toUpperCase();
  if (status === '') return undefined;
  if (!(status in FAILURE_REASON)) return { status: 'ERROR', output: '', bad: `Status holds ${JSON.stringify(f(1))}; promptfoo writes PASS, FAIL or ERROR` };
  let namedScores: Record<string, number> | undefined;
  if (f(3).trim()) {
    try {
      const v: unknown = JSON.parse(f(3));
      if (v && typeof v === 'object') namedScores = Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => typeof x === 'number')) as Record<string, number>;
    } catch {
      return { status: status as Cell['status'], output: f(0), bad: `Named Scores holds ${JSON.stringify(f(3).slice(0, 60))}, which is not JSON` };
    }
  }
  return { status: status as Cell['status'], score: numberOr(f(2)), ...(namedScores ? { namedScores } : {}), ...(f(4) ? { reason: f(4) } : {}), output: f(0) };
}

/**
 * The older layout's cell: "[PASS] (1.00, name: 0.50)\n\n<output>\n\nPass Reason: <reason>", or
 * "[PASS] <output>" in the oldest files (no score).
 */
export function simpleCell(text: string): Cell | undefined {
  const m = VERDICT.exec(text);
  if (!m) return text.trim() === '' ? undefined : { status: 'ERROR', output: text, bad: 'the cell has no [PASS], [FAIL] or [ERROR] verdict' };
  const status = m[1] as Cell['status'];
  let rest = text.slice(m[0].length).replace(/^ /, '');
  let score: number | undefined;
  let namedScores: Record<string, number> | undefined;
  const s = /^\((-?\d+(?:\.\d+)?|NaN|undefined)((?:, [^()\n]+?: (?:-?\d+(?:\.\d+)?|NaN|undefined))*)\)/.exec(rest);
  if (s) {
    score = numberOr(s[1]);
    for (const n of s[2].matchAll(/, ([^()\n]+?): (-?\d+(?:\.\d+)?|NaN|undefined)/g)) {
      const v = numberOr(n[2]);
      if (v !== undefined) (namedScores ??= {})[n[1]] = v;
    }
    rest = rest.slice(s[0].length).replace(/^\n\n/, '').replace(/^ /, '');
  }
  let reason: string | undefined;
  const r = /\n\n(Pass|Fail) Reason: ([\s\S]*)$/.exec(rest);
  if (r) { reason = r[2]; rest = rest.slice(0, r.index); }
  return { status, ...(score !== undefined ? { score } : {}), ...(namedScores ? { namedScores } : {}), ...(reason ? { reason } : {}), output: rest };
}
