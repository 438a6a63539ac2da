#!/usr/bin/python3
"""Independent reference for --group-by's fairness figures (test/unit/slices/fairness.test.ts).

Written from folktexts/evaluation.py (evaluate_binary_predictions, evaluate_binary_predictions_fairness
with min_group_size=0.04, compute_best_threshold) and /work/shared/METRICS.md, with numpy, pandas and
scikit-learn; not from the TypeScript.

    /usr/bin/python3 test/reference/fairness_reference.py PREDICTIONS.csv DATA.csv COLUMN THRESHOLD [QUANTILE_COLUMN K]

PREDICTIONS.csv is a folktexts predictions file (",risk_score,label", pandas index first); DATA.csv a
data file whose first, unnamed column is the same index (rows in any order). THRESHOLD is a number
or "best". Prints one JSON document.
"""
import json
import sys

import numpy as np
import pandas as pd
from sklearn.metrics import confusion_matrix, roc_curve


def safe_division(a, b, worst):
    return worst if b == 0 else a / b


def rates(y, p):
    tn, fp, fn, tp = (int(x) for x in confusion_matrix(y, p, labels=(0, 1)).ravel())
    total = tn + fp + fn + tp
    r = {"accuracy": (tp + tn) / total}
    r["tpr"] = safe_division(tp, tp + fn, 0)
    r["fnr"] = safe_division(fn, tp + fn, 1)
    r["fpr"] = safe_division(fp, tn + fp, 1)
    r["tnr"] = safe_division(tn, tn + fp, 0)
    r["balanced_accuracy"] = 0.5 * (r["tpr"] + r["tnr"])
    r["precision"] = safe_division(tp, tp + fp, 0)
    r["ppr"] = safe_division(tp + fp, total, 0)
    return r


def ece(s, y, nb=10):
    """METRICS.md: 10 equal-width bins, [lo, hi) with the last closed, weighted mean |mean s - mean y|."""
    edges = np.arange(nb + 1) / nb
    idx = np.clip(np.searchsorted(edges, s, side="right") - 1, 0, nb - 1)
    total = 0.0
    for b in range(nb):
        m = idx == b
        if m.any():
            total += m.sum() / len(s) * abs(s[m].mean() - y[m].mean())
    return total


def best_threshold(y, s):
    fpr, tpr, thr = roc_curve(y, s)
    costs = 1.0 * fpr + 1.0 * (1 - tpr)
    i = int(np.argmin(costs))
    return float(thr[i]), i


def fairness(y, p, attr, min_group_size=0.04):
    groups = np.unique(attr)
    if len(groups) <= 1:
        return {}, {}
    per = {}
    for g in groups:
        idx = np.argwhere(attr == g).flatten()
        if len(idx) < min_group_size * len(y):
            continue
        per[g] = rates(y[idx], p[idx])
    out = {}
    for m in next(iter(per.values())).keys():
        vals = [per[g][m] for g in groups if g in per]
        out[m + "_ratio"] = safe_division(min(vals), max(vals), 0)
        out[m + "_diff"] = max(vals) - min(vals)
    out["equalized_odds_ratio"] = min(out["fnr_ratio"], out["fpr_ratio"])
    out["equalized_odds_diff"] = max(out["tpr_diff"], out["fpr_diff"])
    return out, per


def main():
    pred_path, data_path, column, threshold = sys.argv[1:5]
    preds = pd.read_csv(pred_path, index_col=0)
    data = pd.read_csv(data_path, index_col=0, dtype={column: str})
    y_all = preds["label"].to_numpy().astype(int)
    s_all = preds["risk_score"].to_numpy().astype(float)
    res = {}
    if threshold == "best":
        t, i = best_threshold(y_all, s_all)
        res["roc_index"] = i
    else:
        t = float(threshold)
    res["threshold"] = t
    p_all = (s_all >= t).astype(int)
    res["whole"] = rates(y_all, p_all)
    scaled = (s_all - s_all.min()) / (s_all.max() - s_all.min())
    res["whole"]["ece_scaled"] = ece(scaled, y_all)
    res["whole"]["ece"] = ece(s_all, y_all)

    joined = preds.join(data[[column]], how="inner")
    res["unmatched"] = int(len(preds) - len(joined))
    y = joined["label"].to_numpy().astype(int)
    s = joined["risk_score"].to_numpy().astype(float)
    attr = joined[column].to_numpy().astype(str)
    fair, per = fairness(y, (s >= t).astype(int), attr)
    res["fairness"] = fair
    groups = {}
    for g in np.unique(attr):
        m = attr == g
        groups[str(g)] = {"n": int(m.sum()), "rates": rates(y[m], (s[m] >= t).astype(int)), "ece": ece(s[m], y[m])}
    res["groups"] = groups
    kept = [groups[str(g)]["ece"] for g in per]
    res["ece_diff"] = max(kept) - min(kept) if len(kept) >= 2 else None

    if len(sys.argv) > 6:
        qcol, k = sys.argv[5], int(sys.argv[6])
        v = preds.join(data[[qcol]], how="inner")[qcol].to_numpy().astype(float)
        edges = np.unique(np.quantile(v, np.arange(k + 1) / k))
        idx = np.clip(np.searchsorted(edges, v, side="right") - 1, 0, len(edges) - 2)
        res["quantile"] = {"edges": [float(e) for e in edges], "counts": [int((idx == j).sum()) for j in range(len(edges) - 1)]}
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
