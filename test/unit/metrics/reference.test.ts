// The metric core against values computed independently by scikit-learn 1.2.1, scipy and numpy
// implementations of docs/metrics.md (test/reference/metrics_reference.py -> metrics_expected.json).
import { describe, expect, it } from 'vitest';
import expected from '../../reference/metrics_expected.json';
import { binaryMetrics } from '../../../src/core/metrics/binary';
import {
  binIndexEqualCount,
  binIndexEqualWidth,
  ece,
  eceQuantile,
  equalCountBins,
  equalWidthBins,
  hmr,
  ks,
  mce,
  mceQuantile,
  weightedGap,
} from '../../../src/core/metrics/calibration';
import { accuracy, classStats, macroF1 } from '../../../src/core/metrics/classification';
import { auc, rocCurve } from '../../../src/core/metrics/ranking';
import { averageRanks, klBernoulli, mse, spearman, tvd } from '../../../src/core/metrics/regression';
import { brierBinary, brierMulticlass, logLossBinary, logLossMulticlass } from '../../../src/core/metrics/scoring';
import { stableArgsort } from '../../../src/core/metrics/sort';
import { statedConfidenceMetrics } from '../../../src/core/metrics/statedConfidence';
import { buildReport, resolveOptions } from '../../../src/core/report';
import type { ConfidenceSet, MulticlassSet, ReliabilityBin } from '../../../src/core/types';

const DIGITS = 10; // |a - b| < 5e-11

function close(actual: number | null, want: number | null, what: string): void {
  if (want === null) {
    expect(actual, what).toBeNull();
    return;
  }
  expect(actual, what).not.toBeNull();
  expect(actual as number, what).toBeCloseTo(want, DIGITS);
}

function closeAll(actual: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  expect(actual.length, `${what}: length`).toBe(want.length);
  for (let i = 0; i < want.length; i++) close(actual[i], want[i], `${what}[${i}]`);
}

interface RefBin {
  count: number;
  meanValue: number | null;
  meanTarget: number | null;
  gap: number | null;
  lo?: number;
  hi?: number;
}

function sameBins(actual: ReliabilityBin[], want: RefBin[], what: string): void {
  expect(actual.length, `${what}: bins`).toBe(want.length);
  want.forEach((w, b) => {
    const a = actual[b];
    expect(a.count, `${what}[${b}].count`).toBe(w.count);
    close(a.meanValue, w.meanValue, `${what}[${b}].meanValue`);
    close(a.meanTarget, w.meanTarget, `${what}[${b}].meanTarget`);
    close(a.gap, w.gap, `${what}[${b}].gap`);
    if (w.lo !== undefined) close(a.lo, w.lo, `${what}[${b}].lo`);
    if (w.hi !== undefined) close(a.hi, w.hi, `${what}[${b}].hi`);
  });
}

interface RefCalibration {
  ece: number;
  ece_quantile: number;
  ece_weighted_equal_count: number;
  mce: number;
  mce_quantile: number;
  ks: number;
  equal_width: RefBin[];
  equal_count: RefBin[];
  bin_index_equal_width: number[];
  bin_index_equal_count: number[];
}

/** Every calibration function on (value, target) against the reference for each bin count. */
function checkCalibration(value: Float64Array, target: Uint8Array, byBins: Record<string, RefCalibration>, what: string) {
  const order = stableArgsort(value);
  for (const [key, ref] of Object.entries(byBins)) {
    const nb = Number(key);
    const at = `${what} bins=${nb}`;
    close(ece(value, target, nb), ref.ece, `${at} ece`);
    close(eceQuantile(value, target, nb), ref.ece_quantile, `${at} ece_quantile`);
    close(eceQuantile(value, target, nb, order), ref.ece_quantile, `${at} ece_quantile(order)`);
    close(weightedGap(equalCountBins(value, target, nb)), ref.ece_weighted_equal_count, `${at} ece weighted equal-count`);
    close(mce(value, target, nb), ref.mce, `${at} mce`);
    close(mceQuantile(value, target, nb, order), ref.mce_quantile, `${at} mce_quantile`);
    close(ks(value, target), ref.ks, `${at} ks`);
    sameBins(equalWidthBins(value, target, nb), ref.equal_width, `${at} equalWidth`);
    sameBins(equalCountBins(value, target, nb, order), ref.equal_count, `${at} equalCount`);
    expect(Array.from(binIndexEqualWidth(value, nb)), `${at} bin index`).toEqual(ref.bin_index_equal_width);
    expect(Array.from(binIndexEqualCount(value, nb, order)), `${at} quantile bin index`).toEqual(ref.bin_index_equal_count);
  }
}

