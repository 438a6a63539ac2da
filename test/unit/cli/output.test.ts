// --markdown, --csv and GitHub Actions output of `eval-lens score`: the Markdown is parsed back by a
// real CommonMark/GFM parser, the CSV by Python's csv module, and the annotations are decoded and
// compared with the problem list the Problems panel shows for the same file.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { MarkdownIt, tables } from './markdownTables';
import { MAX_PROBLEMS } from '../../../src/core/problemCap';
import { problemsLine } from '../../../src/documents/scoreTables';

const root = join(__dirname, '..', '..', '..');
const folktexts = join(root, 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1');
const folktextsFile = join(folktexts, 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');
const broken = join(root, 'examples', 'folktexts', 'broken', 'broken.test_predictions.csv');


type Json = { results: { path: string; metrics: Record<string, number | null>; intervals: Record<string, [number, number]>; standard_errors: Record<string, number>; problems: { line: number; column?: number; endColumn?: number; severity: string; code: string; message: string; path?: string }[] }[] };

async function json(...args: string[]): Promise<Json> {
  const out = await runCli(['score', '--json', ...args]);
  return JSON.parse(out.stdout);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('--markdown', () => {
  let markdown: string;
  let reference: Json;
  beforeAll(async () => {
    // Outside Actions whatever the machine running the tests says.
    vi.stubEnv('GITHUB_ACTIONS', '');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const out = await runCli(['score', '--markdown', '--bootstrap', '200', folktextsFile, broken]);
    expect(out.code).toBe(0);
    markdown = out.stdout;
    reference = await json('--bootstrap', '200', folktextsFile, broken);
    vi.unstubAllEnvs();
  });

  it('parses back as one table per file: metric, value to 4 decimals, 95% interval, reported value', () => {
    const [main, second] = tables(markdown);
    // SE: the standard error of each mean metric (issue 18), beside the interval.
    expect(main[0]).toEqual(['metric', 'value', '95% interval', 'SE', 'reported']);
    const r = reference.results[0];
    const names = Object.keys(r.metrics);
    expect(main.slice(1).map((row) => row[0]).sort()).toEqual([...names].sort());
    for (const [name, value, interval, se] of main.slice(1)) {
      expect(value, name).toBe(r.metrics[name]!.toFixed(4));
      expect(se, name).toBe(r.standard_errors[name] === undefined ? '' : r.standard_errors[name].toFixed(4));
      // ece_scaled has no interval (its scaling moves with each resample's extremes): an empty cell.
      const ci = r.intervals[name];
      expect(interval, name).toBe(ci ? `[${ci[0].toFixed(4)}, ${ci[1].toFixed(4)}]` : '');
    }
    // The reported column holds what results.bench-1337.json says, read here on its own.
    const bench = JSON.parse(readFileSync(join(folktexts, 'results.bench-1337.json'), 'utf8').replace(/\bNaN\b/g, 'null'));
    const reported = Object.fromEntries(main.slice(1).map((row) => [row[0], row[4]]));
    expect(reported.ece).toBe(bench.ece.toFixed(4));
    expect(reported.auc).toBe(bench.roc_auc.toFixed(4));
    expect(reported.brier).toBe(bench.brier_score_loss.toFixed(4));
    expect(reported.ece_quantile).toBe('NaN'); // NaN in the file: shown as the file gives it (issue 17, point 3)
    expect(reported.mce).toBe('');
    // The broken file reports nothing: no reported column at all.
    expect(second[0]).toEqual(['metric', 'value', '95% interval', 'SE']);
  });

  it('names each file in a heading and counts its problems', () => {
    expect(markdown).toContain(`### \`${folktextsFile}\``);
    const problems = reference.results[1].problems;
    const errors = problems.filter((p) => p.severity === 'error').length;
    expect(markdown).toContain(`${problems.length} problems: ${errors} error${errors === 1 ? '' : 's'}`);
    expect(markdown).not.toMatch(/\b0 errors\b/); // a count of none is left out (issue 21, point 4)
  });

  it('counts problems by severity, with no count of none beside a count of some', () => {
    const p = (severity: 'error' | 'warning' | 'info') => ({ line: 2, severity, code: 'not-a-number' as const, message: 'm' });
    expect(problemsLine([p('warning'), p('info')])).toBe('2 problems: 1 warning, 1 note');
    expect(problemsLine([p('error'), p('error'), p('warning')], 997)).toBe('1000 problems, 3 listed: 2 errors, 1 warning');
  });

  it('with --group-by, writes the groups and the fairness figures the panel shows', async () => {
    const { scoreMarkdown } = await import('../../../src/documents/scoreTables');
    const { scoreInput } = await import('../../../src/core/score');
    const { textInput } = await import('../../../src/core/formats/context');
    const rows = Array.from({ length: 80 }, (_, i) => `${i},${((i * 37) % 100) / 100},${i % 3 === 0 ? 1 : 0},${i % 2 ? 'b|x' : 'a'}`);
    const r = scoreInput(textInput('/tmp/G.ACSIncome.test_predictions.csv', [',risk_score,label,g', ...rows].join('\n') + '\n'), { groupBy: { column: 'g' } } as never);
    const md = scoreMarkdown([r], {});
    expect(md).toContain('**Groups by `g`**: 2 groups, threshold 0.5000.');
    expect(md).toMatch(/^\| group \| n \| accuracy \| auc \|/m);
    for (const g of r.groups!.groups) {
      expect(md).toContain(`| ${g.value.replace('|', '\\|')} | ${g.n} | ${g.metrics.accuracy!.toFixed(4)} |`);
    }
    expect(md).toContain('worst `accuracy`');
    for (const [k, v] of Object.entries(r.groups!.fairness)) expect(md).toContain(`| \`${k}\` | ${v.toFixed(4)} |`);
  });

  it('keeps a path with Markdown characters a single code span, and the table intact', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'eval-lens-md-')), 'a|b `c` *d*');
    mkdirSync(dir);
    const file = join(dir, 'x.test_predictions.csv');
    writeFileSync(file, ',risk_score,label\n0,0.2,0\n1,0.9,1\n');
    const out = await runCli(['score', '--markdown', file, '--fail-on', 'ece>0.5']);
    const tokens = new MarkdownIt().parse(out.stdout, {});
    const heading = tokens.findIndex((t) => t.type === 'heading_open' && t.content === '' && tokens[tokens.indexOf(t) + 1].content.includes('x.test_predictions'));
    const code = tokens[heading + 1].children!.filter((c) => c.type === 'code_inline');
    expect(code.map((c) => c.content)).toEqual([file]);
    // The gates table's file cell, despite the '|' in the path, is one cell.
    const gates = tables(out.stdout).at(-1)!;
    expect(gates[0]).toEqual(['gate', 'file', 'value', 'result']);
    expect(gates[1]).toEqual(['ece>0.5', file, expect.any(String), '✅ passed']);
  });
});

