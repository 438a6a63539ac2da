// lm-eval files as they come from the field (issue 9): acc_norm computed where the file has no
// such field, lm-eval's own figures beside the recomputed ones, single-continuation tasks,
// simple_evaluate dumps and 2023 (v0.4.0) logs. The fixtures in test/fixtures/lm-eval-field are
// written by make_fixtures.py in lm-eval's exact layouts; expected.json holds what numpy computes
// on them, independently of this code.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile, scorePath } from '../../../src/core/score';
import { codePointLength, normalisedArgmax } from '../../../src/core/metrics/lmEvalMetrics';
import type { MulticlassSet } from '../../../src/core/types';
import { fileInput } from '../../../src/core/formats/context';
import { parseInput } from '../../../src/core/score';
import { resolveOptions } from '../../../src/core/report';

const DIR = resolve(__dirname, '../../fixtures/lm-eval-field');
const REAL = resolve(__dirname, '../../fixtures/real/lm-eval/Qwen__Qwen3-8B');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));
const HELLASWAG = join(DIR, 'hellaswag/samples_hellaswag_2024-05-01T10-00-00.000000.jsonl');
const LAMBADA = join(DIR, 'lambada/samples_lambada_openai_2024-05-01T11-00-00.000000.jsonl');
const DUMP = join(DIR, 'simple_evaluate.json');
const OLD = join(DIR, 'v0.4.0/pretrained__EleutherAI__pythia-160m_sciq.jsonl');
const close = (a: number | null | undefined, b: number) => expect(Math.abs((a ?? NaN) - b)).toBeLessThan(1e-12);

