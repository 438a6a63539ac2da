// lm-eval files of issue 17, in lm-eval's exact layouts (test/fixtures/lm-eval-field/issue17,
// written by make_fixtures.py with Python's json, which writes bare NaN and Infinity; expected.json
// holds what numpy computes on them): NaN/Infinity in samples and results (point 3), 0.4.2's
// samples_<task>_<ts>.json arrays and results paired by timestamp (point 4), a task's own per-sample
// metrics under their names (point 6), an empty answer equal to an empty gold (point 2).
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { parsePythonJson } from '../../../src/core/formats/pythonJson';

const DIR = resolve(__dirname, '../../fixtures/lm-eval-field/issue17');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));

describe('JSON as Python writes it (point 3)', () => {
  it('reads NaN, Infinity and -Infinity as numbers, leaves them alone in strings, and still refuses broken JSON', () => {
    expect(parsePythonJson('{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN -Infinity", "d": "\\"Infinity"}'))
      .toEqual({ a: NaN, b: [Infinity, -Infinity], c: 'NaN -Infinity', d: '"Infinity' });
    expect(() => parsePythonJson('{"a": NaN,}')).toThrow(SyntaxError);
    expect(() => parsePythonJson('{"a": nan}')).toThrow(SyntaxError);
  });

  const MAE = join(DIR, 'mae/samples_mae_task_2024-06-02T09-30-00.000001.jsonl');
  const report = scoreFile(MAE, { bootstrap: 0 });

  it('scores every line, the 17 with NaN in their doc too', () => {
    const lines = readFileSync(MAE, 'utf8').trim().split('\n');
    expect(lines.filter((l) => /\bNaN\b/.test(l)).length).toBe(expected.mae_task.lines_with_nan);
    expect(report.fatal).toBeUndefined();
    expect(report.n).toBe(expected.mae_task.n);
    expect(report.problems.filter((p) => p.code === 'json-parse')).toEqual([]);
  });

  it('keeps the results file\'s "mae,none": Infinity, shown as such beside the per-sample mean', () => {
    expect(report.reported.mae).toBe(Infinity);
    expect(report.reportedNonFinite).toEqual({ mae: 'Infinity' });
    const mae = report.taskMetrics!.find((m) => m.name === 'mae')!;
    expect(mae.mean).toBe(Infinity); // one sample's mae is inf, as numpy's mean says
    expect(mae.reported).toBe(Infinity);
    expect(mae.n).toBe(24);
  });

  it('answers that are numbers in free text are no labels: no label accuracy or macro-F1 without a per-sample verdict', () => {
    expect(report.metrics.accuracy).toBeUndefined();
    expect(report.metrics.macro_f1).toBeUndefined();
    expect(report.classStats).toBeNull();
    expect(report.problems.some((p) => /free text, not labels/.test(p.message))).toBe(true);
  });
});

describe('lm-eval 0.4.2: samples_<task>_<ts>.json, results paired by timestamp (point 4)', () => {
  const ts = expected.eqbench.timestamp;
  const dir = mkdtempSync(join(tmpdir(), 'lm-eval-042-'));
  const samples = join(dir, `samples_eqbench_${ts}.json`);
  copyFileSync(join(DIR, `v0.4.2/samples_eqbench_${ts}.json`), samples);
  // lm-eval has named results after the model: results_<model>:<ts>_<ts>.json (made here: a colon
  // cannot be in a committed file name on Windows).
  copyFileSync(join(DIR, 'v0.4.2/results_eqbench.json'), join(dir, `results_org__model:${ts}_${ts}.json`));
  const report = scoreFile(samples, { bootstrap: 200, seed: 3 });

  it('is read as lm-eval, with the task from the name and every sample of the array', () => {
    expect(report.format).toBe('lm-eval');
    expect(report.task).toBe('eqbench');
    expect(report.n).toBe(expected.eqbench.n);
  });

  it('finds the results file whatever stands before the timestamp', () => {
    expect(report.reportedPath).toBe(join(dir, `results_org__model:${ts}_${ts}.json`));
  });

  it('each per-sample metric is a metric of the report under its own name, with the reported figure beside it (point 6)', () => {
    const byName = Object.fromEntries(report.taskMetrics!.map((m) => [m.name, m]));
    expect(Object.keys(byName)).toEqual(['eqbench', 'percent_parseable']);
    expect(Math.abs(byName.eqbench.mean! - expected.eqbench.eqbench)).toBeLessThan(1e-9);
    expect(Math.abs(byName.percent_parseable.mean! - expected.eqbench.percent_parseable)).toBeLessThan(1e-9);
    expect(byName.eqbench.reported).toBeCloseTo(expected.eqbench.eqbench, 9);
    expect(byName.percent_parseable.reported).toBe(expected.eqbench.percent_parseable);
    const [lo, hi] = byName.eqbench.interval!;
    expect(lo).toBeLessThan(byName.eqbench.mean!);
    expect(hi).toBeGreaterThan(byName.eqbench.mean!);
  });

  it('35 distinct targets in 40 samples are free text: no label accuracy, macro-F1 or per-class table', () => {
    expect(expected.eqbench.distinct_targets).toBeGreaterThan(expected.eqbench.n / 2);
    expect(report.metrics.macro_f1).toBeUndefined();
    expect(report.metrics.accuracy).toBeUndefined();
    expect(report.classStats).toBeNull();
  });
});

