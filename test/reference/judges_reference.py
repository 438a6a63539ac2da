#!/usr/bin/env python3
"""Independent reference for Eval Lens's judge readers (src/core/judges/), written from the field's
own code, not from Eval Lens's: FastChat's show_result.py (single and pairwise) and
compute_agreement.py, AlpacaEval's metrics/helpers.py (describe_head2head), the Chatbot Arena
notebook's compute_mle_elo (scikit-learn's LogisticRegression, no intercept, large C), and
scikit-learn's cohen_kappa_score. Prints one JSON document.

Usage: judges_reference.py KIND FILE [EXTRA]
  single FILE [QUESTIONS]  per model (and turn, category) means; clustered SE by question; t interval
  pair FILE                show_result.py's pairwise table; position and length bias
  alpaca FILE              the leaderboard's win_rate, standard_error, n_wins, n_wins_base, n_draws
  arena FILE [COUNTS]      Bradley-Terry ratings; with COUNTS (a JSON list of per-resample battle
                           multiplicities) the refits, their percentiles and rank intervals
  agreement FILE           the model judge against the humans (compute_agreement.py's pairing)
  kappa JSON               {"a": [...], "b": [...]} (or a list of them): agreement, kappa, its FCE SE
"""
import json
import math
import sys

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import cohen_kappa_score, confusion_matrix