describe('--csv', () => {
  it.skipIf(!existsSync('/usr/bin/python3'))('round-trips through Python csv: every metric at full precision, awkward paths intact', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'eval-lens-csv-')), 'a,b "c"');
    mkdirSync(dir);
    const odd = join(dir, 'y.test_predictions.csv');
    writeFileSync(odd, ',risk_score,label\n0,0.2,0\n1,0.9,1\n2,0.6,0\n');
    const out = await runCli(['score', '--csv', '--bootstrap', '100', folktextsFile, odd]);
    expect(out.code).toBe(0);
    const parsed: Record<string, string>[] = JSON.parse(execFileSync('/usr/bin/python3', ['-c',
      'import csv, json, sys; print(json.dumps(list(csv.DictReader(sys.stdin))))'], { input: out.stdout, encoding: 'utf8' }));
    const ref = await json('--bootstrap', '100', folktextsFile, odd);
    const key = (x: { path?: string; metric?: string }) => `${x.path}\t${x.metric}`;
    const expected = ref.results.flatMap((r) => Object.entries(r.metrics).map(([m, v]) => ({ path: r.path, metric: m, v, ci: r.intervals[m] })))
      .sort((a, b) => key(a).localeCompare(key(b)));
    parsed.sort((a, b) => key(a).localeCompare(key(b)));
    expect(parsed.length).toBe(expected.length);
    parsed.forEach((row, i) => {
      const e = expected[i];
      expect(row.path).toBe(e.path);
      expect(row.metric).toBe(e.metric);
      expect(row.value === '' ? null : Number(row.value)).toBe(e.v);
      if (e.ci) expect([Number(row.ci_low), Number(row.ci_high)]).toEqual(e.ci);
    });
    expect(parsed.find((r) => r.path === folktextsFile && r.metric === 'ece')!.reported).toBe('0.093496');
  });
});

