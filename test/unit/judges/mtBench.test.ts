// FastChat MT-Bench single-answer judgments: real files (instructlab/eval's granite run, 120 of 160
// judgments -1; Medusa's three models with half scores and question.jsonl beside them), checked
// against show_result.py's rule in Python; bad records; --where; the CLI's JSON and text.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, scoreFile } from '../../../src/core';
import { runCli } from '../../../src/cli/main';
import { HAVE_PYTHON, PY, REAL_MT_BENCH, close, reference } from './reference';

const GRANITE = join(REAL_MT_BENCH, 'instructlab-granite', 'gpt-4_single.jsonl');
const MEDUSA = join(REAL_MT_BENCH, 'medusa', 'model_judgment', 'gpt-4_single.jsonl');
const QUESTIONS = join(REAL_MT_BENCH, 'medusa', 'question.jsonl');

describe('MT-Bench single judgments', () => {
  it('are detected by their keys and their name', () => {
    const head = readFileSync(GRANITE, 'utf8').slice(0, 16 * 1024);
    expect(detectFormat(GRANITE, head)).toBe('mt-bench');
    expect(detectFormat('/x/other.jsonl', head)).toBe('mt-bench');
    expect(detectFormat(MEDUSA, readFileSync(MEDUSA, 'utf8').slice(0, 16 * 1024))).toBe('mt-bench');
  });

  it.skipIf(!HAVE_PYTHON)('granite: -1 is invalid (counted, said, out of n and the mean); 0 is valid; means as show_result.py', () => {
    const ref = reference('single', GRANITE);
    const r = scoreFile(GRANITE);
    expect(r.format).toBe('mt-bench');
    expect(r.kind).toBe('scores');
    expect(r.fatal).toBeUndefined();
    expect(r.n).toBe(40);
    expect(ref.n).toBe(40);
    expect(r.judge!.invalid).toBe(120);
    expect(ref.invalid).toBe(120);
    const problem = r.problems.find((p) => p.code === 'invalid-verdict')!;
    expect(problem.severity).toBe('warning');
    expect(problem.message).toContain('120 of 160 verdicts are score -1');
    expect(problem.line).toBe(1);
    const m = r.judge!.judged!.models[0];
    const want = ref.models['granite-7b-lab'];
    close(m.mean, want.mean, 1e-9, 'mean');
    close(r.metrics.judge_score, want.mean, 1e-9, 'metrics.judge_score');
    close(m.se, want.se, 1e-9, 'clustered SE');
    close(m.interval![0], want.interval[0], 1e-6, 'interval low');
    close(m.interval![1], want.interval[1], 1e-6, 'interval high');
    close(r.standard_errors!.judge_score, want.se, 1e-9, 'standard_errors.judge_score');
    for (const t of m.turns) close(t.mean, want.turns[String(t.turn)], 1e-9, `turn ${t.turn}`);
    expect(m.turns.map((t) => t.turn)).toEqual([1, 2]);
    // 0 is a grade (two of them), not an invalid verdict.
    expect(m.distribution.find((d) => d.score === 0)?.count).toBe(2);
    expect(Object.fromEntries(m.distribution.map((d) => [d.score.toFixed(1), d.count]))).toEqual(want.distribution);
    expect(m.invalid).toBe(120);
  });

  it.skipIf(!HAVE_PYTHON)('Medusa: one group per model, no figure over several models; turns, categories from question.jsonl, halves valid', () => {
    const ref = reference('single', MEDUSA, QUESTIONS);
    const r = scoreFile(MEDUSA);
    expect(r.n).toBe(72);
    expect(r.metrics.judge_score).toBeUndefined();
    expect(r.groups!.column).toBe('model');
    expect(r.groups!.groups).toHaveLength(3);
    expect(r.judge!.judged!.categoriesPath).toBe(QUESTIONS);
    for (const g of r.groups!.groups) {
      const want = ref.models[g.value];
      expect(g.n).toBe(want.n);
      close(g.metrics.judge_score, want.mean, 1e-9, `${g.value} mean`);
      close(g.metrics.stderr, want.se, 1e-9, `${g.value} SE`);
      close(g.intervals.judge_score![0], want.interval[0], 1e-6, `${g.value} interval`);
      const m = r.judge!.judged!.models.find((x) => x.model === g.value)!;
      for (const t of m.turns) {
        close(t.mean, want.turns[String(t.turn)], 1e-9, `${g.value} turn ${t.turn}`);
        close(t.se, want.turn_se[String(t.turn)], 1e-9, `${g.value} turn ${t.turn} SE`);
      }
      expect(m.categories.map((c) => c.category).sort()).toEqual(Object.keys(want.categories).sort());
      for (const c of m.categories) {
        close(c.mean, want.categories[c.category], 1e-9, `${g.value} ${c.category}`);
        if (want.category_se[c.category] === null) expect(c.se).toBeNull();
        else close(c.se, want.category_se[c.category], 1e-9, `${g.value} ${c.category} SE`);
      }
    }
    // Half scores are grades: 8.5 and 9.5 are in the distribution.
    const scores = new Set(r.judge!.judged!.models.flatMap((m) => m.distribution.map((d) => d.score)));
    expect(scores.has(8.5) && scores.has(9.5)).toBe(true);
    // Groups come best first.
    const means = r.groups!.groups.map((g) => g.metrics.judge_score!);
    expect([...means].sort((a, b) => b - a)).toEqual(means);
  });

  it('bad records are problems on their lines and the rest is scored; null, -1 and NaN are invalid verdicts', () => {
    const good = readFileSync(GRANITE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((x) => x.score !== -1).slice(0, 5);
    const lines = [
      JSON.stringify(good[0]),
      JSON.stringify({ ...good[1], model: undefined }),
      JSON.stringify({ ...good[2], score: 'high' }),
      '{"question_id": 81, "model": "granite-7b-lab", "score": 7, ',
      JSON.stringify({ ...good[3], score: null }),
      JSON.stringify({ ...good[3], score: -1, turn: 2 }),
      JSON.stringify({ ...good[4], score: 8.5 }),
      '[1, 2]',
    ];
    const dir = mkdtempSync(join(tmpdir(), 'mtbench-'));
    const path = join(dir, 'gpt-4_single.jsonl');
    writeFileSync(path, lines.join('\n') + '\n');
    const r = scoreFile(path);
    expect(r.fatal).toBeUndefined();
    expect(r.n).toBe(2);
    expect(r.judge!.invalid).toBe(2);
    expect(r.skipped).toBe(4);
    const at = (line: number) => r.problems.find((p) => p.line === line && p.code !== 'invalid-verdict');
    expect(at(2)!.message).toMatch(/Line 2: "model" is missing/);
    expect(at(3)!.message).toMatch(/Line 3: "score" holds "high"/);
    expect(at(4)!.code).toBe('json-parse');
    expect(at(8)!.message).toMatch(/Line 8: a judgment record is a JSON object/);
    expect(r.problems.find((p) => p.code === 'invalid-verdict')!.message).toMatch(/2 of 4 verdicts .* lines 5, 6/);
    close(r.metrics.judge_score, (good[0].score + 8.5) / 2, 1e-12, 'mean of the two valid grades');
  });

  it('a file whose every verdict is -1 scores nothing and says how many there were', () => {
    const bad = readFileSync(GRANITE, 'utf8').split('\n').filter(Boolean).filter((l) => JSON.parse(l).score === -1).slice(0, 7);
    const dir = mkdtempSync(join(tmpdir(), 'mtbench-'));
    const path = join(dir, 'gpt-4_single.jsonl');
    writeFileSync(path, bad.join('\n'));
    const r = scoreFile(path);
    expect(r.n).toBe(0);
    expect(r.fatal).toBe('All 7 verdicts of the file are score -1 or null (the judge\'s [[rating]] could not be parsed): there is no valid verdict to score.');
    expect(r.kind).toBe('scores');
  });

  it('question.jsonl in the same folder is read first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtbench-'));
    mkdirSync(join(dir, 'model_judgment'));
    writeFileSync(join(dir, 'model_judgment', 'gpt-4_single.jsonl'), readFileSync(MEDUSA));
    writeFileSync(join(dir, 'model_judgment', 'question.jsonl'), readFileSync(QUESTIONS, 'utf8').replace(/"category": ?"writing"/g, '"category": "prose"'));
    const r = scoreFile(join(dir, 'model_judgment', 'gpt-4_single.jsonl'));
    const cats = r.judge!.judged!.models[0].categories.map((c) => c.category);
    expect(cats).toContain('prose');
    expect(cats).not.toContain('writing');
  });

  it.skipIf(!HAVE_PYTHON)('--where model=… scores one model, the figures recomputed on its rows', async () => {
    const model = 'vicuna-7b-v1.3';
    const out = await runCli(['score', '--json', MEDUSA, '--where', `model=${model}`]);
    expect(out.code).toBe(0);
    const res = JSON.parse(out.stdout).results[0];
    const ref = reference('single', MEDUSA, QUESTIONS).models[model];
    expect(res.n).toBe(24);
    expect(res.filter).toEqual({ where: [`model=${model}`], n: 24, of: 72 });
    close(res.judge.judged.models.find((m: { model: string }) => m.model === model).mean, ref.mean, 1e-9, 'filtered mean');
    expect(res.groups.groups.map((g: { value: string }) => g.value)).toEqual([model]);
  });

  it('the CLI: JSON carries judge and groups, the text the turn table and the invalid count', async () => {
    const json = JSON.parse((await runCli(['score', '--json', GRANITE])).stdout).results[0];
    expect(json.n).toBe(40);
    expect(json.judge.kind).toBe('judged');
    expect(json.judge.invalid).toBe(120);
    expect(json.judge.invalid_lines.slice(0, 3)).toEqual([1, 2, 3]);
    expect(json.groups.groups[0].value).toBe('granite-7b-lab');
    expect(json.metrics.judge_score).toBeCloseTo(7.4, 12);
    const text = (await runCli(['score', MEDUSA])).stdout;
    expect(text).toContain('groups by model: 3 groups');
    expect(text).toMatch(/Judged scores by turn/);
    expect(text).toMatch(/Judged scores by category/);
    const md = (await runCli(['score', '--markdown', GRANITE])).stdout;
    expect(md).toContain('invalid verdicts: 120');
    const csv = (await runCli(['score', '--csv', MEDUSA])).stdout.split('\r\n');
    const row = csv.find((l) => l.includes(',model:vicuna-7b-v1.3:judge_score,'))!.split(',');
    expect(row[4]).toBe('24');
    expect(Number(row[8])).toBeCloseTo(6.729166666666667, 12);
    expect(Number(row[13])).toBeGreaterThan(0);
  });

  it.skipIf(!HAVE_PYTHON)('a single-answer file without judge or turn keys (Arena-Hard-Auto\'s first judgments, data/arena-bench-v1) is MT-Bench, not a generic table; a null score is invalid like -1', () => {
    const file = join(REAL_MT_BENCH, 'arena-bench-v1', 'arena-bench-judgment_judge_any.jsonl');
    const head = readFileSync(file, 'utf8').slice(0, 16 * 1024);
    expect(head).not.toContain('"judge"');
    expect(detectFormat(file, head)).toBe('mt-bench');
    const r = scoreFile(file);
    expect(r.fatal).toBeUndefined();
    // show_result.py: df[df.score != -1], then pandas' mean, which skips the null score.
    const want = JSON.parse(execFileSync(PY, ['-c', `import pandas as pd, json; df = pd.read_json(${JSON.stringify(file)}, lines=True); d = df[df['score'] != -1]['score'].dropna(); print(json.dumps({'n': int(d.count()), 'mean': float(d.mean())}))`], { encoding: 'utf8' }));
    expect(r.n).toBe(want.n);
    close(r.metrics.judge_score, want.mean, 1e-12, 'judge_score');
    expect(r.judge!.invalid).toBe(1);
    expect(r.problems.find((p) => p.code === 'invalid-verdict')!.line).toBe(11);
  });

  it.skipIf(!HAVE_PYTHON)('scores written as text ("8", "8.5", "[[7]]") are read as the numbers they spell; text that spells none is a problem on its line', () => {
    // Medusa's records with their scores rewritten as text, as some judge scripts write them.
    const lines = readFileSync(MEDUSA, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const asText = lines.map((x, i) => ({ ...x, score: i === 3 ? 'N/A' : i % 3 === 0 ? `[[${x.score}]]` : String(x.score) }));
    const dir = mkdtempSync(join(tmpdir(), 'mt-text-'));
    const file = join(dir, 'gpt-4_single.jsonl');
    writeFileSync(file, asText.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const r = scoreFile(file);
    const want = JSON.parse(execFileSync(PY, ['-c', `import pandas as pd, json, sys; df = pd.read_json(sys.argv[1], lines=True, dtype={'score': str}); df['s'] = pd.to_numeric(df['score'].str.strip('[]'), errors='coerce'); d = df[df['s'] != -1].dropna(subset=['s']); print(json.dumps({m: float(g['s'].mean()) for m, g in d.groupby('model')} | {'_n': int(len(d))}))`, file], { encoding: 'utf8' }));
    expect(r.n).toBe(want._n);
    expect(r.judge!.invalid).toBe(lines.filter((x) => x.score === -1).length);
    for (const g of r.groups!.groups) close(g.metrics.judge_score, want[g.value], 1e-12, g.value);
    expect(r.problems.some((p) => p.message.includes('written as text ("8"'))).toBe(true);
    expect(r.problems.find((p) => p.line === 4)!.message).toMatch(/Line 4: "score" holds "N\/A"/);
  });
});

