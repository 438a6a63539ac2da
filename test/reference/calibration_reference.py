#!/usr/bin/python3
"""Independent reference values for smooth ECE, bin intervals and classwise ECE
(test/unit/metrics/smoothCalibration.test.ts).

Run with Debian's /usr/bin/python3 (numpy, scipy):

    /usr/bin/python3 test/reference/calibration_reference.py

It writes test/reference/calibration_expected.json. Written from the definitions in
docs/metrics.md, not from the TypeScript (which uses a grid and cosine transforms):

- smECE_s = int_0^1 |sum_i K_s(t, f_i) (f_i - y_i)| dt / int_0^1 sum_i K_s(t, f_i) dt, with K_s the
  Gaussian kernel reflected at 0 and 1 (every mirror image 2k + f and 2k - f within 12 s of
  [0, 1], summed directly per row, no grid for the rows); the integrals on 80,001 points of [0, 1] with the
  piecewise-linear |g| (zero crossings exact), checked against 160,001 points; sigma* the root of
  smECE_s = s by scipy's brentq to 1e-13.
- Wilson 95% intervals of a proportion, z = scipy.stats.norm.ppf(0.975).
- classwise ECE: numpy equal-width bins per class.
Deterministic: fixed seeds.
"""
import json
import os

import numpy as np
import scipy.optimize
import scipy.stats

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibration_expected.json")

T_POINTS = 80_001


def smoothed_residual(f, y, s, t):
    """g(t) = sum_i K_s(t, f_i) (f_i - y_i), every mirror image 2k + f, 2k - f that comes within
    12 s of [0, 1] (a term exp(-72) of the nearest is below double rounding), summed per row."""
    r = f - y
    reach = 12 * s
    pos, res = [], []
    for shift in range(-int(np.ceil(reach)) - 1, int(np.ceil(reach)) + 2):
        for img in (2 * shift + f, 2 * shift - f):
            keep = (img > -reach) & (img < 1 + reach)
            pos.append(img[keep])
            res.append(r[keep])
    pos = np.concatenate(pos)
    res = np.concatenate(res)
    order = np.argsort(pos, kind="stable")
    pos, res = pos[order], res[order]
    g = np.zeros_like(t)
    norm = 1.0 / (s * np.sqrt(2 * np.pi))
    step = 1024
    for lo in range(0, len(t), step):
        tc = t[lo:lo + step]
        a = np.searchsorted(pos, tc[0] - reach, side="left")
        b = np.searchsorted(pos, tc[-1] + reach, side="right")
        if a == b:
            continue
        d = tc[:, None] - pos[None, a:b]
        g[lo:lo + step] = (np.exp(-(d * d) / (2 * s * s)) @ res[a:b]) * norm
    return g


def abs_integral(g, t):
    """Integral of |piecewise-linear g| over the points t, zero crossings exact."""
    u, v = g[:-1], g[1:]
    h = np.diff(t)
    au, av = np.abs(u), np.abs(v)
    same = (u * v) >= 0
    tot = au + av
    cross = np.where(tot > 0, (u * u + v * v) / np.where(tot > 0, 2 * tot, 1), 0)
    return float(np.sum(h * np.where(same, tot / 2, cross)))


def smece_at(f, y, s, points=T_POINTS):
    t = np.linspace(0, 1, points)
    # The denominator is the number of rows: each reflected kernel integrates to 1 on [0, 1].
    return abs_integral(smoothed_residual(f, y, s, t), t) / len(f)


def smece(f, y):
    h = lambda s: s - smece_at(f, y, s)
    lo, hi = 0.001, 1.0
    if h(hi) <= 0:
        return smece_at(f, y, hi), hi
    if h(lo) >= 0:
        return smece_at(f, y, lo), lo
    sigma = scipy.optimize.brentq(h, lo, hi, xtol=1e-13, rtol=1e-13)
    return smece_at(f, y, sigma), sigma


def wilson(p, n, z):
    centre = p + z * z / (2 * n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    den = 1 + z * z / n
    return [(centre - half) / den, (centre + half) / den]


def width_bins(v, nb):
    edges = np.arange(nb + 1) / nb
    return np.clip(np.searchsorted(edges, v, side="right") - 1, 0, nb - 1)


def ece_width(v, t, nb):
    idx = width_bins(v, nb)
    total = 0.0
    for b in range(nb):
        m = idx == b
        if m.any():
            total += m.sum() / len(v) * abs(v[m].mean() - t[m].mean())
    return total


def smooth_cases():
    rng = np.random.default_rng(19)
    cases = []
    # An over-confident risk score: y ~ Bernoulli(q), f pushed away from 0.5.
    q = rng.beta(2, 3, 1500)
    f = np.clip(0.5 + 1.4 * (q - 0.5), 0, 1)
    y = (rng.random(1500) < q).astype(float)
    cases.append(("overconfident", f, y))
    # Calibrated: y ~ Bernoulli(f).
    f = rng.random(3000)
    y = (rng.random(3000) < f).astype(float)
    cases.append(("calibrated", f, y))
    # Top-label confidence in [0.5, 1], right 8 points less often than said, ties (2 decimals), ends.
    c = np.round(0.5 + 0.5 * rng.beta(3, 1.5, 1200), 2)
    c[:5] = 1.0
    ok = (rng.random(1200) < np.clip(c - 0.08, 0, 1)).astype(float)
    cases.append(("toplabel_ties", c, ok))
    # Values at 0 and 1 and a far outlier region: mass at the reflecting ends.
    f = np.concatenate([np.zeros(40), np.ones(60), rng.beta(0.5, 0.5, 400)])
    y = (rng.random(500) < np.clip(f * 0.9 + 0.05, 0, 1)).astype(float)
    cases.append(("ends", f, y))
    out = []
    for name, f, y in cases:
        val, sigma = smece(f, y)
        fine = smece_at(f, y, sigma, 2 * T_POINTS - 1)
        fixed = {str(s): smece_at(f, y, s) for s in (0.01, 0.03, 0.1, 0.3)}
        out.append({
            "name": name, "value": f.tolist(), "target": y.tolist(),
            "smece": val, "sigma": sigma, "smece_finer_quadrature": fine, "fixed": fixed,
        })
        print(f"{name}: smece {val:.10f} sigma {sigma:.10f} (finer quadrature {fine:.10f})")
    return out


def wilson_cases():
    z = float(scipy.stats.norm.ppf(0.975))
    rows = []
    for k, n in [(0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (1, 3), (512, 1000), (1, 1_000_000), (999_999, 1_000_000)]:
        rows.append({"k": k, "n": n, "interval": wilson(k / n, n, z)})
    return {"z": z, "rows": rows}


def classwise_case():
    rng = np.random.default_rng(7)
    n, k = 700, 4
    logits = rng.normal(size=(n, k)) * 1.5
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    gold = np.array([rng.choice(k, p=p ** 0.7 / (p ** 0.7).sum()) for p in probs])
    out = {"k": k, "probs": probs.ravel().tolist(), "gold": gold.tolist(), "bins": {}}
    for nb in (10, 7):
        per = [ece_width(probs[:, c], (gold == c).astype(float), nb) for c in range(k)]
        out["bins"][str(nb)] = {"per_class": per, "ece_classwise": float(np.mean(per))}
    return out


def main():
    doc = {
        "versions": {"numpy": np.__version__, "scipy": scipy.__version__},
        "smooth": smooth_cases(),
        "wilson": wilson_cases(),
        "classwise": classwise_case(),
    }
    with open(OUT, "w") as fh:
        json.dump(doc, fh, separators=(",", ":"), allow_nan=False)


if __name__ == "__main__":
    main()
