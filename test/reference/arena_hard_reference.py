#!/usr/bin/env python3
"""Independent reference for Eval Lens's Arena-Hard-Auto reader (src/core/judges/arenaHard.ts),
written from lmarena/arena-hard-auto's own scoring, not from Eval Lens's code:

- v0.1 (show_result.py before the v2.0 release, get_battles_from_row): each game becomes battles
  between model_a = the baseline and model_b = the model; game 1 "A>B" is a baseline win, game 2
  "A>B" a model win; a strong verdict (">>") three battles; any other label none. The score is
  the model's win rate against the baseline from compute_mle_elo (scikit-learn's
  LogisticRegression without intercept on the battles, each duplicated, a tie one win each way).
- v2.0 (show_result.py, load_judgments): label_to_score; a question whose either game or score is
  null is dropped; the model's score is the mean of its exploded battle scores.

Also: the standard error of the score clustered by question, and the position bias (the share of
questions, both games read, whose two games name different winners).

Usage: arena_hard_reference.py FILE [BASELINE]   prints one JSON document
"""
import json
import math
import sys

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

WEIGHT = 3
V2_LABELS = {
    "A>B": [1], "A>>B": [1] * WEIGHT, "A=B": [0.5], "A<<B": [0] * WEIGHT, "A<B": [0],
    "B>A": [0], "B>>A": [0] * WEIGHT, "B=A": [0.5], "B<<A": [1] * WEIGHT, "B<A": [1],
}


def normalise(score):
    """The label as the forks write it too: upper case, brackets stripped (arena-hard-local)."""
    if not isinstance(score, str):
        return None
    return score.strip().upper().strip("[]").strip()


def v01_battles(rows, baseline):
    out = []
    for row in rows:
        for k, game in enumerate(row["games"][:2]):
            if game is None:
                continue
            s = normalise(game.get("score"))
            if s not in ("A=B", "A>B", "A>>B", "B>A", "B>>A", "A<B", "A<<B", "B<A", "B<<A", "B=A"):
                continue
            if s in ("A=B", "B=A"):
                winner = "tie"
            else:
                a_wins = s in ("A>B", "A>>B", "B<A", "B<<A")
                # game 1: A is the baseline (model_a); game 2: A is the model (model_b).
                winner = ("model_a" if a_wins else "model_b") if k == 0 else ("model_b" if a_wins else "model_a")
            weight = WEIGHT if ">>" in s or "<<" in s else 1
            out += [{"question_id": row.get("uid", row.get("question_id")), "model_a": baseline,
                     "model_b": row["model"], "winner": winner}] * weight
    return pd.DataFrame(out)


def compute_mle_elo(df, baseline, scale=400, base=10, init=1000):
    models = pd.concat([df["model_a"], df["model_b"]]).unique()
    models = pd.Series(np.arange(len(models)), index=models)
    df = pd.concat([df, df], ignore_index=True)
    p = len(models.index)
    n = df.shape[0]
    X = np.zeros([n, p])
    X[np.arange(n), models[df["model_a"]]] = +math.log(base)
    X[np.arange(n), models[df["model_b"]]] = -math.log(base)
    Y = np.zeros(n)
    Y[df["winner"] == "model_a"] = 1.0
    tie_idx = (df["winner"] == "tie").to_numpy().copy()
    tie_idx[len(tie_idx) // 2:] = False
    Y[tie_idx] = 1.0
    lr = LogisticRegression(fit_intercept=False, C=1e12, tol=1e-10, max_iter=100000)
    lr.fit(X, Y)
    elo = scale * lr.coef_[0] + init
    elo += 1000 - elo[models[baseline]]
    return pd.Series(elo, index=models.index)


def main():
    path = sys.argv[1]
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    v2 = "baseline" in rows[0] or "uid" in rows[0]
    baseline = rows[0].get("baseline") if v2 else (sys.argv[2] if len(sys.argv) > 2 else "baseline")
    rows = [r for r in rows if r["model"] != baseline]
    out = {"v2": v2, "baseline": baseline, "models": {}}
    # Every game's model score and weight (Eval Lens's rows), for the counts, the SE and the bias.
    games = []
    for r in rows:
        labels = [normalise(g.get("score")) if g else None for g in r["games"][:2]]
        if v2 and not all(l in V2_LABELS for l in labels + [None] * (2 - len(labels))):
            continue
        for k, l in enumerate(labels):
            if l not in V2_LABELS:
                continue
            scores = V2_LABELS[l]
            s = scores[0] if k == 1 else 1 - scores[0]
            games.append({"model": r["model"], "baseline": r.get("baseline", baseline), "category": r.get("category", ""),
                          "q": r.get("uid", r.get("question_id")), "k": k, "s": s, "w": len(scores)})
    g = pd.DataFrame(games)
    for (model, base, category), d in g.groupby(["model", "baseline", "category"], sort=False):
        key = f"{model} vs {base}" + (f" ({category})" if category else "")
        total = d["w"].sum()
        rate = (d["w"] * d["s"]).sum() / total
        e = (d["w"] * (d["s"] - rate)).groupby(d["q"]).sum()
        C = len(e)
        se = math.sqrt((e ** 2).sum() * C / (C - 1)) / total
        both = d.pivot_table(index="q", columns="k", values="s", aggfunc="first").dropna()
        differ = int((both[0] != both[1]).sum())
        out["models"][key] = {
            "model": model, "baseline": base, "category": category, "games": int(len(d)), "battles": float(total), "wins": float(d[d.s == 1]["w"].sum()), "losses": float(d[d.s == 0]["w"].sum()),
            "ties": float(d[d.s == 0.5]["w"].sum()), "score": 100 * rate, "se": 100 * se, "questions": C,
            "position_bias": differ / len(both) if len(both) else None, "pairs": int(len(both)), "differ": differ,
        }
    if v2:
        # show_result.py (v2.0): drop null games, explode label_to_score, mean per model.
        ok = [r for r in rows if all(x is not None and x.get("score") is not None for x in r["games"][:2])]
        scores = {}
        for r in ok:
            l0, l1 = normalise(r["games"][0]["score"]), normalise(r["games"][1]["score"])
            if l0 not in V2_LABELS or l1 not in V2_LABELS:
                continue
            key = f"{r['model']} vs {r['baseline']} ({r['category']})"
            scores.setdefault(key, []).extend(V2_LABELS[l1] + [1 - s for s in V2_LABELS[l0]])
        for m, s in scores.items():
            out["models"][m]["harness_score"] = 100 * float(np.mean(s))
    else:
        battles = v01_battles(rows, baseline)
        elo = compute_mle_elo(battles, baseline)
        for key, m in out["models"].items():
            m["harness_score"] = 100 / (1 + 10 ** ((elo[baseline] - elo[m["model"]]) / 400))
            m["elo"] = float(elo[m["model"]])
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