describe('reference: binary', () => {
  for (const ref of expected.binary) {
    const score = Float64Array.from(ref.score);
    const label = Uint8Array.from(ref.label);
    const calibration = ref.calibration as Record<string, RefCalibration>;

    it(`${ref.name}: standalone functions`, () => {
      close(auc(score, label), ref.auc, 'auc');
      close(brierBinary(score, label), ref.brier, 'brier');
      close(logLossBinary(score, label), ref.log_loss, 'log_loss');
      const pred = Uint8Array.from(ref.score, (s) => (s >= ref.threshold ? 1 : 0));
      close(accuracy(pred, label), ref.accuracy, 'accuracy');
      checkCalibration(score, label, calibration, ref.name);
      const conf = Float64Array.from(ref.score, (s) => Math.max(s, 1 - s));
      const correct = Uint8Array.from(pred, (p, i) => (p === label[i] ? 1 : 0));
      const h = hmr(conf, correct, ref.beta);
      for (const key of ['r_o', 'r_u', 'hmr', 'hmr_beta'] as const) close(h[key], ref.hmr[key], `hmr.${key}`);
    });

    it(`${ref.name}: full ROC curve equals sklearn roc_curve(drop_intermediate=False)`, () => {
      const roc = rocCurve(score, label, undefined, Infinity);
      expect(roc).not.toBeNull();
      closeAll(roc!.fpr, ref.roc.fpr, 'fpr');
      closeAll(roc!.tpr, ref.roc.tpr, 'tpr');
      closeAll(roc!.thresholds, ref.roc.thresholds, 'thresholds');
    });

    it(`${ref.name}: decimated ROC keeps the ends and only points of the full curve`, () => {
      const max = 20;
      const roc = rocCurve(score, label, stableArgsort(score), max)!;
      const m = ref.roc.fpr.length;
      expect(roc.fpr.length).toBe(Math.min(m, max));
      close(roc.fpr[0], ref.roc.fpr[0], 'first fpr');
      close(roc.thresholds[0], ref.roc.thresholds[0], 'first threshold');
      close(roc.fpr.at(-1)!, ref.roc.fpr[m - 1], 'last fpr');
      close(roc.tpr.at(-1)!, ref.roc.tpr[m - 1], 'last tpr');
      let from = 0;
      for (let j = 0; j < roc.thresholds.length; j++) {
        // Each kept point is a point of the full curve, in order.
        const at = ref.roc.thresholds.findIndex((t, i) => i >= from && Math.abs(t - roc.thresholds[j]) < 1e-12);
        expect(at, `point ${j}`).toBeGreaterThanOrEqual(from);
        close(roc.fpr[j], ref.roc.fpr[at], `fpr ${j}`);
        close(roc.tpr[j], ref.roc.tpr[at], `tpr ${j}`);
        from = at + 1;
      }
    });

    it(`${ref.name}: binaryMetrics (the hot path) agrees`, () => {
      const cal = calibration['10'];
      const r = binaryMetrics(score, label, { bins: 10, threshold: ref.threshold, hmrBeta: ref.beta });
      const m = r.metrics;
      close(m.accuracy, ref.accuracy, 'accuracy');
      close(m.auc, ref.auc, 'auc');
      close(m.brier, ref.brier, 'brier');
      close(m.nbr, ref.brier, 'nbr');
      close(m.log_loss, ref.log_loss, 'log_loss');
      close(m.ece, cal.ece, 'ece');
      close(m.ece_quantile, cal.ece_quantile, 'ece_quantile');
      close(m.mce, cal.mce, 'mce');
      close(m.mce_quantile, cal.mce_quantile, 'mce_quantile');
      close(m.ks, cal.ks, 'ks');
      for (const key of ['r_o', 'r_u', 'hmr', 'hmr_beta'] as const) close(m[key], ref.hmr[key], key);
      sameBins(r.bins.equalWidth, cal.equal_width, 'equalWidth');
      sameBins(r.bins.equalCount, cal.equal_count, 'equalCount');
      expect(Array.from(r.order)).toEqual(Array.from(stableArgsort(score)));
      expect(r.roc!.fpr.length).toBe(Math.min(512, ref.roc.fpr.length));
    });
  }
});

