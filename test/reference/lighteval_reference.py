"""Independent figures of lighteval details rows (issue 26), from their raw values only.

Reads JSON on stdin: {"sets": {NAME: [{"choices": ..., "gold_index": ..., "logprobs": ..., "metric": ...}]}}
where each value is as the details file holds it: lists and numbers (lighteval 0.8+), or the
str() of them that lighteval 0.3-0.7 saved (read here with ast.literal_eval). Writes the figures
Eval Lens must show, as JSON on stdout ({NAME: figures}):

- multiple choice (every row has >= 2 choices and a log-probability per choice, twice as many with
  PMI): probabilities
  are the softmax (scipy.special.softmax) of the first len(choices) logprobs, the prediction
  numpy's argmax; a sample is right when that is in gold_index (lighteval's loglikelihood_acc);
  with several golds, Brier and log loss use the gold the model ranks highest. accuracy,
  macro-F1 over the k positions (sklearn, labels=range(k)), multiclass Brier (sum over classes of
  (p - onehot)^2, mean), nbr = brier / 2, log_loss (-mean log p_gold, clipped to [1e-15, 1 - 1e-15]),
  ece (top-label confidence against correctness, 10 equal-width bins);
- generative rows: accuracy is the mean of the first 0/1 metric of
  extractive_match, em, exact_match, quasi_exact_match, qem, pem, pqem, acc;
- every metric's mean over the rows that logged it.
"""
import ast
import json
import sys

import numpy as np
from scipy.special import softmax
from sklearn.metrics import f1_score

VERDICTS = ["extractive_match", "em", "exact_match", "quasi_exact_match", "qem", "pem", "pqem", "acc"]


def value(v):
    return ast.literal_eval(v) if isinstance(v, str) and v.strip()[:1] in "[({" else v


def as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


def logprob(p):
    return p[0] if isinstance(p, (list, tuple)) else p


def figures(rows):
    parsed = []
    for r in rows:
        choices = value(r["choices"]) or []
        golds = as_list(value(r["gold_index"]))
        raw = value(r["logprobs"]) or []
        lps = [float(logprob(p)) for p in raw] if all(isinstance(logprob(p), (int, float)) and not isinstance(logprob(p), bool) for p in raw) else []
        metric = {k: float(v) for k, v in (value(r["metric"]) or {}).items() if isinstance(v, (int, float)) and v is not None}
        parsed.append((choices, golds, lps, metric))

    out = {"n": len(parsed)}
    names = []
    for _, _, _, m in parsed:
        for k in m:
            if k not in names:
                names.append(k)
    out["task_metrics"] = {k: float(np.mean([m[k] for _, _, _, m in parsed if k in m])) for k in names}

    choice_mode = all(len(c) >= 2 and len(lp) in (len(c), 2 * len(c)) for c, _, lp, _ in parsed)
    if choice_mode:
        k = max(len(c) for c, _, _, _ in parsed)
        gold, pred, probs = [], [], np.zeros((len(parsed), k))
        for i, (c, golds, lp, _) in enumerate(parsed):
            lp = np.array(lp[: len(c)])
            p = softmax(lp)
            top = int(np.argmax(lp))
            g = top if top in golds else max(golds, key=lambda x: lp[x])
            gold.append(g)
            pred.append(top)
            probs[i, : len(c)] = p
        gold, pred = np.array(gold), np.array(pred)
        correct = (gold == pred).astype(float)
        onehot = np.eye(k)[gold]
        conf = probs[np.arange(len(pred)), pred]
        bins = np.minimum(np.floor(conf * 10).astype(int), 9)
        ece = sum(np.sum(bins == b) / len(conf) * abs(conf[bins == b].mean() - correct[bins == b].mean()) for b in range(10) if np.any(bins == b))
        out.update(
            mode="choices",
            accuracy=float(correct.mean()),
            macro_f1=float(f1_score(gold, pred, labels=list(range(k)), average="macro", zero_division=0)),
            brier=float(np.mean(np.sum((probs - onehot) ** 2, axis=1))),
            nbr=float(np.mean(np.sum((probs - onehot) ** 2, axis=1)) / 2),
            log_loss=float(-np.mean(np.log(np.clip(probs[np.arange(len(gold)), gold], 1e-15, 1 - 1e-15)))),
            ece=float(ece),
        )
    else:
        key = next((v for v in VERDICTS if all(m.get(v) in (0.0, 1.0) for _, _, _, m in parsed)), None)
        out.update(mode="generative", verdict=key, accuracy=float(np.mean([m[key] for _, _, _, m in parsed])) if key else None)
    return out


json.dump({name: figures(rows) for name, rows in json.load(sys.stdin)["sets"].items()}, sys.stdout)
