// `eval-lens convert PATH --to eee OUT/`: every format Eval Lens reads (the examples and the real
// fixtures: folktexts, RAFT, ALMANACS, lm-eval, Inspect, generic CSV, Parquet) written as Every Eval
// Ever evaluations. Each file written is validated against the published 0.3.0 schemas with ajv
// (test/fixtures/real/eee/schemas), the layout and the aggregate's link to its samples are checked,
// and reading the samples back gives the n and accuracy `score` gives on the source (and, for a risk
// score, the same AUC, Brier and ECE, from what Eval Lens wrote into metadata). Python recomputes the
// figures of one conversion from the written lines alone.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { scorePathAsync } from '../../../src/core/scoreAsync';
import type { Report } from '../../../src/core/types';
import { REAL } from '../realData';
import { validAggregate, validInstance, validate } from '../eeeSchemas';

const root = join(__dirname, '..', '..', '..');
const UUID4 = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

/** Every file under a folder, relative, with / separators. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

interface Written { source: string; task?: string; model?: string; aggregate: string; samples: string; n: number; results: string[]; accuracy: number | null }

async function convert(args: string[]): Promise<{ out: string; written: Written[]; notWritten: { source: string; task?: string; reason: string }[]; code: number; stderr: string }> {
  const out = mkdtempSync(join(tmpdir(), 'eval-lens-eee-out-'));
  const r = await runCli(['convert', ...args, '--to', 'eee', out, '--json']);
  const json = r.code === 0 ? JSON.parse(r.stdout) : {};
  return { out, code: r.code, stderr: r.stderr, written: json.written ?? [], notWritten: json.not_written ?? [] };
}

/** Schema validity, the layout, and the aggregate's link to its samples file. */
function checkFiles(out: string, written: Written[]): void {
  const files = filesUnder(out);
  const layout = new RegExp(`^data/[^/]+/[^/]+/[^/]+/${UUID4}(_samples\\.jsonl|\\.json)$`);
  for (const f of files) expect(f).toMatch(layout);
  // Only the aggregates are .json, each with its samples beside it.
  expect(files.filter((f) => f.endsWith('.json')).length).toBe(written.length);
  for (const w of written) {
    expect(files).toContain(w.aggregate);
    expect(w.samples).toBe(w.aggregate.replace(/\.json$/, '_samples.jsonl'));
    const agg = JSON.parse(readFileSync(join(out, w.aggregate), 'utf8'));
    validate(validAggregate, agg, w.aggregate);
    const text = readFileSync(join(out, w.samples), 'utf8');
    const lines = text.split('\n').filter(Boolean);
    expect(text.endsWith('\n') && !text.includes('\n\n')).toBe(true);
    expect(agg.detailed_evaluation_results).toEqual({
      format: 'jsonl', file_path: w.samples, hash_algorithm: 'sha256',
      checksum: createHash('sha256').update(readFileSync(join(out, w.samples))).digest('hex'), total_rows: lines.length,
    });
    expect(lines.length).toBe(w.n);
    for (const line of lines) {
      const rec = JSON.parse(line);
      validate(validInstance, rec, `${w.samples}: ${line.slice(0, 200)}`);
      expect(rec.evaluation_id).toBe(agg.evaluation_id);
      expect(rec.model_id).toBe(agg.model_info.id);
      // A file of several per-sample task metrics has one result per metric, each sample once under each.
      expect(agg.evaluation_results.map((r: { evaluation_result_id: string }) => r.evaluation_result_id)).toContain(rec.evaluation_result_id);
    }
  }
}

/** The sources as `score` reads them, by path and task. */
async function sourceReports(paths: string[], options: Record<string, unknown> = {}): Promise<Map<string, Report>> {
  const byKey = new Map<string, Report>();
  for (const p of paths) for (const r of (await scorePathAsync(p, options)).reports) byKey.set(`${r.path}\u0000${r.task ?? ''}`, r);
  return byKey;
}

const EXAMPLES = ['folktexts', 'generic', 'lm-eval', 'almanacs'].map((d) => join(root, 'examples', d));
const FIXTURES = [join(REAL, 'inspect-ai'), join(REAL, 'lm-eval'), join(REAL, 'raft', 'banking_77'), join(root, 'test', 'fixtures', 'parquet')];
const HARNESSES = [join(REAL, 'helm'), join(REAL, 'promptfoo'), join(REAL, 'mt-bench'), join(REAL, 'eee')];

