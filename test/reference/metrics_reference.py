#!/usr/bin/python3
"""Independent reference values for the metric core (test/unit/metrics/reference.test.ts).

Run with Debian's /usr/bin/python3 (python3-sklearn 1.2.1, numpy, scipy):

    /usr/bin/python3 test/reference/metrics_reference.py

It writes test/reference/metrics_expected.json: the input datasets and what scikit-learn / scipy
compute on them, plus numpy implementations of the binned metrics and HMR written from
the definitions in docs/metrics.md (not from the TypeScript). Deterministic: fixed seeds, no clock.
"""
import json
import os
import sys

import numpy as np
import scipy
import scipy.stats
import sklearn
from sklearn.metrics import (
    accuracy_score,
    brier_score_loss,
    confusion_matrix,
    f1_score,
    log_loss,
    precision_recall_fscore_support,
    roc_auc_score,
    roc_curve,
)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "metrics_expected.json")


# ---------------------------------------------------------------- binned metrics, from docs/metrics.md

def width_index(v, nb):
    """Equal-width bin: edges b/nb, [lo, hi) except the last bin closed; outside [0, 1] clamps."""
    edges = np.arange(nb + 1) / nb
    return np.clip(np.searchsorted(edges, v, side="right") - 1, 0, nb - 1)


def count_splits(v, nb):
    """Stable sort by value, numpy.array_split into nb runs of positions."""
    order = np.argsort(v, kind="stable")
    return np.array_split(order, nb)


def count_index(v, nb):
    out = np.full(len(v), -1)
    for b, run in enumerate(count_splits(v, nb)):
        out[run] = b
    return out


def bins_of(groups, v, t, edges=None):
    """One dict per bin: count, meanValue, meanTarget, gap, lo, hi (lo/hi only for equal-width edges)."""
    out = []
    for b, members in enumerate(groups):
        if len(members) == 0:
            out.append({"count": 0, "meanValue": None, "meanTarget": None, "gap": None})
            continue
        mv = float(np.mean(v[members]))
        mt = float(np.mean(t[members]))
        d = {"count": int(len(members)), "meanValue": mv, "meanTarget": mt, "gap": abs(mv - mt)}
        if edges is None:
            d["lo"] = float(np.min(v[members]))
            d["hi"] = float(np.max(v[members]))
        else:
            d["lo"] = float(edges[b])
            d["hi"] = float(edges[b + 1])
        out.append(d)
    return out


def calibration(v, t, nb):
    v = np.asarray(v, dtype=float)
    t = np.asarray(t, dtype=float)
    n = len(v)
    widx = width_index(v, nb)
    wgroups = [np.nonzero(widx == b)[0] for b in range(nb)]
    cgroups = count_splits(v, nb)
    wbins = bins_of(wgroups, v, t, edges=np.arange(nb + 1) / nb)
    cbins = bins_of(cgroups, v, t)
    wgaps = [(b["count"], b["gap"]) for b in wbins if b["count"] > 0]
    cgaps = [(b["count"], b["gap"]) for b in cbins if b["count"] > 0]
    order = np.argsort(v, kind="stable")
    ks = float(np.max(np.abs(np.cumsum(v[order]) / n - np.cumsum(t[order]) / n)))
    return {
        "ece": sum(c / n * g for c, g in wgaps),
        "ece_quantile": float(np.mean([g for _, g in cgaps])),
        "ece_weighted_equal_count": sum(c / n * g for c, g in cgaps),
        "mce": max(g for _, g in wgaps),
        "mce_quantile": max(g for _, g in cgaps),
        "ks": ks,
        "equal_width": wbins,
        "equal_count": cbins,
        "bin_index_equal_width": widx.tolist(),
        "bin_index_equal_count": count_index(v, nb).tolist(),
    }


def hmr(conf, correct, beta=1.0):
    conf = np.asarray(conf, dtype=float)
    correct = np.asarray(correct).astype(bool)
    r_o = 1.0 if (~correct).sum() == 0 else 1.0 - conf[~correct].sum() / (~correct).sum()
    r_u = 1.0 if correct.sum() == 0 else 1.0 - (1.0 - conf[correct]).sum() / correct.sum()

    def f(b):
        den = b * b * r_o + r_u
        return 0.0 if den == 0 else (1 + b * b) * r_o * r_u / den

    return {"r_o": float(r_o), "r_u": float(r_u), "hmr": f(1.0), "hmr_beta": f(beta), "beta": beta}


