// The per-kind metric table against what the core really computes for a file of each kind, and the
// rules the cards, the CLI table and the one-line summaries rely on.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeCompanionReader, scorePath } from '../../../src/core/index';
import { METRIC_NAMES, RATE_NAMES, type Kind } from '../../../src/core/types';
import { cardMetrics, headlineMetric, HMR_METRICS, KIND_METRICS, summaryMetrics } from '../../../src/common/metricTable';

const examples = join(__dirname, '..', '..', '..', 'examples');
const FILE_OF_KIND: Record<Kind, string> = {
  binary: 'folktexts/Mistral-7B-sim__ACSIncome__-1/Mistral-7B-sim__ACSIncome__-1.test_predictions.csv',
  confidence: 'generic/qa_confidence.csv',
  multiclass: 'lm-eval/sim-model/samples_prime_mc_2026-11-30T09-00-00.000000.jsonl',
  probability: 'almanacs/moral_dilemmas.predictions.jsonl',
  // A scores file's figures are its taskMetrics, or a judge file's (which of them depends on the file: test/unit/judges/).
  scores: '',
};

/** lm-eval's figures, and a stated confidence's (no class probabilities), computed only when the file has what they need. */
const FILE_DEPENDENT = ['acc_norm', 'perplexity', 'confidence_auroc', 'confidence_brier'];

describe('per-kind metric table', () => {
  it.each(Object.entries(FILE_OF_KIND).filter(([, rel]) => rel))('lists exactly the metrics the core computes for a %s file, in METRIC_NAMES order', (kind, rel) => {
    const [report] = scorePath(join(examples, rel), { bootstrap: 20 }, nodeCompanionReader).reports;
    expect(report.kind).toBe(kind);
    const computed = KIND_METRICS[kind as Kind].computed as readonly string[];
    const produced = Object.keys(report.metrics).filter((m) => (METRIC_NAMES as readonly string[]).includes(m));
    // What the file has, in the table's order; what it lacks only the metrics some files have.
    expect(produced).toEqual(computed.filter((m) => produced.includes(m)));
    expect(computed.filter((m) => !produced.includes(m)).every((m) => FILE_DEPENDENT.includes(m))).toBe(true);
    // Every computed metric gets an interval, and only those.
    expect(Object.keys(report.intervals).filter((m) => !(RATE_NAMES as readonly string[]).includes(m)).every((m) => computed.includes(m))).toBe(true);
    const order = KIND_METRICS[kind as Kind].computed.map((m) => METRIC_NAMES.indexOf(m));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('shows as cards and summaries only metrics the kind computes, and no HMR metric as a card', () => {
    for (const { computed, cards, summary } of Object.values(KIND_METRICS)) {
      for (const m of [...cards, ...summary]) expect(computed as readonly string[]).toContain(m);
      for (const m of cards) expect(HMR_METRICS).not.toContain(m);
    }
  });

  it('leads with ECE for risk scores, MSE for probabilities, macro-F1 for RAFT and accuracy otherwise, everywhere', () => {
    const cases = [
      [{ format: 'folktexts', kind: 'binary' }, 'ece'],
      [{ format: 'almanacs', kind: 'probability' }, 'mse'],
      [{ format: 'raft', kind: 'multiclass' }, 'macro_f1'],
      [{ format: 'lm-eval', kind: 'multiclass' }, 'accuracy'],
      [{ format: 'generic', kind: 'confidence' }, 'accuracy'],
      // Judge files: the figure their models are ranked by.
      [{ format: 'alpacaeval', kind: 'scores' }, 'win_rate'],
      [{ format: 'mt-bench', kind: 'scores' }, 'judge_score'],
    ] as const;
    for (const [r, want] of cases) {
      expect(headlineMetric(r)).toBe(want);
      expect(cardMetrics(r)[0]).toBe(want);
      expect(summaryMetrics(r)[0]).toBe(want);
      expect(new Set(cardMetrics(r)).size).toBe(cardMetrics(r).length);
    }
  });
});