describe('convert --to eee, every format', () => {
  for (const [what, paths, extra] of [
    ['the examples (folktexts, generic CSV, lm-eval, ALMANACS)', EXAMPLES, []],
    ['RAFT (examples, with their data)', [join(root, 'examples', 'raft', 'run-1')], ['--raft-data', join(root, 'examples', 'raft', 'data')]],
    ['the real fixtures (Inspect, lm-eval, RAFT, Parquet)', FIXTURES, []],
    ['the harness adapters\' real fixtures (HELM, promptfoo, MT-Bench judgments, Every Eval Ever itself)', HARNESSES, []],
  ] as const) {
    it(`${what}: valid 0.3.0 files; read back, the same n and accuracy as score`, async () => {
      const { out, written, notWritten, code } = await convert([...paths, ...extra]);
      expect(code).toBe(0);
      checkFiles(out, written);
      const raftData = extra.length ? { raftData: extra[1] } : {};
      const sources = await sourceReports([...paths], raftData);
      // One evaluation per result of score that has samples, and per model of it: a judge file
      // grading several (its groups of Report.groups), a file of several models side by side (Report.models).
      const perModel = (r: Report) => (r.judge?.kind === 'judged' && r.groups && r.groups.groups.length > 1 ? r.groups.groups.length : r.models?.length ?? 1);
      // A report with no figure to carry (lm-eval's corpus-level f1, not recomputed: MasakhaNER) is
      // listed as not written, with why; it has no accuracy, MSE or per-sample metric indeed.
      const noFigure = new Set(notWritten.filter((x) => x.reason.includes('no figure to carry')).map((x) => `${x.source}\u0000${x.task ?? ''}`));
      for (const k of noFigure) {
        const r = sources.get(k)!;
        expect([k, r.metrics.accuracy, r.metrics.mse, r.taskMetrics?.length ?? 0]).toEqual([k, undefined, undefined, 0]);
      }
      // One whose only figures are not finite numbers (lm-eval's mae over infinite errors) is not
      // written either: the schema's score is a finite number.
      const noFinite = new Set(notWritten.filter((x) => x.reason.includes('no figure the schema can hold')).map((x) => `${x.source}\u0000${x.task ?? ''}`));
      for (const k of noFinite) {
        const r = sources.get(k)!;
        expect([k, r.metrics.accuracy, r.taskMetrics?.every((t) => !Number.isFinite(t.mean))]).toEqual([k, undefined, true]);
      }
      expect(written.length).toBe([...sources.entries()].filter(([k, r]) => r.n > 0 && !r.fatal && !noFigure.has(k) && !noFinite.has(k)).reduce((s, [, r]) => s + perModel(r), 0));
      for (const w of written) {
        let source = sources.get(`${w.source}\u0000${w.task ?? ''}`)!;
        expect(source, w.source).toBeDefined();
        // Another model of a file of several: as `score --model NAME` scores it.
        if (w.model !== undefined && source.models && w.model !== source.model) {
          source = (await scorePathAsync(w.source, { model: w.model, ...raftData })).reports.find((r) => (r.task ?? '') === (w.task ?? ''))!;
          expect(source.model).toBe(w.model);
        }
        const back = (await scorePathAsync(join(out, w.samples))).reports;
        // One report per result read back; the headline's first.
        expect(back).toHaveLength(w.results.length);
        const b = back[0];
        expect(b.format).toBe('eee');
        const n = w.model === undefined || source.models ? source.n : source.groups!.groups.find((g) => g.value === w.model)!.n;
        expect([w.source, b.n, b.metrics.accuracy]).toEqual([w.source, n, source.metrics.accuracy]);
        expect(b.kind).toBe(source.kind);
        // The figures the schema cannot carry come back from metadata.
        for (const m of ['auc', 'brier', 'ece', 'log_loss', 'mse'] as const) {
          if (typeof source.metrics[m] === 'number') expect(b.metrics[m], `${w.source} ${m}`).toBeCloseTo(source.metrics[m]!, 12);
        }
        // …and the aggregate beside the samples reports them, agreeing.
        expect(b.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
      }
      const kinds = new Set(written.map((w) => sources.get(`${w.source}\u0000${w.task ?? ''}`)!.kind));
      if (what.startsWith('the examples')) expect([...kinds].sort()).toEqual(['binary', 'confidence', 'multiclass', 'probability']);
    });
  }

  it('writes what the source says and "unknown" or empty for what it does not (a folktexts CSV)', async () => {
    const src = join(root, 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');
    const { out, written } = await convert([src]);
    expect(written).toHaveLength(1);
    const agg = JSON.parse(readFileSync(join(out, written[0].aggregate), 'utf8'));
    expect(agg.model_info).toMatchObject({ id: 'unknown', name: 'unknown', developer: 'unknown' });
    expect(agg.eval_library).toMatchObject({ name: 'folktexts', version: 'unknown' });
    expect(written[0].aggregate).toMatch(/^data\/unknown\/unknown\/unknown\//);
    const lines = readFileSync(join(out, written[0].samples), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const csv = readFileSync(src, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(lines.length).toBe(csv.length);
    for (const [i, rec] of lines.entries()) {
      const [index, score, label] = csv[i];
      expect(rec.input).toEqual({ raw: '', reference: [label] });
      expect(rec.output).toEqual({ raw: [] });
      expect(rec.sample_id).toBe(index);
      expect(rec.sample_hash).toBeUndefined();
      // Eval Lens's rule: score >= 0.5 against the label.
      expect(rec.evaluation.is_correct).toBe((Number(score) >= 0.5 ? 1 : 0) === Number(label));
      expect(rec.evaluation.score).toBe(rec.evaluation.is_correct ? 1 : 0);
      expect(Object.values(rec.metadata).every((v) => typeof v === 'string')).toBe(true);
      expect(Number(rec.metadata['eval_lens.risk_score'])).toBe(Number(score));
    }
    // The report's AUC, Brier and ECE are in the result's details, as text.
    const details = agg.evaluation_results[0].score_details.details;
    expect(Object.values(details).every((v) => typeof v === 'string')).toBe(true);
    expect(Object.keys(details)).toEqual(expect.arrayContaining(['eval_lens.auc', 'eval_lens.brier', 'eval_lens.ece']));
  });

  it('Python recomputes n, accuracy and AUC from the written lines alone, equal to sklearn on the source CSV', async () => {
    const src = join(root, 'examples', 'folktexts', 'Llama-3-8B-sim__ACSIncome__-1', 'Llama-3-8B-sim__ACSIncome__-1.test_predictions.csv');
    const { out, written } = await convert([src]);
    const py = `
import json, sys
import pandas as pd
from sklearn.metrics import roc_auc_score, brier_score_loss
rows = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8') if l.strip()]
src = pd.read_csv(sys.argv[2], index_col=0)
written = {'n': len({r['sample_id'] for r in rows}), 'accuracy': sum(r['evaluation']['is_correct'] for r in rows) / len(rows),
           'auc': roc_auc_score([int(r['metadata']['eval_lens.label']) for r in rows], [float(r['metadata']['eval_lens.risk_score']) for r in rows])}
source = {'n': len(src), 'accuracy': float(((src.risk_score >= 0.5).astype(int) == src.label).mean()),
          'auc': roc_auc_score(src.label, src.risk_score), 'brier': brier_score_loss(src.label, src.risk_score)}
print(json.dumps({'written': written, 'source': source}))
`;
    const got = JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, join(out, written[0].samples), src], { encoding: 'utf8' }));
    expect(got.written.n).toBe(got.source.n);
    expect(got.written.accuracy).toBeCloseTo(got.source.accuracy, 12);
    expect(got.written.auc).toBeCloseTo(got.source.auc, 12);
    const back = (await scorePathAsync(join(out, written[0].samples))).reports[0];
    expect(back.metrics.auc).toBeCloseTo(got.source.auc, 9);
    expect(back.metrics.brier).toBeCloseTo(got.source.brier, 9);
    expect(back.metrics.accuracy).toBeCloseTo(got.source.accuracy, 12);
  });

  it('hashes a sample as EEE\'s recipe does (sha256 of Python\'s sorted, compact json.dumps of raw and reference)', async () => {
    const src = join(root, 'examples', 'lm-eval', 'sim-model');
    const { out, written } = await convert([src]);
    const path = join(out, written[0].samples);
    const py = `
import json, sys, hashlib
for line in open(sys.argv[1], encoding='utf-8'):
    r = json.loads(line)
    h = hashlib.sha256(json.dumps({"raw": r["input"]["raw"], "reference": r["input"]["reference"]}, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()
    assert h == r["sample_hash"], (r["sample_id"], h, r["sample_hash"])
print("ok")
`;
    expect(execFileSync('/usr/bin/python3', ['-c', py, path], { encoding: 'utf8' }).trim()).toBe('ok');
    // Non-ASCII text hashes alike too (Python escapes it as \\uXXXX): an EEE file's own input, converted again.
    const odd = join(mkdtempSync(join(tmpdir(), 'eval-lens-eee-')), 'odd_samples.jsonl');
    const rec = (id: string, raw: string, ok: boolean) => JSON.stringify({
      schema_version: '0.3.0', evaluation_id: 'e', model_id: 'org/m', evaluation_name: 'odd', sample_id: id, interaction_type: 'single_turn',
      input: { raw, reference: ['Sí'] }, output: { raw: ['Sí'] }, answer_attribution: [], evaluation: { score: ok ? 1 : 0, is_correct: ok },
    });
    writeFileSync(odd, [rec('1', 'Qué es π? 😀', true), rec('2', 'tab\there "quoted" \u007f', false)].join('\n'));
    const again = await convert([odd]);
    expect(again.code).toBe(0);
    expect(execFileSync('/usr/bin/python3', ['-c', py, join(again.out, again.written[0].samples)], { encoding: 'utf8' }).trim()).toBe('ok');
    expect(readFileSync(join(again.out, again.written[0].samples), 'utf8')).toContain('"raw":"Qué es π? 😀"');
    expect(again.written[0].aggregate).toMatch(/^data\/odd\/org\/m\//);
  });
  it('a binary table whose prediction column decides (--map pred=…) keeps that decision, written and read back', async () => {
    const csv = join(mkdtempSync(join(tmpdir(), 'eval-lens-eee-')), 'decided.csv');
    // Rows 2 and 3: the prediction column and score >= 0.5 disagree; the column is right on both.
    writeFileSync(csv, 'id,score,label,pred\n1,0.9,1,1\n2,0.6,0,0\n3,0.4,1,1\n4,0.2,0,0\n5,0.7,1,0\n6,0.3,0,0\n');
    const map = ['--map', 'score=score', '--map', 'label=label', '--map', 'pred=pred'];
    const { out, written, code } = await convert([csv, ...map]);
    expect(code).toBe(0);
    checkFiles(out, written);
    const rows = readFileSync(csv, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const byPred = rows.filter((f) => f[3] === f[2]).length / rows.length;
    expect(written[0].accuracy).toBeCloseTo(byPred, 12);
    const lines = readFileSync(join(out, written[0].samples), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.evaluation.is_correct)).toEqual(rows.map((f) => f[3] === f[2]));
    expect(lines.map((l) => l.answer_attribution[0].extracted_value)).toEqual(rows.map((f) => f[3]));
    const back = (await scorePathAsync(join(out, written[0].samples))).reports[0];
    expect([back.kind, back.n, back.metrics.accuracy]).toEqual(['binary', 6, written[0].accuracy]);
    expect(back.problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });
});

describe('convert: the command line', () => {
  it('lists the rows score skips as problems with file and line, and still exits 0', async () => {
    const broken = join(root, 'examples', 'folktexts', 'broken', 'broken.test_predictions.csv');
    const { code, stderr, written } = await convert([broken]);
    expect(code).toBe(0);
    const source = (await scorePathAsync(broken)).reports[0];
    for (const p of source.problems.filter((x) => x.severity === 'error')) expect(stderr).toContain(`${broken}:${p.line}: error: ${p.message}`);
    expect(written[0].n).toBe(source.n);
  });

  it('exits 2 when nothing could be written, and 1 on usage errors; --help says how', async () => {
    const none = await convert([join(REAL, 'inspect-ai', '2025-05-12T20-28-13-04-00_no-samples.json')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/not converted: The log holds no samples/);
    expect((await runCli(['convert', join(root, 'examples', 'generic'), '/tmp/x'])).code).toBe(1);
    expect((await runCli(['convert', join(root, 'examples', 'generic'), '--to', 'csv', '/tmp/x'])).stderr).toMatch(/--to must be one of eee/);
    expect((await runCli(['convert', '--to', 'eee', '/tmp/x'])).code).toBe(1);
    const help = await runCli(['convert', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: eval-lens convert PATH\.\.\. --to eee OUT\//);
    expect((await runCli(['--help'])).stdout).toMatch(/convert/);
  });

  it('a summary of reported figures is listed as not written (it has no samples)', async () => {
    const { stderr, code } = await convert([join(REAL, 'lm-eval', 'qwen__qwen2.5-7B')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/not converted: .*no samples to write|not converted/);
  });
});