# ---------------------------------------------------------------- datasets

def binary_case(name, score, label, threshold=0.5, beta=1.0, bins=(10, 15)):
    score = np.asarray(score, dtype=float)
    label = np.asarray(label, dtype=int)
    pred = (score >= threshold).astype(int)
    conf = np.maximum(score, 1 - score)
    fpr, tpr, thr = roc_curve(label, score, drop_intermediate=False)
    return {
        "name": name,
        "score": score.tolist(),
        "label": label.tolist(),
        "threshold": threshold,
        "beta": beta,
        "accuracy": float(accuracy_score(label, pred)),
        "auc": float(roc_auc_score(label, score)),
        "roc": {"fpr": fpr.tolist(), "tpr": tpr.tolist(), "thresholds": thr.tolist()},
        "brier": float(brier_score_loss(label, score)),
        "log_loss": float(log_loss(label, score, labels=[0, 1])),
        "calibration": {str(nb): calibration(score, label, nb) for nb in bins},
        "hmr": hmr(conf, pred == label, beta),
    }


def multiclass_case(rng):
    classes = ["alpha", "beta", "gamma", "delta", "epsilon"]
    k, n = 5, 240
    # "gamma" (2) is gold but never predicted, "delta" (3) predicted but never gold, "epsilon" (4)
    # neither: macro F1 over all classes (RAFT) and over the classes seen then differ.
    gold = rng.integers(0, 3, size=n)
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), gold] += 1.2
    probs = np.exp(logits)
    probs /= probs.sum(axis=1, keepdims=True)
    probs = np.round(probs, 6)
    probs[:, k - 1] = 1 - probs[:, : k - 1].sum(axis=1)  # rows sum to 1 after rounding
    masked = probs.copy()
    masked[:, [2, 4]] = -1
    pred = masked.argmax(axis=1)
    conf = probs[np.arange(n), pred]
    correct = (pred == gold).astype(int)
    all_labels = list(range(k))
    seen = sorted(set(gold.tolist()) | set(pred.tolist()))
    p, r, f, s = precision_recall_fscore_support(gold, pred, labels=all_labels, zero_division=0)
    onehot = np.eye(k)[gold]
    brier = float(np.mean(np.sum((probs - onehot) ** 2, axis=1)))
    return {
        "name": "multiclass",
        "classes": classes,
        "k": k,
        "gold": gold.tolist(),
        "pred": pred.tolist(),
        "probs": probs.ravel().tolist(),
        "accuracy": float(accuracy_score(gold, pred)),
        "macro_f1_all": float(f1_score(gold, pred, labels=all_labels, average="macro", zero_division=0)),
        "classes_seen": seen,
        "macro_f1_seen": float(f1_score(gold, pred, labels=seen, average="macro", zero_division=0)),
        "precision": p.tolist(),
        "recall": r.tolist(),
        "f1": f.tolist(),
        "support": s.tolist(),
        "confusion": confusion_matrix(gold, pred, labels=all_labels).tolist(),
        "brier": brier,
        "nbr": brier / 2,
        "log_loss": float(log_loss(gold, probs, labels=all_labels)),
        "calibration": {"10": calibration(conf, correct, 10)},
        "hmr": hmr(conf, correct, 2.0),
        # The predicted class's probability given as the file's only confidence (no class probabilities).
        "stated_confidence": conf.tolist(),
        "confidence_auroc": float(roc_auc_score(correct, conf)),
        "confidence_brier": float(brier_score_loss(correct, conf)),
    }


