#!/usr/bin/python3
"""The reference pipeline the Node path is measured against: pandas read_csv + sklearn metrics.

    /usr/bin/python3 bench/pandas_sklearn.py bench/data/folktexts-1m.test_predictions.csv

Prints one JSON line: wall time of each step, total wall time since the interpreter started, peak
RSS (resource.getrusage, KiB on Linux), and the metrics (to check both sides agree).
"""
import json
import resource
import sys
import time

T_START = time.perf_counter()

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.metrics import accuracy_score, brier_score_loss, log_loss, roc_auc_score  # noqa: E402

T_IMPORTED = time.perf_counter()


def ece_equal_width(score: np.ndarray, label: np.ndarray, bins: int = 10) -> float:
    """docs/metrics.md `ece`: 10 equal-width bins, the last closed; weighted |mean score - mean label|."""
    idx = np.minimum((score * bins).astype(np.int64), bins - 1)
    count = np.bincount(idx, minlength=bins)
    sum_s = np.bincount(idx, weights=score, minlength=bins)
    sum_y = np.bincount(idx, weights=label, minlength=bins)
    nz = count > 0
    return float(np.sum(np.abs(sum_s[nz] - sum_y[nz])) / len(score))


def ece_quantile(score: np.ndarray, label: np.ndarray, bins: int = 10) -> float:
    """docs/metrics.md `ece_quantile`: stable sort, numpy.array_split equal-count bins, unweighted mean."""
    order = np.argsort(score, kind="stable")
    gaps = [abs(s.mean() - y.mean()) for s, y in zip(np.array_split(score[order], bins), np.array_split(label[order], bins)) if len(s)]
    return float(np.mean(gaps))


def main(path: str) -> None:
    t0 = time.perf_counter()
    df = pd.read_csv(path, index_col=0)
    t1 = time.perf_counter()
    score = df["risk_score"].to_numpy(dtype=np.float64)
    label = df["label"].to_numpy(dtype=np.int64)
    pred = (score >= 0.5).astype(np.int64)
    metrics = {
        "auc": roc_auc_score(label, score),
        "brier": brier_score_loss(label, score),
        "log_loss": log_loss(label, score),
        "accuracy": accuracy_score(label, pred),
        "ece": ece_equal_width(score, label),
        "ece_quantile": ece_quantile(score, label),
    }
    t2 = time.perf_counter()
    print(json.dumps({
        "rows": int(len(df)),
        "import_s": round(T_IMPORTED - T_START, 4),
        "read_csv_s": round(t1 - t0, 4),
        "metrics_s": round(t2 - t1, 4),
        "total_in_process_s": round(t2 - T_START, 4),
        "max_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "metrics": {k: float(v) for k, v in metrics.items()},
    }))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench/data/folktexts-1m.test_predictions.csv")
