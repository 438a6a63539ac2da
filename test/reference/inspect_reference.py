#!/usr/bin/env python3
"""Independent reference for Eval Lens's Inspect reader: reads a .eval (zipfile) or .json Inspect log
with the standard library and numpy, and prints, per scorer, Inspect's accuracy and stderr per epoch
and after the epoch reducer, plus the first scorer's per-sample confidence. Written from Inspect's
definitions (value_to_float, accuracy = mean, stderr = std(ddof=1)/sqrt(n), reducers mean/median/
mode/max), not from Eval Lens's code. Usage: inspect_reference.py LOG"""
import json, math, statistics, sys, zipfile
from collections import Counter, defaultdict
import numpy as np


def load(path):
    if zipfile.is_zipfile(path):
        z = zipfile.ZipFile(path)
        names = z.namelist()
        header = json.loads(z.read("header.json" if "header.json" in names else "_journal/start.json"))
        samples = [json.loads(z.read(n)) for n in names if n.startswith("samples/") and n.endswith(".json")]
        reductions = json.loads(z.read("reductions.json")) if "reductions.json" in names else None
    else:
        header = json.load(open(path))
        samples = header.pop("samples", []) or []
        reductions = header.pop("reductions", None)
    return header, samples, reductions


def to_float(v):
    if isinstance(v, (bool, int, float)):
        return float(v)
    if v == "C":
        return 1.0
    if v == "P":
        return 0.5
    if v in ("I", "N"):
        return 0.0
    if isinstance(v, str):
        low = v.lower()
        if low in ("yes", "true"):
            return 1.0
        if low in ("no", "false"):
            return 0.0
        try:
            f = float(v)
            if math.isfinite(f):
                return f
        except ValueError:
            pass
    return 0.0


def unscored(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def figures(vals):
    n = len(vals)
    acc = sum(vals) / n if n else 0.0
    se = float(np.std(vals, ddof=1) / np.sqrt(n)) if n >= 2 else 0.0
    return {"n": n, "accuracy": acc, "stderr": se}


REDUCERS = {
    "mean": lambda vs: statistics.mean(to_float(v) for v in vs),
    "median": lambda vs: statistics.median(to_float(v) for v in vs),
    "mode": lambda vs: to_float(Counter(vs).most_common(1)[0][0]),
    "max": lambda vs: max(to_float(v) for v in vs),
}


def main(path):
    header, samples, reductions = load(path)
    config = header.get("eval", {}).get("config", {})
    reducer = (config.get("epochs_reducer") or ["mean"])[0]
    for r in reductions or []:
        reducer = r.get("reducer") or reducer
    order = [s["name"] for s in header.get("results", {}).get("scores", [])]
    for s in samples:
        for name in s.get("scores", {}):
            if name not in order:
                order.append(name)
    out = {"scorers": {}, "order": order}
    epochs = sorted({int(s.get("epoch", 1)) for s in samples})
    for name in order:
        per_epoch = defaultdict(list)
        by_id = defaultdict(list)
        for s in samples:
            sc = s.get("scores", {}).get(name)
            if sc is None or unscored(sc["value"]):
                continue
            per_epoch[int(s.get("epoch", 1))].append(to_float(sc["value"]))
            by_id[str(s["id"])].append(sc["value"])
        reduced = [REDUCERS[reducer](vs) for vs in by_id.values()]
        out["scorers"][name] = {
            "epochs": {str(e): figures(per_epoch[e]) for e in epochs},
            "reduced": figures(reduced),
        }
    # First scorer's confidence per scored sample, sorted by (id, epoch) as a set.
    first = order[0] if order else None
    conf = []
    for s in samples:
        sc = s.get("scores", {}).get(first)
        if sc is None or unscored(sc["value"]):
            continue
        c = (sc.get("metadata") or {}).get("confidence")
        if c is None:
            lps = (((s.get("output") or {}).get("choices") or [{}])[0].get("logprobs") or {}).get("content") or []
            hits = [t["logprob"] for t in lps if t["token"].strip() == (sc.get("answer") or "").strip()]
            c = math.exp(hits[-1]) if hits and s.get("choices") else None
        conf.append(c)
    out["confidence"] = sorted(conf, key=lambda c: (c is None, c or 0))
    out["reducer"] = reducer
    out["status"] = header.get("status")
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