describe('reference: multiclass', () => {
  const ref = expected.multiclass;
  const gold = Int32Array.from(ref.gold);
  const pred = Int32Array.from(ref.pred);
  const probs = Float64Array.from(ref.probs);
  const k = ref.k;

  it('accuracy, per-class stats and confusion matrix (sklearn, zero_division=0)', () => {
    close(accuracy(pred, gold), ref.accuracy, 'accuracy');
    const stats = classStats(gold, pred, k, ref.classes);
    expect(stats.classes).toEqual(ref.classes);
    closeAll(stats.precision, ref.precision, 'precision');
    closeAll(stats.recall, ref.recall, 'recall');
    closeAll(stats.f1, ref.f1, 'f1');
    expect(stats.support).toEqual(ref.support);
    expect(stats.confusion).toEqual(ref.confusion);
  });

  it('macro F1 over all task classes (RAFT) and over the classes seen', () => {
    close(macroF1(gold, pred, k), ref.macro_f1_all, 'macro_f1 all classes');
    close(macroF1(gold, pred, k, ref.classes_seen), ref.macro_f1_seen, 'macro_f1 seen classes');
    expect(ref.macro_f1_all).not.toBeCloseTo(ref.macro_f1_seen, 3); // the case does tell them apart
  });

  it('Brier (summed over classes), nbr and log loss', () => {
    const brier = brierMulticlass(probs, k, gold);
    close(brier, ref.brier, 'brier');
    close(brier / 2, ref.nbr, 'nbr');
    close(logLossMulticlass(probs, k, gold), ref.log_loss, 'log_loss');
  });

  it('a stated confidence alone (no class probabilities): confidence_auroc and confidence_brier, through the report too', () => {
    const conf = Float64Array.from(ref.stated_confidence);
    const correct = Uint8Array.from(pred, (p, i) => (p === gold[i] ? 1 : 0));
    const direct = statedConfidenceMetrics(conf, correct);
    close(direct.confidence_auroc, ref.confidence_auroc, 'confidence_auroc');
    close(direct.confidence_brier, ref.confidence_brier, 'confidence_brier');
    const set: MulticlassSet = { kind: 'multiclass', n: gold.length, lines: new Uint32Array(gold.length), classes: ref.classes, classesKnown: true, gold, pred, confidence: conf };
    const r = buildReport('stated.csv', { format: 'generic', set, problems: [], skipped: 0, unlabeled: 0 }, resolveOptions({ bootstrap: 50 }));
    close(r.metrics.confidence_auroc ?? null, ref.confidence_auroc, 'report confidence_auroc');
    close(r.metrics.confidence_brier ?? null, ref.confidence_brier, 'report confidence_brier');
    // Resampled with the rest of the top-label metrics: a 95% interval around each.
    for (const m of ['confidence_auroc', 'confidence_brier'] as const) {
      const [lo, hi] = r.intervals[m]!;
      expect(lo).toBeLessThanOrEqual(r.metrics[m]!);
      expect(hi).toBeGreaterThanOrEqual(r.metrics[m]!);
    }
    // With class probabilities the confidence is theirs: their Brier judges them, not these.
    const withProbs = buildReport('probs.csv', { format: 'generic', set: { ...set, confidence: undefined, probs }, problems: [], skipped: 0, unlabeled: 0 }, resolveOptions({}));
    expect(withProbs.metrics.confidence_auroc).toBeUndefined();
    expect(withProbs.metrics.confidence_brier).toBeUndefined();
  });

  it('top-label calibration and HMR', () => {
    const conf = Float64Array.from(pred, (p, i) => probs[i * k + p]);
    const correct = Uint8Array.from(pred, (p, i) => (p === gold[i] ? 1 : 0));
    checkCalibration(conf, correct, ref.calibration as Record<string, RefCalibration>, 'multiclass');
    const h = hmr(conf, correct, ref.hmr.beta);
    for (const key of ['r_o', 'r_u', 'hmr', 'hmr_beta'] as const) close(h[key], ref.hmr[key], key);
  });
});

