#!/usr/bin/python3
"""Independent reference values for the error bars (test/unit/metrics/errorBars.test.ts).

Run with Debian's /usr/bin/python3 (numpy, scipy, mpmath):

    /usr/bin/python3 test/reference/error_bars_reference.py

It writes the files made for these tests into test/fixtures/error-bars/ (passages with correlated
questions; items with 5 attempts; two runs of the passages for a paired comparison) and
test/reference/error_bars_expected.json: what numpy / scipy compute on them from the definitions
in docs/metrics.md ("Error bars"), written from those definitions and Inspect's stderr(cluster=)
(not from the TypeScript). Deterministic: fixed seeds.
"""
import json
import math
import os

import mpmath as mp
import numpy as np
import scipy.stats as st

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "error-bars")
OUT = os.path.join(HERE, "error_bars_expected.json")
Z975 = st.norm.ppf(0.975)
Z80 = st.norm.ppf(0.8)


def fmt(x):
    return repr(float(x))


# ------------------------------------------------------------------ quantiles

def t_exact(p, df):
    mp.mp.dps = 40
    f = lambda x: mp.betainc(mp.mpf(df) / 2, mp.mpf(1) / 2, 0, df / (df + x * x), regularized=True) / 2 - (1 - mp.mpf(p))
    return float(mp.findroot(f, mp.mpf(st.t.ppf(p, df))))


def t_root(p, df):
    """The root of scipy.stats.t.cdf(x) = p (brentq, xtol 1e-15): scipy's t.ppf (cephes stdtrit) is
    off by up to ~1e-8 (t.ppf(0.9, 3) = 1.637744357215907, whose t.cdf is 0.90000000036)."""
    from scipy.optimize import brentq
    return float(brentq(lambda x: st.t.cdf(x, df) - p, 0, 200, xtol=1e-15, rtol=8.9e-16, maxiter=500))


quantiles = {
    "normal": [{"p": p, "scipy": float(st.norm.ppf(p))} for p in [1e-12, 1e-6, 0.001, 0.02, 0.025, 0.1, 0.3, 0.5, 0.6, 0.8, 0.9, 0.975, 0.98, 0.999, 1 - 1e-9]],
    "t": [
        {"p": p, "df": df, "scipy": float(st.t.ppf(p, df)), "scipy_root": t_root(p, df), "mpmath": t_exact(p, df)}
        for p in [0.6, 0.9, 0.975, 0.995]
        for df in [1, 2, 3, 4, 5, 7, 9, 10, 19, 29, 30, 49, 99, 299, 1000, 12345, 100000, 1000000]
    ],
    "t_cdf": [{"t": t, "df": df, "scipy": float(st.t.cdf(t, df))} for t in [-3.0, -0.5, 0.1, 1.0, 2.0, 4.5] for df in [1, 3, 8, 30, 500]],
}


# ------------------------------------------------------------------ fixtures

rng = np.random.default_rng(18)


def write_csv(name, header, rows):
    with open(os.path.join(FIX, name), "w") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(str(v) for v in r) + "\n")


# Passages: 40 passages with 2 to 9 questions each; a passage's difficulty moves all its answers.
passage_rows = []
cand_rows = []
qid = 0
for p in range(40):
    k = int(rng.integers(2, 10))
    ease = rng.normal(0, 1.5)
    for j in range(k):
        logit = 0.3 + ease + rng.normal(0, 0.5)
        truth = 1 / (1 + math.exp(-logit))
        label = int(rng.random() < truth)
        score = round(float(np.clip(truth + rng.normal(0, 0.1), 0.001, 0.999)), 4)
        passage_rows.append([f"q{qid}", f"p{p:02d}", score, label])
        # a candidate: a little better on most passages, worse on a few
        shift = 0.08 if p % 5 else -0.1
        cscore = round(float(np.clip(score + (shift if label else -shift) + rng.normal(0, 0.05), 0.001, 0.999)), 4)
        cand_rows.append([f"q{qid}", f"p{p:02d}", cscore, label])
        qid += 1
write_csv("passages.csv", ["id", "passage", "score", "label"], passage_rows)
write_csv("passages-candidate.csv", ["id", "passage", "score", "label"], cand_rows)

# Items with 5 attempts (two items with 3), confidence and correct per attempt.
attempt_rows = []
for item in range(24):
    n_att = 3 if item in (5, 17) else 5
    skill = rng.random()
    for e in range(1, n_att + 1):
        correct = int(rng.random() < skill)
        conf = round(float(np.clip(skill + rng.normal(0, 0.15), 0.01, 0.99)), 3)
        attempt_rows.append([f"item{item}", e, conf, correct])