def read_records(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.lstrip().startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def clustered(values, clusters):
    """Inspect's stderr(cluster=): sqrt(sum_c (sum_{i in c} (x_i - mean))^2 * C / (C - 1)) / n."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    df = pd.DataFrame({"x": x - x.mean(), "c": clusters})
    sums = df.groupby("c")["x"].sum().to_numpy()
    C = len(sums)
    if C < 2:
        return None, None
    se = math.sqrt((sums ** 2).sum() * C / (C - 1)) / n
    q = stats.t.ppf(0.975, C - 1)
    return se, [x.mean() - q * se, x.mean() + q * se]


def single(path, questions=None):
    df_all = pd.read_json(path, lines=True)
    invalid = int((df_all["score"] == -1).sum())
    df = df_all[df_all["score"] != -1]
    out = {"invalid": invalid, "n": int(len(df)), "models": {}}
    cats = None
    if questions:
        q = pd.read_json(questions, lines=True)
        cats = dict(zip(q["question_id"], q["category"]))
    # show_result.py's own means: groupby(["model", "turn"]).mean() and groupby("model").mean()
    by_turn = df[["model", "score", "turn"]].groupby(["model", "turn"]).mean()["score"]
    by_model = df[["model", "score"]].groupby(["model"]).mean()["score"]
    for model, mean in by_model.items():
        d = df[df["model"] == model]
        se, iv = clustered(d["score"], d["question_id"])
        entry = {"n": int(len(d)), "mean": float(mean), "se": se, "interval": iv,
                 "turns": {str(t): float(by_turn[(model, t)]) for t in sorted(d["turn"].unique())}}
        tse = {}
        for t in sorted(d["turn"].unique()):
            dt = d[d["turn"] == t]
            tse[str(t)] = clustered(dt["score"], dt["question_id"])[0]
        entry["turn_se"] = tse
        if cats:
            dc = d.assign(category=d["question_id"].map(cats))
            entry["categories"] = {c: float(v) for c, v in dc.groupby("category")["score"].mean().items()}
            entry["category_se"] = {c: clustered(g["score"], g["question_id"])[0] for c, g in dc.groupby("category")}
        entry["distribution"] = {str(float(k)): int(v) for k, v in d["score"].value_counts().items()}
        entry["invalid"] = int(((df_all["model"] == model) & (df_all["score"] == -1)).sum())
        out["models"][model] = entry
    return out


def answer(prompt, who):
    start = f"[The Start of Assistant {who}'s Answer]\n"
    s = prompt.find(start)
    if s >= 0:
        e = prompt.find(f"\n[The End of Assistant {who}'s Answer]", s + len(start))
        return prompt[s + len(start):e] if e >= 0 else None
    end = prompt.find(f"\n\n<|The End of Assistant {who}'s Conversation with User|>")
    if end < 0:
        return None
    marker = f"### Assistant {who}:\n"
    last = prompt.rfind(marker, 0, end)
    return prompt[last + len(marker):end] if last >= 0 else None


def pearson_with_interval(y, x):
    y = np.asarray(y, dtype=float)
    x = np.asarray(x, dtype=float)
    r = float(np.corrcoef(x, y)[0, 1])
    z = math.atanh(r)
    h = stats.norm.ppf(0.975) / math.sqrt(len(x) - 3)
    return r, [math.tanh(z - h), math.tanh(z + h)]


def wilson(k, n):
    z = stats.norm.ppf(0.975)
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return [(centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)]


def pair(path):
    df_all = pd.read_json(path, lines=True)
    total = len(df_all)
    # show_result.py, display_result_pairwise, with every model (pairwise-all)
    df_all = df_all[(df_all["g1_winner"] != "error") & (df_all["g2_winner"] != "error")]
    res = []
    for _, row in df_all.iterrows():
        if row["g1_winner"] == "tie" or row["g1_winner"] != row["g2_winner"]:
            res.append({"model": row["model_1"], "win": 0, "loss": 0, "tie": 1})
            res.append({"model": row["model_2"], "win": 0, "loss": 0, "tie": 1})
        else:
            winner, loser = (row["model_1"], row["model_2"]) if row["g1_winner"] == "model_1" else (row["model_2"], row["model_1"])
            res.append({"model": winner, "win": 1, "loss": 0, "tie": 0})
            res.append({"model": loser, "win": 0, "loss": 1, "tie": 0})
    df = pd.DataFrame(res).groupby(["model"]).sum()
    df["win_rate"] = df["win"] / (df["win"] + df["loss"] + df["tie"])
    df["loss_rate"] = df["loss"] / (df["win"] + df["loss"] + df["tie"])
    df["win_rate_adjusted"] = (df["win"] + 0.5 * df["tie"]) / (df["win"] + df["loss"] + df["tie"])
    differ = int((df_all["g1_winner"] != df_all["g2_winner"]).sum())
    valid = len(df_all)
    out = {
        "n": valid, "invalid": total - valid,
        "table": {m: {k: float(v) for k, v in r.items()} for m, r in df.iterrows()},
        "position_bias": differ / valid, "position_interval": wilson(differ, valid), "differ": differ,
        "first_shown": int(((df_all["g1_winner"] == "model_1") & (df_all["g2_winner"] == "model_2")).sum()),
        "second_shown": int(((df_all["g1_winner"] == "model_2") & (df_all["g2_winner"] == "model_1")).sum()),
    }
    ys, xs = [], []
    for _, row in df_all.iterrows():
        a, b = answer(row["g1_user_prompt"], "A"), answer(row["g1_user_prompt"], "B")
        if a is None or b is None:
            continue
        agree = row["g1_winner"] == row["g2_winner"] and row["g1_winner"] != "tie"
        ys.append((1.0 if row["g1_winner"] == "model_1" else 0.0) if agree else 0.5)
        xs.append(len(a) - len(b))
    out["length_bias"], out["length_interval"] = pearson_with_interval(ys, xs)
    return out


def alpaca(path):
    records = read_records(path)
    out = {}
    df = pd.DataFrame(records)
    for (g2, g1), d in df.groupby(["generator_2", "generator_1"], sort=False):
        # helpers.py describe_head2head: 0 -> 1.5, keep [1, 2], minus 1
        p = pd.Series(d["preference"]).astype(float).replace({0.0: 1.5})
        keep = p.apply(lambda x: 1 <= x <= 2)
        x = p[keep] - 1
        lengths = d[keep].apply(lambda r: len(r["output_2"]) - len(r["output_1"]), axis=1)
        r, iv = pearson_with_interval(x.to_numpy(), lengths.to_numpy())
        out[g2] = {
            "baseline": g1, "win_rate": float(x.mean() * 100), "standard_error": float(x.sem() * 100),
            "n_wins": int((x > 0.5).sum()), "n_wins_base": int((x < 0.5).sum()), "n_draws": int((x == 0.5).sum()),
            "n_total": int(len(x)), "invalid": int((~keep).sum()),
            # ZeroOneScoringRule: 1.5 -> 0 (a draw), the rest rounded to 1 or 2
            "discrete_win_rate": float((pd.Series(p[keep]).replace({1.5: 0}).round().replace({0: 1.5}) - 1).mean() * 100), "length_bias": r, "length_interval": iv,
            "scores": {ins: float(v) for ins, v in zip(d[keep]["instruction"], x)},
        }
    return out


def mle_elo(df, sample_weight=None, scale=400, base=10, init=1000):
    """The Chatbot Arena notebook's Bradley-Terry: rows +ln(base) for model_a, -ln(base) for model_b,
    each battle twice (a tie once as a win for each side), LogisticRegression without intercept."""
    models = pd.Series(np.arange(len(MODELS)), index=MODELS)
    n = len(df)
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    X = np.zeros([2 * n, len(models)])
    X[np.arange(n), models[df["model_a"]].to_numpy()] = math.log(base)
    X[np.arange(n), models[df["model_b"]].to_numpy()] = -math.log(base)
    X[n:] = X[:n]
    score_a = np.where(df["winner"] == "model_a", 1.0, np.where(df["winner"] == "model_b", 0.0, 0.5))
    # each battle: a row labelled 1 weighted by a's score, a row labelled 0 weighted by b's
    Y = np.concatenate([np.ones(n), np.zeros(n)])
    weights = np.concatenate([w * score_a, w * (1 - score_a)])
    keep = weights > 0
    lr = LogisticRegression(fit_intercept=False, C=1e6, tol=1e-10, max_iter=10000)
    lr.fit(X[keep], Y[keep], sample_weight=weights[keep])
    return scale * lr.coef_[0] + init


MODELS = []


def arena(path, counts_path=None):
    global MODELS
    df = pd.DataFrame(read_records(path))
    df = df[df["winner"].isin(["model_a", "model_b", "tie", "tie (bothbad)"])].reset_index(drop=True)
    MODELS = list(pd.unique(pd.concat([df["model_a"], df["model_b"]])))
    ratings = mle_elo(df)
    out = {"models": MODELS, "ratings": {m: float(r) for m, r in zip(MODELS, ratings)}, "battles": len(df)}
    if counts_path:
        counts = json.load(open(counts_path))
        boot = np.array([mle_elo(df, c) for c in counts])
        out["intervals"] = {m: [float(np.percentile(boot[:, k], 2.5)), float(np.percentile(boot[:, k], 97.5))] for k, m in enumerate(MODELS)}
        # rank in each refit: 1 + models rated strictly higher; nearest-rank 2.5% / 97.5% quantiles
        ranks = np.array([[1 + int((row > row[k]).sum()) for k in range(len(MODELS))] for row in boot])
        m = len(boot)
        out["rank_intervals"] = {
            name: [int(np.sort(ranks[:, k])[max(0, math.ceil(0.025 * m) - 1)]), int(np.sort(ranks[:, k])[max(0, math.ceil(0.975 * m) - 1)])]
            for k, name in enumerate(MODELS)
        }
    return out


def kappa(a, b):
    labels = list(dict.fromkeys(list(a) + list(b)))
    k = float(cohen_kappa_score(a, b))
    table = confusion_matrix(a, b, labels=labels).astype(float)
    n = table.sum()
    p = table / n
    row, col = p.sum(1), p.sum(0)
    pe = float((row * col).sum())
    # Fleiss, Cohen & Everitt (1969): the large-sample variance of kappa
    diag = sum(p[i, i] * (1 - (row[i] + col[i]) * (1 - k)) ** 2 for i in range(len(labels)))
    off = sum(p[i, j] * (col[i] + row[j]) ** 2 for i in range(len(labels)) for j in range(len(labels)) if i != j)
    var = (diag + (1 - k) ** 2 * off - (k - pe * (1 - k)) ** 2) / (n * (1 - pe) ** 2)
    return {"agreement": float(np.mean(np.array(a) == np.array(b))), "kappa": k, "se": math.sqrt(var),
            "labels": labels, "confusion": table.astype(int).tolist()}


def agreement(path):
    """compute_agreement.py: votes keyed by (question, sorted pair) per turn; each human vote against
    the GPT-4 judge's first vote; "tie (bothbad)" is a tie."""
    votes = read_records(path)
    data = {}
    for v in votes:
        if v["model_a"] < v["model_b"]:
            key, winner = (v["question_id"], v["model_a"], v["model_b"], v["turn"]), v["winner"]
        else:
            key = (v["question_id"], v["model_b"], v["model_a"], v["turn"])
            winner = {"model_a": "model_b", "model_b": "model_a"}.get(v["winner"], v["winner"])
        judge = "gpt4" if isinstance(v["judge"], list) else "human"
        data.setdefault(key, {}).setdefault(judge, []).append("tie" if "tie" in winner else winner)
    a, b = [], []
    for key in data:
        if "gpt4" in data[key] and "human" in data[key]:
            for h in data[key]["human"]:
                a.append(data[key]["gpt4"][0])
                b.append(h)
    return kappa(a, b)


def main():
    kind, path = sys.argv[1], sys.argv[2]
    extra = sys.argv[3] if len(sys.argv) > 3 else None
    if kind == "single":
        out = single(path, extra)
    elif kind == "pair":
        out = pair(path)
    elif kind == "alpaca":
        out = alpaca(path)
    elif kind == "arena":
        out = arena(path, extra)
    elif kind == "agreement":
        out = agreement(path)
    elif kind == "kappa":
        d = json.load(open(path))
        out = [kappa(c["a"], c["b"]) for c in d] if isinstance(d, list) else kappa(d["a"], d["b"])
    else:
        raise SystemExit(f"unknown kind {kind}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