describe('an empty answer equals an empty gold (point 2)', () => {
  const NER = join(DIR, 'ner/samples_ner_2024-06-03T08-00-00.000000.jsonl');
  const report = scoreFile(NER, { bootstrap: 0 });

  it('counts [""] against "" as right, as numpy counts them', () => {
    expect(expected.ner.empty_pairs).toBeGreaterThan(0);
    expect(report.n).toBe(expected.ner.n);
    expect(report.metrics.accuracy).toBeCloseTo(expected.ner.accuracy, 12);
  });
});

describe('entity texts as label sets are free text (MasakhaNER-like layout)', () => {
  const report = scoreFile(join(DIR, 'ner/samples_ner_text_2024-06-04T08-00-00.000000.jsonl'), { bootstrap: 0 });

  // The pairs are lm-eval's corpus-level f1 passthrough and there is no per-sample verdict: an
  // exact-match share of the pairs is no figure lm-eval has (test/unit/lmEvalCorpusMetric.test.ts).
  it('no exact-match accuracy, macro-F1 or per-class table over entity texts', () => {
    expect(expected.ner_text.distinct_golds).toBeGreaterThan(expected.ner_text.n / 2);
    expect(report.metrics.accuracy).toBeUndefined();
    expect(report.metrics.macro_f1).toBeUndefined();
    expect(report.classStats).toBeNull();
  });
});

describe('a real lm-eval samples_<task>_<ts>.json (lm-evaluation-harness, bias_classification, 2024-06)', () => {
  const REAL = resolve(__dirname, '../../fixtures/real/lm-eval/meta-llama__Meta-Llama-3-8B');
  const ref = JSON.parse(readFileSync(resolve(__dirname, '../../reference/issue17_real_expected.json'), 'utf8')).bias_classification;
  const report = scoreFile(join(REAL, 'samples_bias_classification_2024-06-17T16-06-39.458097.json'), { bootstrap: 0 });

  it('is read as lm-eval (JSON Lines in a .json), its task from the name, its results file paired by timestamp', () => {
    expect(report.format).toBe('lm-eval');
    expect(report.task).toBe('bias_classification');
    expect(report.n).toBe(ref.n);
    expect(report.reportedPath).toBe(join(REAL, 'results_2024-06-17T16-06-39.458097.json'));
    expect(report.metrics.accuracy).toBeCloseTo(ref.acc, 12);
  });

  it('acc and acc_norm, logged per sample, are task metrics beside the figures the results file reports', () => {
    const byName = Object.fromEntries(report.taskMetrics!.map((m) => [m.name, m]));
    expect(byName.acc.mean).toBeCloseTo(ref.acc, 12);
    expect(byName.acc_norm.mean).toBeCloseTo(ref.acc_norm, 12);
    expect(byName.acc.reported).toBe(ref.reported_acc);
    expect(byName.acc_norm.reported).toBe(ref.reported_acc_norm);
  });
});

describe('a real results_<model>:<ts>_<ts>.json beside its samples (lm-evaluation-harness, eqbench_ca, FLOR-760M)', () => {
  const REAL = resolve(__dirname, '../../fixtures/real/lm-eval/FLOR-760M');
  const ref = JSON.parse(readFileSync(resolve(__dirname, '../../reference/issue17_real_expected.json'), 'utf8')).eqbench_ca;
  const ts = '2025-07-21T14-41-47.889425';
  const dir = mkdtempSync(join(tmpdir(), 'lm-eval-flor-'));
  copyFileSync(join(REAL, `samples_eqbench_ca_${ts}.jsonl`), join(dir, `samples_eqbench_ca_${ts}.jsonl`));
  const resultsName = `results_FLOR-760M:2025-07-21T1441-16_${ts}.json`;
  copyFileSync(join(REAL, `results_FLOR-760M-colon-2025-07-21T1441-16_${ts}.json.txt`), join(dir, resultsName));
  const report = scoreFile(join(dir, `samples_eqbench_ca_${ts}.jsonl`), { bootstrap: 0 });

  it('pairs the results file by its timestamp and names the model by its checkpoint folder', () => {
    expect(report.reportedPath).toBe(join(dir, resultsName));
    expect(ref.model_name).toMatch(/^\/.*\/FLOR-760M$/);
    expect(report.sourceModel).toBe('FLOR-760M');
  });

  it('eqbench and percent_parseable are metrics under their names, with lm-eval\'s figures beside them', () => {
    expect(report.n).toBe(ref.n);
    const byName = Object.fromEntries(report.taskMetrics!.map((m) => [m.name, m]));
    expect(byName.eqbench.mean).toBe(ref.eqbench);
    expect(byName.percent_parseable.mean).toBe(ref.percent_parseable);
    expect(byName.eqbench.reported).toBe(ref.reported_eqbench);
    expect(byName.percent_parseable.reported).toBe(ref.reported_percent_parseable);
    // Emotion-score dictionaries are no labels: no label accuracy without a 0/1 verdict, no macro-F1.
    expect(report.metrics.accuracy).toBeUndefined();
    expect(report.metrics.macro_f1).toBeUndefined();
  });
});