write_csv("attempts.csv", ["id", "epoch", "confidence", "correct"], attempt_rows)


# ------------------------------------------------------------------ definitions

def se(x):
    x = np.asarray(x, float)
    return 0.0 if len(x) < 2 else float(np.std(x, ddof=1) / np.sqrt(len(x)))


def se_cluster(x, cl):
    """Inspect's stderr(cluster=): the outer product of each cluster's deviations, summed."""
    x = np.asarray(x, float)
    cl = np.asarray(cl)
    mean = x.mean()
    u = np.unique(cl)
    v = sum(np.outer(x[cl == c] - mean, x[cl == c] - mean).sum() for c in u)
    return float(np.sqrt(v * len(u) / (len(u) - 1)) / len(x))


def t_ci(m, s, df):
    q = t_exact(0.975, df)
    return [m - q * s, m + q * s]


def wilson(k, n, z=Z975):
    p = k / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return [(c - h) / (1 + z * z / n), (c + h) / (1 + z * z / n)]


def per_instance_binary(score, label, threshold=0.5):
    s = np.asarray(score, float)
    y = np.asarray(label, int)
    pred = (s >= threshold).astype(int)
    sc = np.clip(s, 1e-15, 1 - 1e-15)
    return {
        "accuracy": (pred == y).astype(float),
        "brier": (s - y) ** 2,
        "log_loss": -(y * np.log(sc) + (1 - y) * np.log(1 - sc)),
    }


def per_instance_confidence(conf, correct):
    c = np.asarray(conf, float)
    y = np.asarray(correct, int)
    cc = np.clip(c, 1e-15, 1 - 1e-15)
    return {
        "accuracy": y.astype(float),
        "brier": (c - y) ** 2,
        "log_loss": -(y * np.log(cc) + (1 - y) * np.log(1 - cc)),
    }


def figures(values, clusters=None):
    out = {"standard_errors": {}, "t": {}, "means": {}}
    if clusters is not None:
        out["clustered"] = {}
        out["design_effect"] = {}
        out["t_clustered"] = {}
        C = len(np.unique(clusters))
    for m, x in values.items():
        n = len(x)
        out["means"][m] = float(np.mean(x))
        out["standard_errors"][m] = se(x)
        out["t"][m] = t_ci(float(np.mean(x)), se(x), n - 1)
        if clusters is not None:
            sc = se_cluster(x, clusters)
            out["clustered"][m] = sc
            out["design_effect"][m] = (sc / se(x)) ** 2
            out["t_clustered"][m] = t_ci(float(np.mean(x)), sc, C - 1)
    return out


expected = {"quantiles": quantiles}

pid = [r[1] for r in passage_rows]
vals = per_instance_binary([r[2] for r in passage_rows], [r[3] for r in passage_rows])
f = figures(vals, pid)
f["n"] = len(passage_rows)
f["clusters"] = len(set(pid))
k = int(vals["accuracy"].sum())
f["wilson_accuracy"] = wilson(k, len(passage_rows))
expected["passages"] = f

# Paired comparison: per-instance differences, power.
cvals = per_instance_binary([r[2] for r in cand_rows], [r[3] for r in cand_rows])
power = {}
for m in vals:
    d = cvals[m] - vals[m]
    n = len(d)
    s = np.std(d, ddof=1)
    delta = d.mean()
    sc = se_cluster(d, pid)
    power[m] = {
        "delta": float(delta),
        "mde": float((Z975 + Z80) * s / np.sqrt(n)),
        "n_needed": None if delta == 0 else int(math.ceil(((Z975 + Z80) * s / abs(delta)) ** 2)),
        "mde_clustered": float((Z975 + Z80) * sc),
        "n_needed_clustered": None if delta == 0 else int(math.ceil(((Z975 + Z80) * sc * np.sqrt(n) / abs(delta)) ** 2)),
    }
expected["power"] = power

# Repeats.
items = [r[0] for r in attempt_rows]
corr = np.array([r[3] for r in attempt_rows], float)
avals = per_instance_confidence([r[2] for r in attempt_rows], [r[3] for r in attempt_rows])
fa = figures(avals, items)
fa["n"] = len(attempt_rows)
fa["clusters"] = len(set(items))
by = {}
for it, c in zip(items, corr):
    by.setdefault(it, []).append(c)
ns = {it: len(v) for it, v in by.items()}
cs = {it: int(sum(v)) for it, v in by.items()}
kmax = min(ns.values())
pass_at = {}
pass_hat = {}
for kk in range(1, kmax + 1):
    pass_at[str(kk)] = float(np.mean([1 - math.comb(ns[i] - cs[i], kk) / math.comb(ns[i], kk) for i in by]))
    pass_hat[str(kk)] = float(np.mean([math.comb(cs[i], kk) / math.comb(ns[i], kk) for i in by]))