describe('reference: probability regression (ALMANACS)', () => {
  const ref = expected.regression;
  const pred = Float64Array.from(ref.pred);
  const gold = Float64Array.from(ref.gold);

  it('mse, tvd, kl (clipped at 1e-6), spearman (average ranks)', () => {
    expect(ref.n_pred_zero_or_one).toBeGreaterThan(0); // the clipping is exercised
    close(mse(pred, gold), ref.mse, 'mse');
    close(tvd(pred, gold), ref.tvd, 'tvd');
    close(klBernoulli(pred, gold), ref.kl, 'kl');
    close(spearman(pred, gold), ref.spearman, 'spearman');
    closeAll(averageRanks(pred), ref.ranks_pred, 'ranks');
  });
});

describe('reference: confidence', () => {
  const ref = expected.confidence;
  const conf = Float64Array.from(ref.confidence);
  const correct = Uint8Array.from(ref.correct);

  it('calibration at 10, 15 and 3 bins', () => {
    checkCalibration(conf, correct, ref.calibration as Record<string, RefCalibration>, 'confidence');
  });

  it('confidence_auroc (sklearn roc_auc_score(correct, confidence)) and confidence_brier (brier_score_loss), alone and in the report', () => {
    const direct = statedConfidenceMetrics(conf, correct);
    close(direct.confidence_auroc, ref.confidence_auroc, 'confidence_auroc');
    close(direct.confidence_brier, ref.confidence_brier, 'confidence_brier');
    const set: ConfidenceSet = { kind: 'confidence', n: conf.length, lines: new Uint32Array(conf.length), confidence: conf, correct };
    const r = buildReport('qa.csv', { format: 'generic', set, problems: [], skipped: 0, unlabeled: 0 }, resolveOptions({ bootstrap: 50 }));
    close(r.metrics.confidence_auroc ?? null, ref.confidence_auroc, 'report confidence_auroc');
    close(r.metrics.confidence_brier ?? null, ref.confidence_brier, 'report confidence_brier');
    expect(r.intervals.confidence_auroc).toHaveLength(2);
  });

  it('HMR at several beta', () => {
    for (const h of ref.hmr) {
      const got = hmr(conf, correct, h.beta);
      for (const key of ['r_o', 'r_u', 'hmr', 'hmr_beta'] as const) close(got[key], h[key], `beta=${h.beta} ${key}`);
    }
  });
});

describe('reference: HMR paper systems (numpy)', () => {
  for (const [name, ref] of Object.entries(expected.paper)) {
    it(name, () => {
      const conf = Float64Array.from(ref.confidence);
      const correct = Uint8Array.from(ref.correct);
      const h = hmr(conf, correct);
      close(h.hmr, ref.hmr, 'hmr');
      close(h.r_o, ref.r_o, 'r_o');
      close(h.r_u, ref.r_u, 'r_u');
      close(weightedGap(equalCountBins(conf, correct, 3)), ref.ece_weighted_equal_count, 'ece');
      close(mceQuantile(conf, correct, 3), ref.mce_quantile, 'mce');
      close(ks(conf, correct), ref.ks, 'ks');
    });
  }
});