describe('acc_norm (hellaswag-like file without an acc_norm field)', () => {
  const raw = readFileSync(HELLASWAG, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const report = scoreFile(HELLASWAG);

  it('the file really has no acc_norm field, and acc and acc_norm part on many rows', () => {
    expect(raw.some((r) => 'acc_norm' in r)).toBe(false);
    expect(expected.hellaswag.rows_differing).toBeGreaterThanOrEqual(10);
  });

  it('computes acc and acc_norm as numpy does on the same loglikelihoods', () => {
    expect(report.n).toBe(expected.hellaswag.n);
    close(report.metrics.accuracy, expected.hellaswag.acc);
    close(report.metrics.acc_norm, expected.hellaswag.acc_norm);
    expect(report.decision).toBe('acc');
  });

  it("shows lm-eval's own figures from the results file under the same names, with the stderrs", () => {
    const results = JSON.parse(readFileSync(join(DIR, 'hellaswag/results_2024-05-01T10-00-00.000000.json'), 'utf8')).results.hellaswag;
    expect(report.reported).toEqual({
      accuracy: results['acc,none'], acc_stderr: results['acc_stderr,none'],
      acc_norm: results['acc_norm,none'], acc_norm_stderr: results['acc_norm_stderr,none'],
    });
    expect(report.reportedPath).toMatch(/results_2024-05-01T10-00-00\.000000\.json$/);
    expect(report.problems).toEqual([]);
  });

  it('the calibration views can judge the acc_norm choice instead; accuracy stays acc', () => {
    const norm = scoreFile(HELLASWAG, { decision: 'acc_norm' });
    expect(norm.decision).toBe('acc_norm');
    close(norm.metrics.accuracy, expected.hellaswag.acc);
    close(norm.metrics.acc_norm, expected.hellaswag.acc_norm);
    // The instances' correctness is now acc_norm's verdict, row by row.
    const parsed = parseInput(fileInput(HELLASWAG, readFileSync(HELLASWAG)), resolveOptions({}));
    const set = parsed.set as MulticlassSet;
    const correct = Array.from(set.predNorm!, (p, i) => (p === set.gold[i] ? 1 : 0));
    expect(Array.from(norm.instances!.correct)).toEqual(correct);
    expect(norm.metrics.ece).not.toBe(report.metrics.ece);
  });
});

describe('normalisedArgmax counts characters as Python does', () => {
  it('code points, not UTF-16 units', () => {
    expect(codePointLength('🙂')).toBe(1);
    expect(codePointLength('a🙂b')).toBe(3);
    // -1.5 per character beats -2.8 / 2 = -1.4? No: -1.4 > -1.5, so choice 1; with '🙂' counted as 2 it would be choice 0.
    expect(normalisedArgmax([-1.5, -2.8], ['🙂', 'ab'])).toBe(1);
    expect(normalisedArgmax([-3, -3], ['abc', 'abc'])).toBe(0); // ties: the first
  });
});

describe('single-continuation loglikelihood task (lambada-like)', () => {
  const report = scoreFile(LAMBADA);
  it('accuracy is the share of greedy continuations, perplexity exp(-mean ll), both beside lm-eval\'s', () => {
    expect(report.n).toBe(expected.lambada_openai.n);
    close(report.metrics.accuracy, expected.lambada_openai.acc);
    expect(Math.abs(report.metrics.perplexity! - expected.lambada_openai.perplexity) / expected.lambada_openai.perplexity).toBeLessThan(1e-12);
    expect(report.metrics.macro_f1).toBeUndefined();
    expect(report.reported.perplexity).toBeCloseTo(expected.lambada_openai.perplexity, 10);
    expect(report.problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });
});

describe('simple_evaluate dump', () => {
  it('reads as one report per task, each equal to the task\'s own samples file', () => {
    const { reports } = scorePath(DUMP);
    expect(reports.map((r) => r.task)).toEqual(['hellaswag', 'lambada_openai']);
    expect(reports[0].tasks).toEqual(['hellaswag', 'lambada_openai']);
    const own = [scoreFile(HELLASWAG), scoreFile(LAMBADA)];
    reports.forEach((r, i) => {
      expect(r.metrics).toEqual(own[i].metrics);
      expect(r.reported).toEqual(own[i].reported);
    });
  });
  it('options.task picks one task', () => {
    const { reports } = scorePath(DUMP, { task: 'lambada_openai' });
    expect(reports.map((r) => r.task)).toEqual(['lambada_openai']);
  });
});

describe('2023 log (lm-eval v0.4.0): a JSON array, target = the answer text', () => {
  const report = scoreFile(OLD);
  it('maps the text to its one matching choice, skips it with a problem when two choices match', () => {
    expect(report.n).toBe(expected.sciq_v040.n);
    expect(report.skipped).toBe(2);
    close(report.metrics.accuracy, expected.sciq_v040.acc);
    const bad = report.problems.filter((p) => p.severity === 'error');
    expect(bad.map((p) => p.message.slice(0, 9))).toEqual(expected.sciq_v040.skipped_doc_ids.map((id: number) => `doc_id ${id}:`));
    expect(bad.every((p) => /matches 2 choices/.test(p.message))).toBe(true);
    // The file's own acc_norm verdicts agree with the recomputed acc_norm: no mismatch.
    expect(report.problems.filter((p) => p.code === 'reported-mismatch')).toEqual([]);
  });
});

describe('generated answers: names that match, definitions that differ (real NegotiationToM intention file)', () => {
  const path = join(REAL, 'samples_negotiationtom_intention_2026-07-08T18-15-33.115417.jsonl');
  const report = scoreFile(path);
  it('macro_f1 0.031 beside lm-eval\'s 0.240, with one sentence saying why, as information', () => {
    const results = JSON.parse(readFileSync(join(REAL, 'results_2026-07-08T18-15-33.115417.json'), 'utf8')).results.negotiationtom_intention;
    expect(report.reported.macro_f1).toBe(results['macro_f1,none']);
    expect(report.metrics.macro_f1).toBeLessThan(0.05);
    expect(report.reportedNotes?.macro_f1).toMatch(/label lists/);
    const mismatch = report.problems.filter((p) => p.code === 'reported-mismatch');
    expect(mismatch).toHaveLength(1);
    expect(mismatch[0].severity).toBe('info');
    expect(mismatch[0].message).toMatch(/^macro_f1: .* reports 0\.2403, recomputed from this file 0\.031\d+\. lm-eval's macro_f1/);
  });
});
