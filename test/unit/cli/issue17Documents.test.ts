// Issue 17 in the CLI's documents (text, Markdown, CSV, JSON): a non-finite figure as Python spells
// it (point 3), a task's own per-sample metrics with their reported figures (point 6), epochs and
// the reducer beside n and no "[95% CI]" over a group table without intervals (point 11), and the
// board's rows per model for three Inspect logs of one model (point 10). Expected values are
// Python's (test/fixtures/*/issue17/expected.json, make_fixtures.py / make_issue17.py).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { formatNumber } from '../../../src/documents/table';
import { tables } from './markdownTables';

const root = join(__dirname, '..', '..', '..');
const LM = join(root, 'test', 'fixtures', 'lm-eval-field', 'issue17');
const INSPECT = join(root, 'test', 'fixtures', 'inspect', 'issue17');
const lmExpected = JSON.parse(readFileSync(join(LM, 'expected.json'), 'utf8'));
const inspectExpected = JSON.parse(readFileSync(join(INSPECT, 'expected.json'), 'utf8'));
const mae = join(LM, 'mae', 'samples_mae_task_2024-06-02T09-30-00.000001.jsonl');
const epochs10 = join(INSPECT, 'epochs10.json');

/** The eqbench samples beside their results file under the name lm-eval gives it; `eqbench` overrides the reported figure. */
function eqbenchRun(eqbench?: number): string {
  const ts = lmExpected.eqbench.timestamp;
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-eqbench-'));
  copyFileSync(join(LM, 'v0.4.2', `samples_eqbench_${ts}.json`), join(dir, `samples_eqbench_${ts}.json`));
  const results = JSON.parse(readFileSync(join(LM, 'v0.4.2', 'results_eqbench.json'), 'utf8'));
  if (eqbench !== undefined) results.results.eqbench['eqbench,none'] = eqbench;
  writeFileSync(join(dir, `results_org__model:${ts}_${ts}.json`), JSON.stringify(results));
  return join(dir, `samples_eqbench_${ts}.json`);
}

const pyCsv = (text: string): Record<string, string>[] => JSON.parse(execFileSync('/usr/bin/python3', ['-c',
  'import csv, json, sys; print(json.dumps(list(csv.DictReader(sys.stdin))))'], { input: text, encoding: 'utf8' }));

describe('non-finite figures (issue 17, point 3)', () => {
  it('formatNumber spells NaN and infinities as Python does, "—" only for no figure', () => {
    expect([NaN, Infinity, -Infinity, null, undefined, 0.5].map(formatNumber)).toEqual(['NaN', 'Infinity', '-Infinity', '—', '—', '0.5000']);
  });

  it('text: the mae task\'s Infinity (mean and lm-eval\'s figure) is printed, not "—"', async () => {
    expect(lmExpected.mae_task.mae_mean).toBe('Infinity');
    const out = await runCli(['score', mae]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/\n {4}mae +Infinity +reported Infinity\n/);
    expect(out.stdout).not.toContain('mae —');
    expect(out.stdout).toContain('also reported: mae_stderr —');
  });

  it('JSON: reportedNonFinite, taskMetrics with Python\'s spellings, epochs and the source model', async () => {
    const doc = JSON.parse((await runCli(['score', '--json', '--bootstrap', '200', mae, epochs10])).stdout);
    const [m, e] = doc.results;
    expect(m.reportedNonFinite).toEqual({ mae: 'Infinity' });
    expect(m.taskMetrics).toHaveLength(1);
    expect(m.taskMetrics[0]).toMatchObject({ name: 'mae', n: lmExpected.mae_task.n, mean: 'Infinity', reported: 'Infinity' });
    expect(m.taskMetrics[0].interval).toHaveLength(2);
    expect(e.epochs).toEqual({ count: inspectExpected.epochs10.epochs, reducer: 'mean', samples: 1 });
    expect(e.n).toBe(inspectExpected.epochs10.n);
    expect(e.metrics.accuracy).toBeCloseTo(inspectExpected.epochs10.reduced, 12);
    expect(e.sourceModel).toBe('openai/gpt-4o-mini');
  });

  it.skipIf(!existsSync('/usr/bin/python3'))('CSV: task:mae reads back in Python as inf', async () => {
    const rows = pyCsv((await runCli(['score', '--csv', mae])).stdout);
    const row = rows.find((r) => r.metric === 'task:mae')!;
    expect(row).toMatchObject({ value: 'Infinity', reported: 'Infinity', n: String(lmExpected.mae_task.n) });
    expect(execFileSync('/usr/bin/python3', ['-c', `print(float(${JSON.stringify(row.value)}))`], { encoding: 'utf8' }).trim()).toBe('inf');
  });
});

