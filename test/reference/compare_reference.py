#!/usr/bin/python3
"""Independent reference values for the comparison statistics (test/unit/compare/*.test.ts).

Run with Debian's /usr/bin/python3 (numpy, scipy, scikit-learn):

    /usr/bin/python3 test/reference/compare_reference.py

It writes test/reference/compare_expected.json:
- erfc at points from 0.01 to 26, from 700-digit decimal arithmetic (the Maclaurin series of erf,
  summed exactly enough that the cancellation in 1 - erf costs nothing), beside scipy's erfc;
- DeLong's test written from its definition (DeLong et al. 1988): the m x n matrix of
  psi(pos, neg) = 1 / 0.5 / 0, placement values as its row and column means, sample covariances,
  z, and p = scipy.special.erfc(|z| / sqrt 2); AUCs also from sklearn's roc_auc_score;
- exact McNemar p-values from scipy.stats.binomtest(min(b, c), b + c, 0.5) (two-sided).
Not derived from the TypeScript. Deterministic: fixed seeds, no clock.
"""
import json
import os
from decimal import Decimal, getcontext

import numpy as np
import scipy
import scipy.special
import scipy.stats
from sklearn.metrics import roc_auc_score

getcontext().prec = 700


def erfc_decimal(x: float) -> str:
    """erfc(x) = 1 - 2/sqrt(pi) * sum_k (-1)^k x^(2k+1) / (k! (2k+1)), at 700 digits (x = 26 needs ~590: the terms grow to e^(x^2))."""
    xd = Decimal(x)  # the exact binary value of the double
    x2 = xd * xd
    term = xd  # (-1)^k x^(2k+1) / k!
    total = Decimal(0)
    k = 0
    while True:
        contrib = term / (2 * k + 1)
        total += contrib
        if k > 10 and abs(contrib) < Decimal(10) ** -690:
            break
        k += 1
        term = -term * x2 / k
    pi = pi_decimal()
    erf = 2 / pi.sqrt() * total
    return format(1 - erf, '.25e')


_PI = None


def pi_decimal() -> Decimal:
    """pi by Machin's formula, 16 atan(1/5) - 4 atan(1/239), at the context precision."""
    global _PI
    if _PI is None:
        def atan_inv(n: int) -> Decimal:
            x = Decimal(1) / n
            x2 = x * x
            s, t, k = Decimal(0), x, 0
            while abs(t) > Decimal(10) ** -699:
                s += t / (2 * k + 1)
                t = -t * x2
                k += 1
            return s
        _PI = 16 * atan_inv(5) - 4 * atan_inv(239)
    return _PI


def delong_definition(a, b, y):
    """DeLong's test from its definition: O(m n) psi matrices."""
    pos, neg = y == 1, y == 0
    out = {}
    v10s, v01s, aucs = [], [], []
    for s in (a, b):
        x, z = s[pos][:, None], s[neg][None, :]
        psi = (x > z) * 1.0 + (x == z) * 0.5
        v10s.append(psi.mean(axis=1))
        v01s.append(psi.mean(axis=0))
        aucs.append(psi.mean())
    m, n = pos.sum(), neg.sum()
    s10 = np.cov(np.vstack(v10s), ddof=1)
    s01 = np.cov(np.vstack(v01s), ddof=1)
    S = s10 / m + s01 / n
    var = S[0, 0] + S[1, 1] - 2 * S[0, 1]
    delta = aucs[1] - aucs[0]
    z = delta / np.sqrt(var)
    out['aucs'] = [float(v) for v in aucs]
    out['sklearn_aucs'] = [float(roc_auc_score(y, a)), float(roc_auc_score(y, b))]
    out['variance'] = float(var)
    out['z'] = float(z)
    out['p'] = float(scipy.special.erfc(abs(z) / np.sqrt(2)))
    return out


def delong_cases():
    rng = np.random.default_rng(20140901)
    cases = []

    def add(name, a, b, y):
        cases.append({'name': name, 'a': a.tolist(), 'b': b.tolist(), 'y': y.astype(int).tolist(), **delong_definition(a, b, y)})

    # Untied: continuous scores of two correlated systems.
    y = (rng.random(300) < 0.4).astype(int)
    latent = rng.normal(size=300) + 1.0 * y
    add('untied', 1 / (1 + np.exp(-latent)), 1 / (1 + np.exp(-(latent + 0.8 * rng.normal(size=300)))), y)
    # Tied: scores rounded to one decimal, so many ties within and across classes.
    y = (rng.random(200) < 0.5).astype(int)
    latent = rng.normal(size=200) + 0.7 * y
    a = np.round(1 / (1 + np.exp(-latent)), 1)
    b = np.round(1 / (1 + np.exp(-(latent + rng.normal(size=200)))), 1)
    add('tied', a, b, y)
    # Heavily tied: three score levels only.
    y = (rng.random(40) < 0.5).astype(int)
    a = rng.choice([0.0, 0.5, 1.0], size=40)
    b = np.where(y == 1, rng.choice([0.5, 1.0], size=40), rng.choice([0.0, 0.5], size=40))
    add('three-levels', a, b, y)
    # A clear difference: p near 1e-30, where 2 (1 - Phi) would round to 0.
    y = (rng.random(1500) < 0.5).astype(int)
    latent = rng.normal(size=1500) + 1.0 * y
    a = 1 / (1 + np.exp(-(rng.normal(size=1500) * 3 + 0.4 * y)))
    add('tiny-p', a, 1 / (1 + np.exp(-latent)), y)
    return cases


def main():
    xs = [0.01, 0.3, 0.9, 0.999, 1.0, 1.7, 2.5, 3.0, 5.0, 8.0, 8.3, 10.0, 11.7, 15.0, 20.0, 26.0]
    erfc_points = [{'x': x, 'decimal': erfc_decimal(x), 'scipy': float(scipy.special.erfc(x))} for x in xs]
    pairs = [(0, 0), (0, 1), (0, 5), (3, 7), (10, 10), (1, 30), (12, 11), (100, 150), (5000, 5400),
             (20000, 21000), (400000, 401500), (0, 1074), (30, 2000)]
    mcnemar = [{'b': b, 'c': c, 'p': float(scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue) if b + c else 1.0} for b, c in pairs]
    out = {
        'generator': f'compare_reference.py; numpy {np.__version__}, scipy {scipy.__version__}',
        'erfc': erfc_points,
        'delong': delong_cases(),
        'mcnemar': mcnemar,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'compare_expected.json')
    with open(path, 'w') as f:
        json.dump(out, f)
    print('wrote', path)


if __name__ == '__main__':
    main()