/** `::error file=F,line=3::msg` decoded: the runner's own unescaping of properties and data. */
function decode(line: string): { command: string; props: Record<string, string>; message: string } | null {
  const m = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!m) return null;
  const un = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  const props: Record<string, string> = {};
  for (const kv of (m[2] ?? '').split(',').filter(Boolean)) {
    const eq = kv.indexOf('=');
    props[kv.slice(0, eq)] = un(kv.slice(eq + 1));
  }
  return { command: m[1], props, message: un(m[3]) };
}

describe('GitHub Actions', () => {
  it('annotates every problem the Problems panel lists for the file, capped the same way, with a summary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-gha-'));
    const sub = join(dir, 'odd, name: 100%');
    mkdirSync(sub);
    const file = join(sub, 'many.test_predictions.csv');
    const bad = MAX_PROBLEMS + 250;
    const rows = [',risk_score,label'];
    for (let i = 0; i < bad; i++) rows.push(`${i},x${i}%,1`);
    for (let i = bad; i < bad + 50; i++) rows.push(`${i},0.${(i % 9) + 1},${i % 2}`);
    writeFileSync(file, rows.join('\n') + '\n');
    const panel = (await json(file)).results[0].problems;

    vi.stubEnv('GITHUB_ACTIONS', 'true');
    vi.stubEnv('GITHUB_WORKSPACE', dir);
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const out = await runCli(['score', file]);
    expect(out.code).toBe(0);
    const notes = out.stdout.split('\n').map(decode).filter((x) => x !== null);
    expect(notes.length).toBe(panel.length);
    expect(panel.length).toBe(MAX_PROBLEMS + 1);
    notes.forEach((n, i) => {
      const p = panel[i];
      expect(n.command).toBe({ error: 'error', warning: 'warning', info: 'notice' }[p.severity]);
      expect(n.props.file).toBe(relative(dir, resolve(file)));
      expect(Number(n.props.line)).toBe(p.line);
      expect(n.props.col === undefined ? undefined : Number(n.props.col)).toBe(p.column);
      expect(n.message).toBe(p.message);
    });
    expect(notes.at(-1)!.command).toBe('notice');
    expect(notes.at(-1)!.message).toContain('250 more problems');
    expect(out.stdout).toMatch(new RegExp(`eval-lens: ${panel.length} annotations \\(1 file with problems`));
    // The properties were escaped: ',' and ':' in the path, '%' in path and message.
    const raw = out.stdout.split('\n').find((l) => l.startsWith('::error'))!;
    expect(raw).toContain('file=odd%2C name%3A 100%25/many.test_predictions.csv,line=2');
    expect(raw).toMatch(/"x0%25"/);
  });

  it('sends annotations to stderr with --json so stdout stays one JSON document, and annotates failed gates', async () => {
    vi.stubEnv('GITHUB_ACTIONS', 'true');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const out = await runCli(['score', '--json', broken, '--fail-on', 'ece>0.1']);
    expect(out.code).toBe(3);
    const doc = JSON.parse(out.stdout);
    const notes = out.stderr.split('\n').map(decode).filter((x) => x !== null);
    expect(notes.filter((n) => n.props.title?.startsWith('Eval Lens: ')).length).toBe(doc.results[0].problems.length);
    const gate = notes.find((n) => n.props.title === 'Eval Lens gate ece>0.1')!;
    expect(gate.command).toBe('error');
    expect(gate.message).toMatch(/ece = 0\.2 > 0\.1/);
  });

  it('prints no annotations outside Actions', async () => {
    vi.stubEnv('GITHUB_ACTIONS', '');
    const out = await runCli(['score', broken]);
    expect(out.stdout).not.toMatch(/^::/m);
  });

  it('appends the Markdown report to $GITHUB_STEP_SUMMARY, after what was there', async () => {
    const summary = join(mkdtempSync(join(tmpdir(), 'eval-lens-summary-')), 'summary.md');
    writeFileSync(summary, '# Earlier step\n');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const markdown = (await runCli(['score', '--markdown', folktextsFile, '--fail-on', 'auc<0.7'])).stdout;
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary);
    vi.stubEnv('GITHUB_ACTIONS', 'true');
    await runCli(['score', folktextsFile, '--fail-on', 'auc<0.7']);
    const text = readFileSync(summary, 'utf8');
    expect(text.startsWith('# Earlier step\n' + markdown)).toBe(true);
    expect(tables(text).length).toBe(2); // metrics and gates
  });
});

describe('output options', () => {
  it('takes one of --json, --markdown, --csv (usage error otherwise)', async () => {
    const out = await runCli(['score', '--json', '--csv', broken]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('choose one of --json, --markdown, --csv (got --json and --csv)');
  });
});
