"""The reference for the generic table of issue 22: pandas (read_csv, read_json or read_parquet via
pyarrow) + scikit-learn's metrics, the obvious Python way. Run with the bench venv
(python3 -m venv /tmp/benchvenv && /tmp/benchvenv/bin/pip install pyarrow pandas numpy scikit-learn):

    /tmp/benchvenv/bin/python bench/generic_reference.py FILE.{csv,tsv,jsonl,parquet}
    /tmp/benchvenv/bin/python bench/generic_reference.py --write-parquet FILE.csv OUT.parquet

Prints one JSON line: the steps' wall times and the metrics (to check both sides agree).
"""
import json
import sys
import time

T_START = time.perf_counter()

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.metrics import accuracy_score, brier_score_loss, log_loss, roc_auc_score  # noqa: E402

T_IMPORTED = time.perf_counter()


def ece_equal_width(score, label, bins=10):
    idx = np.minimum((score * bins).astype(np.int64), bins - 1)
    count = np.bincount(idx, minlength=bins)
    sum_s = np.bincount(idx, weights=score, minlength=bins)
    sum_y = np.bincount(idx, weights=label, minlength=bins)
    nz = count > 0
    return float(np.sum(np.abs(sum_s[nz] - sum_y[nz])) / len(score))


def read(path):
    if path.endswith('.parquet'):
        return pd.read_parquet(path)  # pyarrow engine
    if path.endswith('.jsonl'):
        return pd.read_json(path, lines=True, dtype={'id': str})
    return pd.read_csv(path, sep='\t' if path.endswith('.tsv') else ',')


def main(path):
    t0 = time.perf_counter()
    df = read(path)
    t1 = time.perf_counter()
    score = df['score'].to_numpy(dtype=np.float64)
    label = df['label'].to_numpy(dtype=np.int64)
    pred = (score >= 0.5).astype(np.int64)
    metrics = {
        'auc': roc_auc_score(label, score),
        'brier': brier_score_loss(label, score),
        'log_loss': log_loss(label, score),
        'accuracy': accuracy_score(label, pred),
        'ece': ece_equal_width(score, label),
    }
    t2 = time.perf_counter()
    print(json.dumps({'rows': int(len(df)), 'import_s': round(T_IMPORTED - T_START, 4), 'read_s': round(t1 - t0, 4),
                      'metrics_s': round(t2 - t1, 4), 'total_s': round(t2 - T_START, 4), 'metrics': metrics}))


if __name__ == '__main__':
    if sys.argv[1] == '--write-parquet':
        df = pd.read_csv(sys.argv[2], dtype={'id': str})
        df.to_parquet(sys.argv[3], engine='pyarrow', compression='snappy', row_group_size=250_000, index=False)
    else:
        main(sys.argv[1])