def regression_case(rng):
    n = 300
    s = rng.normal(size=(n, 5))
    w = rng.normal(size=5)
    gold = 1 / (1 + np.exp(-(s @ w)))
    gold = np.round(gold, 6)
    pred = np.clip(gold + rng.normal(scale=0.15, size=n), 0, 1)
    pred = np.round(pred, 2)  # ties for the average ranks; exact 0 and 1 for the KL clipping
    pc = np.clip(pred, 1e-6, 1 - 1e-6)
    gc = np.clip(gold, 1e-6, 1 - 1e-6)
    kl = np.mean(gc * np.log(gc / pc) + (1 - gc) * np.log((1 - gc) / (1 - pc)))
    rho = scipy.stats.spearmanr(pred, gold).correlation
    # Cross-check of scipy with pandas-free average ranks (scipy.stats.rankdata 'average').
    ra = scipy.stats.rankdata(pred)
    rb = scipy.stats.rankdata(gold)
    assert abs(np.corrcoef(ra, rb)[0, 1] - rho) < 1e-12
    return {
        "name": "regression",
        "pred": pred.tolist(),
        "gold": gold.tolist(),
        "n_pred_zero_or_one": int(np.sum((pred == 0) | (pred == 1))),
        "mse": float(np.mean((pred - gold) ** 2)),
        "tvd": float(np.mean(np.abs(pred - gold))),
        "kl": float(kl),
        "spearman": float(rho),
        "ranks_pred": ra.tolist(),
    }


def confidence_case(rng):
    n = 350
    conf = np.round(rng.uniform(0.2, 1.0, size=n), 3)
    conf[:10] = [0.3, 0.3, 0.5, 0.7, 0.7, 1.0, 1.0, 0.2, 0.6, 0.9]  # exact decimal bin edges
    correct = (rng.random(size=n) < conf**1.5).astype(int)
    return {
        "name": "confidence",
        "confidence": conf.tolist(),
        "correct": correct.tolist(),
        "calibration": {str(nb): calibration(conf, correct, nb) for nb in (10, 15, 3)},
        "hmr": [hmr(conf, correct, b) for b in (1.0, 2.0, 0.5, 0.0)],
        # The stated confidence as a predictor of correctness (docs/metrics.md#confidence_auroc, #confidence_brier).
        "confidence_auroc": float(roc_auc_score(correct, conf)),
        "confidence_brier": float(brier_score_loss(correct, conf)),
    }


def paper_systems():
    x_conf = [0.4, 0.4, 0.4, 0.6, 0.6, 0.6, 0.8, 0.8, 0.8]
    x_corr = [1, 1, 0, 1, 1, 0, 1, 1, 1]
    systems = {"X": x_conf, "Y": x_conf[:8] + [0.7], "Z": x_conf[:2] + [0.6] + x_conf[3:]}
    systems["W"] = systems["Z"][:8] + [0.7]
    out = {}
    for name, conf in systems.items():
        cal = calibration(conf, x_corr, 3)
        out[name] = {
            "confidence": conf,
            "correct": x_corr,
            **hmr(conf, x_corr),
            "ece_weighted_equal_count": cal["ece_weighted_equal_count"],
            "mce_quantile": cal["mce_quantile"],
            "ks": cal["ks"],
        }
    return out


def main():
    rng = np.random.default_rng(20240611)

    # Binary with many ties: two-decimal scores, exact bin edges, 0 and 1.
    n = 400
    s = np.round(rng.beta(2, 2, size=n), 2)
    s[:12] = [0.0, 1.0, 0.3, 0.3, 0.5, 0.5, 0.7, 0.1, 0.9, 1.0, 0.0, 0.6]
    y = (rng.random(size=n) < 0.15 + 0.7 * s).astype(int)
    ties = binary_case("binary_ties", s, y)
    ties_t = binary_case("binary_ties_t03_b2", s, y, threshold=0.3, beta=2.0)

    # Binary, continuous scores (few ties).
    n = 300
    s = np.round(rng.beta(2, 5, size=n), 9)
    y = (rng.random(size=n) < s * 1.3).astype(int)
    cont = binary_case("binary_continuous", s, y)

    # Binary, fewer instances than bins: empty equal-count bins.
    small = binary_case("binary_small", [0.2, 0.9, 0.35, 0.6, 0.6, 0.05, 0.75], [0, 1, 1, 0, 1, 0, 1])

    doc = {
        "generator": "test/reference/metrics_reference.py",
        "versions": {
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "sklearn": sklearn.__version__,
        },
        "binary": [ties, ties_t, cont, small],
        "multiclass": multiclass_case(rng),
        "regression": regression_case(rng),
        "confidence": confidence_case(rng),
        "paper": paper_systems(),
    }
    with open(OUT, "w") as fh:
        json.dump(doc, fh, separators=(",", ":"), allow_nan=False)
        fh.write("\n")
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