attempts = {}
for i in by:
    attempts[str(ns[i])] = attempts.get(str(ns[i]), 0) + 1
fa["repeats"] = {
    "items": len(by),
    "attempts": attempts,
    "pass_at_k": pass_at,
    "pass_hat_k": pass_hat,
    "within_item_variance": float(np.mean([np.var(v, ddof=1) for v in by.values() if len(v) > 1])),
    "between_item_variance": float(np.var([np.mean(v) for v in by.values()], ddof=1)),
    "flaky_items": int(sum(1 for i in by if 0 < cs[i] < ns[i])),
}
expected["attempts"] = fa


# ------------------------------------------------------------------ leaderboard ranks

M32 = 0xFFFFFFFF


def count_draws(n, seed, resamples):
    """The core's draws (src/core/metrics/bootstrap.ts, mulberry32): per resample, how often each
    of n items was drawn. Ported so that the ranks below use the very same item resamples."""
    a = seed & M32
    out = np.zeros((resamples, n))
    for r in range(resamples):
        for _ in range(n):
            a = (a + 0x6D2B79F5) & M32
            t = a
            t = ((t ^ (t >> 15)) * (t | 1)) & M32
            t = (t ^ ((t + (((t ^ (t >> 7)) * (t | 61)) & M32)) & M32)) & M32
            u = ((t ^ (t >> 14)) & M32) / 4294967296
            out[r, int(u * n)] += 1
    return out


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: (ps[i], i))
    out = [0.0] * len(ps)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


board_dir = os.path.join(FIX, "board")
os.makedirs(board_dir, exist_ok=True)
NB = 150
truth = (rng.random(NB) < 0.5).astype(int)
skills = {"alpha": 0.80, "beta": 0.78, "gamma": 0.66, "delta": 0.55}
correct = {}
for name, skill in skills.items():
    right = rng.random(NB) < skill
    score = np.where(right == (truth == 1), 0.5 + rng.random(NB) * 0.49, 0.49 * rng.random(NB))
    score = np.round(score, 4)
    write_csv(os.path.join("board", name + ".csv"), ["id", "score", "label"], [[i, score[i], truth[i]] for i in range(NB)])
    correct[name] = ((score >= 0.5).astype(int) == truth).astype(float)
R, SEED = 300, 5
w = count_draws(NB, SEED, R)
names = list(skills)
means = {k: float(correct[k].mean()) for k in names}
samples = {k: (w @ correct[k]) / NB for k in names}
order = sorted(names, key=lambda k: (-means[k], k))
rank = {k: 1 + sum(1 for j in names if means[j] > means[k]) for k in names}
rank_interval = {}
for k in names:
    ranks = np.array([1 + sum(1 for j in names if samples[j][r] > samples[k][r]) for r in range(R)])
    srt = np.sort(ranks)
    rank_interval[k] = [int(srt[max(0, math.ceil(0.025 * R) - 1)]), int(srt[max(0, math.ceil(0.975 * R) - 1)])]
tier = {}
remaining = order[:]
level = 1
while remaining:
    top, others = remaining[0], remaining[1:]
    ps = []
    for j in others:
        d = samples[j] - samples[top]
        ps.append(min(1.0, 2 * min(np.mean(d <= 0), np.mean(d >= 0))))
    adj = holm(ps) if ps else []
    members = [top] + [j for j, p in zip(others, adj) if not (p < 0.05 and means[top] > means[j])]
    for j in members:
        tier[j] = level
    remaining = [j for j in remaining if j not in members]
    level += 1
expected["board"] = {
    "resamples": R, "seed": SEED, "order": order, "means": means, "rank": rank,
    "rank_interval": rank_interval, "tier": tier,
}


# ------------------------------------------------------------------ a task's own per-sample metrics

EQ = os.path.join(HERE, "..", "fixtures", "lm-eval-field", "issue17", "v0.4.2", "samples_eqbench_2024-06-01T10-00-00.123456.json")
with open(EQ) as fh:
    eq = json.load(fh)
task_metrics = {}
for name in ["eqbench", "percent_parseable"]:
    x = np.array([r[name] for r in eq if r.get(name) is not None and not (isinstance(r[name], float) and math.isnan(r[name]))], float)
    task_metrics[name] = {"n": len(x), "mean": float(x.mean()), "se": se(x), "t": t_ci(float(x.mean()), se(x), len(x) - 1)}
expected["task_metrics"] = task_metrics

with open(OUT, "w") as fh:
    json.dump(expected, fh, indent=1)
    fh.write("\n")
print("wrote", OUT)
