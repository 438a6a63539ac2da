// board --markdown and --csv: the leaderboard parsed back (markdown-it, Python csv) equals --json.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';

const root = join(__dirname, '..', '..', '..');
const args = [join(root, 'examples', 'raft', 'run-1'), '--raft-data', join(root, 'examples', 'raft', 'data'), '--bootstrap', '100'];

interface Token { type: string; content: string; children: Token[] | null }
const MarkdownIt = createRequire(__filename)('markdown-it') as new () => { parse(src: string, env: object): Token[] };

describe('board --markdown / --csv', () => {
  it('Markdown: rank, run, one column per task with its interval, and raft_score', async () => {
    const board = JSON.parse((await runCli(['board', '--json', ...args])).stdout).board;
    const md = (await runCli(['board', '--markdown', ...args])).stdout;
    const rows: string[][] = [];
    let row: string[] | null = null;
    for (const t of new MarkdownIt().parse(md, {})) {
      if (t.type === 'tr_open') row = [];
      else if (t.type === 'tr_close') { rows.push(row!); row = null; }
      else if (t.type === 'inline' && row) row.push((t.children ?? []).map((c) => c.content).join(''));
    }
    expect(rows[0]).toEqual(['rank', 'run', ...board.columns, 'raft_score']);
    const r = board.rows[0];
    expect(rows[1][1]).toBe(r.run);
    board.columns.forEach((task: string, k: number) => {
      const ci = r.intervals[task];
      expect(rows[1][2 + k]).toBe(`${r.values[task].toFixed(4)} [${ci[0].toFixed(4)}, ${ci[1].toFixed(4)}]`);
    });
    expect(rows[1].at(-1)).toBe(r.mean.toFixed(4));
  });

  it.skipIf(!existsSync('/usr/bin/python3'))('CSV round-trips at full precision', async () => {
    const board = JSON.parse((await runCli(['board', '--json', ...args])).stdout).board;
    const csv = (await runCli(['board', '--csv', ...args])).stdout;
    const parsed: Record<string, string>[] = JSON.parse(execFileSync('/usr/bin/python3', ['-c',
      'import csv, json, sys; print(json.dumps(list(csv.DictReader(sys.stdin))))'], { input: csv, encoding: 'utf8' }));
    expect(parsed.length).toBe(board.rows.length * board.columns.length);
    for (const p of parsed) {
      const r = board.rows.find((x: { run: string }) => x.run === p.run);
      expect(Number(p.value)).toBe(r.values[p.task]);
      expect([Number(p.ci_low), Number(p.ci_high)]).toEqual(r.intervals[p.task]);
      expect(Number(p.row_mean)).toBe(r.mean);
    }
  });
});
