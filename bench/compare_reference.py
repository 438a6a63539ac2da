#!/usr/bin/python3
"""The obvious Python way to compare two folktexts runs (the reference for bench/compare.bench.mjs).

    /usr/bin/python3 bench/compare_reference.py BASELINE.csv CANDIDATE.csv [--resamples R]

pandas.read_csv both files, an inner join on the index (sorted), every binary metric of
docs/metrics.md for each run (scikit-learn's roc_auc_score, numpy for the rest), DeLong's test (the
widely used midrank implementation, "fastDeLong", with scipy.stats.rankdata), McNemar by
scipy.stats.binomtest, then a paired bootstrap: R resamples of numpy indices, both runs' metrics
on each, deltas, percentile intervals. Prints one JSON line: the figures and each step's time (wall; the bootstrap's CPU time too).
R defaults to 1000; the benchmark runs a few and extrapolates (one resample costs the same as
the next).
"""
import json
import sys
import time

import numpy as np
import pandas as pd
import scipy.stats
from sklearn.metrics import roc_auc_score

BINS = 10


def metrics(s, y):
    n = len(s)
    pred = s >= 0.5
    correct = pred == (y == 1)
    out = {'accuracy': correct.mean(), 'auc': roc_auc_score(y, s)}
    out['brier'] = np.mean((s - y) ** 2)
    out['nbr'] = out['brier']
    c = np.clip(s, 1e-15, 1 - 1e-15)
    out['log_loss'] = -np.mean(y * np.log(c) + (1 - y) * np.log(1 - c))
    # Equal-width bins ([lo, hi), the last closed).
    idx = np.clip(np.searchsorted(np.arange(BINS + 1) / BINS, s, side='right') - 1, 0, BINS - 1)
    cnt = np.bincount(idx, minlength=BINS)
    sv = np.bincount(idx, weights=s, minlength=BINS)
    st = np.bincount(idx, weights=y, minlength=BINS)
    nz = cnt > 0
    gaps = np.abs(sv[nz] / cnt[nz] - st[nz] / cnt[nz])
    out['ece'] = np.sum(cnt[nz] / n * gaps)
    out['mce'] = gaps.max()
    # Equal-count bins: stable sort, numpy.array_split.
    order = np.argsort(s, kind='stable')
    ss, ys = s[order], y[order]
    parts = [len(p) for p in np.array_split(np.arange(n), BINS)]
    starts = np.concatenate([[0], np.cumsum(parts)[:-1]])
    qgaps = np.abs(np.add.reduceat(ss, starts) / parts - np.add.reduceat(ys, starts) / parts)
    out['ece_quantile'] = qgaps.mean()
    out['mce_quantile'] = qgaps.max()
    out['ks'] = np.max(np.abs(np.cumsum(ss - ys))) / n
    conf = np.maximum(s, 1 - s)
    r_o = 1 - conf[~correct].sum() / max(1, (~correct).sum())
    r_u = 1 - (1 - conf[correct]).sum() / max(1, correct.sum())
    out['hmr'] = out['hmr_beta'] = 2 * r_o * r_u / (r_o + r_u)
    out['r_o'], out['r_u'] = r_o, r_u
    return {k: float(v) for k, v in out.items()}


def fast_delong(preds, y):
    """Sun & Xu's midrank DeLong as it circulates (yandexdataschool/roc_comparison), for k runs."""
    order = (-y).argsort(kind='stable')
    m = int(y.sum())
    x = preds[:, order]
    pos, neg = x[:, :m], x[:, m:]
    k, n = x.shape[0], x.shape[1] - m
    tx = np.array([scipy.stats.rankdata(pos[r]) for r in range(k)])
    ty = np.array([scipy.stats.rankdata(neg[r]) for r in range(k)])
    tz = np.array([scipy.stats.rankdata(x[r]) for r in range(k)])
    aucs = tz[:, :m].sum(axis=1) / m / n - (m + 1.0) / 2.0 / n
    v01 = (tz[:, :m] - tx) / n
    v10 = 1.0 - (tz[:, m:] - ty) / m
    cov = np.cov(v01) / m + np.cov(v10) / n
    l = np.array([[-1, 1]])
    z = float((l @ aucs)[0] / np.sqrt(l @ cov @ l.T)[0, 0])
    return aucs, z, float(scipy.special.erfc(abs(z) / np.sqrt(2)))


def main():
    args = sys.argv[1:]
    resamples = 1000
    if '--resamples' in args:
        i = args.index('--resamples')
        resamples = int(args[i + 1])
        del args[i:i + 2]
    t = {}
    t0 = time.perf_counter()
    a = pd.read_csv(args[0], index_col=0)
    b = pd.read_csv(args[1], index_col=0)
    t['read'] = time.perf_counter() - t0
    t0 = time.perf_counter()
    j = a.join(b, how='inner', lsuffix='_a', rsuffix='_b').sort_index()
    sa = j['risk_score_a'].to_numpy(float)
    sb = j['risk_score_b'].to_numpy(float)
    y = j['label_a'].to_numpy(float)
    n = len(y)
    t['align'] = time.perf_counter() - t0
    t0 = time.perf_counter()
    va, vb = metrics(sa, y), metrics(sb, y)
    t['metrics'] = time.perf_counter() - t0
    t0 = time.perf_counter()
    aucs, z, p_delong = fast_delong(np.vstack([sa, sb]), y.astype(int))
    t['delong'] = time.perf_counter() - t0
    t0 = time.perf_counter()
    ca = (sa >= 0.5) == (y == 1)
    cb = (sb >= 0.5) == (y == 1)
    b_, c_ = int((ca & ~cb).sum()), int((~ca & cb).sum())
    p_mcnemar = float(scipy.stats.binomtest(min(b_, c_), b_ + c_, 0.5).pvalue) if b_ + c_ else 1.0
    t['mcnemar'] = time.perf_counter() - t0
    t0 = time.perf_counter()
    c0 = time.process_time()
    rng = np.random.default_rng(0)
    deltas = {k: [] for k in va}
    for _ in range(resamples):
        idx = rng.integers(0, n, n)
        ya = y[idx]
        ma, mb = metrics(sa[idx], ya), metrics(sb[idx], ya)
        for k in deltas:
            deltas[k].append(mb[k] - ma[k])
    t['bootstrap'] = time.perf_counter() - t0
    t['bootstrap_cpu'] = time.process_time() - c0
    intervals = {k: [float(np.percentile(d, 2.5)), float(np.percentile(d, 97.5))] for k, d in deltas.items()}
    print(json.dumps({
        'n': n, 'resamples': resamples, 'values': [va, vb], 'delong': {'aucs': aucs.tolist(), 'z': z, 'p': p_delong},
        'mcnemar': {'b': b_, 'c': c_, 'p': p_mcnemar}, 'intervals': intervals, 'seconds': t,
    }))


if __name__ == '__main__':
    main()