describe('a task\'s own per-sample metrics (issue 17, point 6)', () => {
  it('text, Markdown and CSV: each metric\'s mean (Python\'s), its interval and lm-eval\'s figure', async () => {
    const file = eqbenchRun();
    const text = (await runCli(['score', '--bootstrap', '200', file])).stdout;
    expect(text).toContain('task metrics (logged per sample by the task; mean [95% CI]):');
    const eq = /\n {4}eqbench +(\S+) +\[(\S+), (\S+)\] +reported (\S+)\n/.exec(text)!;
    expect(Number(eq[1])).toBeCloseTo(lmExpected.eqbench.eqbench, 4);
    expect(Number(eq[2])).toBeLessThan(Number(eq[1]));
    expect(Number(eq[3])).toBeGreaterThan(Number(eq[1]));
    expect(Number(eq[4])).toBeCloseTo(lmExpected.eqbench.eqbench, 4);
    expect(text).toMatch(/\n {4}percent_parseable +90\.0000 +\[\S+, \S+\] +reported 90\.0000\n/);
    expect(text).not.toContain('disagrees');
    // No second mention of a figure that stands beside its metric.
    expect(text).not.toMatch(/also reported: .*\beqbench\b \d/);

    const md = tables((await runCli(['score', '--markdown', '--bootstrap', '200', file])).stdout);
    const tm = md.find((t) => t[0][0] === 'task metric')!;
    expect(tm[0]).toEqual(['task metric', 'n', 'mean', '95% interval', 'reported']);
    expect(tm[1][0]).toBe('eqbench');
    expect(tm[1][1]).toBe(String(lmExpected.eqbench.n));
    expect(Number(tm[1][2])).toBeCloseTo(lmExpected.eqbench.eqbench, 4);
    expect(tm[2].slice(0, 3)).toEqual(['percent_parseable', '40', '90.0000']);
    expect(tm[2][4]).toBe('90.0000');

    if (existsSync('/usr/bin/python3')) {
      const rows = pyCsv((await runCli(['score', '--csv', file])).stdout);
      expect(Number(rows.find((r) => r.metric === 'task:eqbench')!.value)).toBeCloseTo(lmExpected.eqbench.eqbench, 9);
      expect(Number(rows.find((r) => r.metric === 'task:percent_parseable')!.reported)).toBe(lmExpected.eqbench.percent_parseable);
    }
  });

  it('a reported figure that disagrees with the samples\' mean is marked in text and Markdown', async () => {
    const file = eqbenchRun(40);
    const text = (await runCli(['score', file])).stdout;
    expect(text).toMatch(/\n {4}eqbench +42\.5745 +reported 40\.0000 {2}✗ disagrees\n/);
    expect(text).toMatch(/\n {4}percent_parseable +90\.0000 +reported 90\.0000\n/);
    const tm = tables((await runCli(['score', '--markdown', file])).stdout).find((t) => t[0][0] === 'task metric')!;
    expect(tm[1]).toEqual(['eqbench', '40', '42.5745', '40.0000 ✗ disagrees']);
    expect(tm[2]).toEqual(['percent_parseable', '40', '90.0000', '90.0000']);
  });
});

describe('epochs and groups in the text (issue 17, point 11)', () => {
  it('says "1 sample × 10 epochs, reduced by mean" beside n, in text and Markdown', async () => {
    const text = (await runCli(['score', epochs10])).stdout;
    expect(text).toContain('   n=10 (1 sample × 10 epochs, reduced by mean)\n');
    const md = (await runCli(['score', '--markdown', epochs10])).stdout;
    expect(md).toContain('n=10 (1 sample × 10 epochs, reduced by mean)');
  });

  it('a group table without intervals has no "[95% CI]" in its header; with --bootstrap it has', async () => {
    const churn = join(root, 'test', 'fixtures', 'roles', 'churn.csv');
    const plain = (await runCli(['score', churn, '--group-by', 'tenure'])).stdout;
    const header = plain.split('\n').find((l) => /^ {4}group +n +accuracy/.test(l))!;
    expect(header).toBeDefined();
    expect(header).not.toContain('95% CI');
    // Columns line up: each figure ends where its header does.
    const row = plain.split('\n').find((l) => l.includes('[1, 19)'))!;
    expect(row.indexOf('0.8451') + 6).toBe(header.indexOf('accuracy') + 'accuracy'.length);
    const withCi = (await runCli(['score', churn, '--group-by', 'tenure', '--bootstrap', '100'])).stdout;
    expect(withCi).toMatch(/\n {4}group +n +accuracy \[95% CI\]/);
  });
});

describe('board of three Inspect logs of one model (issue 17, point 10)', () => {
  const dir = join(INSPECT, 'board');
  const { model, tasks } = inspectExpected.board as { model: string; tasks: Record<string, number> };

  it('text and Markdown: one row, the model, a column per task', async () => {
    const text = (await runCli(['board', dir])).stdout.trim().split('\n');
    expect(text[1].trim().split(/\s+/)).toEqual(['#', 'run', 'arc', 'gsm', 'mmlu', 'mean']);
    // The row, then the line that says what a cell holds (a value and its 95% bootstrap interval).
    expect(text).toHaveLength(4);
    expect(text[3]).toMatch(/^cells: value \[95% bootstrap interval\]/);
    const cells = text[2].replace(/\[[^\]]*\]/g, '').trim().split(/\s+/);
    expect(cells).toEqual(['1', model, ...['arc', 'gsm', 'mmlu'].map((t) => tasks[t].toFixed(4)), expect.any(String)]);
    const md = tables((await runCli(['board', '--markdown', dir])).stdout)[0];
    expect(md[0]).toEqual(['rank', 'run', 'arc', 'gsm', 'mmlu', 'mean']);
    expect(md[1].map((c) => c.replace(/ \[[^\]]*\]$/, ''))).toEqual(['1', model, ...['arc', 'gsm', 'mmlu'].map((t) => tasks[t].toFixed(4)), ((tasks.arc + tasks.gsm + tasks.mmlu) / 3).toFixed(4)]);
  });

  it.skipIf(!existsSync('/usr/bin/python3'))('CSV: one run, three tasks at full precision', async () => {
    const rows = pyCsv((await runCli(['board', '--csv', dir])).stdout);
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.run).toBe(model);
      expect(Number(r.value)).toBeCloseTo(tasks[r.task], 12);
    }
  });
});
