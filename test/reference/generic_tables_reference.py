"""Independent figures for test/unit/formats/genericTables*.test.ts, from the raw files with pandas,
numpy and scikit-learn (never from Eval Lens). Prints one JSON object.

Run: /usr/bin/python3 test/reference/generic_tables_reference.py"""
import json, os
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, brier_score_loss, f1_score, log_loss, roc_auc_score, roc_curve

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures')
T = os.path.join(ROOT, 'generic-tables')


def ece(value, target, bins=10):
    """docs/metrics.md: 10 equal-width bins [0, .1), ..., [.9, 1.0] (the last closed), weighted |mean(value) - mean(target)|."""
    value = np.asarray(value, float)
    target = np.asarray(target, float)
    idx = np.minimum((value * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        m = idx == b
        if m.any():
            total += m.sum() / len(value) * abs(value[m].mean() - target[m].mean())
    return total


def binary(y, s, pred=None):
    y = np.asarray(y, int)
    s = np.asarray(s, float)
    d = (s >= 0.5).astype(int) if pred is None else np.asarray(pred, int)
    tp = int(((d == 1) & (y == 1)).sum()); fp = int(((d == 1) & (y == 0)).sum())
    tn = int(((d == 0) & (y == 0)).sum()); fn = int(((d == 0) & (y == 1)).sum())
    fpr, tpr, _ = roc_curve(y, s)
    return {
        'n': int(len(y)), 'accuracy': accuracy_score(y, d), 'auc': roc_auc_score(y, s), 'brier': brier_score_loss(y, s),
        'log_loss': log_loss(y, np.clip(s, 1e-15, 1 - 1e-15)), 'ece': ece(s, y),
        'tpr': tp / (tp + fn), 'fpr': fp / (fp + tn), 'precision': tp / (tp + fp), 'balanced_accuracy': 0.5 * (tp / (tp + fn) + tn / (tn + fp)),
        'correct': [int(v) for v in (d == y)], 'roc_points': int(len(fpr)),
    }


out = {}

# Two classes: P(y = 1) is p_approve (pred_label is 1 exactly where p_approve is the larger).
loans = pd.read_csv(os.path.join(T, 'loan_decisions.csv'))
assert ((loans.p_approve > loans.p_reject).astype(int) == loans.pred_label).all()
out['loans'] = binary(loans.y_true, loans.p_approve)
probs = np.stack([loans.p_reject, loans.p_approve], axis=1)
onehot = np.stack([loans.y_true == 0, loans.y_true == 1], axis=1).astype(float)
out['loans']['brier_two_class_multiclass'] = float(np.mean(np.sum((probs - onehot) ** 2, axis=1)))
# The same rows with the classes written as names and no prediction column: the positive class is
# the second in sorted order, "reject".
out['loans_names'] = binary((loans.y_true == 0).astype(int), loans.p_reject)

# The bank's own decision (predicted_class, at 0.35) decides accuracy; calibration keeps the score.
churn = pd.read_csv(os.path.join(T, 'churn_decisions.csv'))
out['churn_pred'] = binary(churn.churned, churn.churn_probability, churn.predicted_class)
out['churn_threshold'] = binary(churn.churned, churn.churn_probability)
out['churn_pred_by_geography'] = {
    g: binary(d.churned, d.churn_probability, d.predicted_class)['tpr'] for g, d in churn.groupby('geography')
}

# MMLU-Pro eval_all: correct_answer / extracted_answer, the first confidence column.
mm = pd.read_csv(os.path.join(T, 'mmlu_pro_eval_all.csv'), index_col=0)
right = (mm.correct_answer == mm.extracted_answer).astype(int)
out['mmlu_pro'] = {
    'n': int(len(mm)), 'accuracy': float(right.mean()),
    'macro_f1': f1_score(mm.correct_answer, mm.extracted_answer, average='macro', labels=sorted(set(mm.correct_answer) | set(mm.extracted_answer))),
    'ece': ece(mm.verbal_numerical_confidence, right),
    'ece_logit_perplexity': ece(mm.logit_perplexity_confidence, right),
}

# Per-sample scores: every numeric column's mean over the rows that have it (pandas skips NaN).
def scores(path):
    d = pd.read_csv(path)
    cols = [c for c in d.columns if pd.api.types.is_numeric_dtype(d[c])]
    return {'n': int(len(d)), 'metrics': {c: {'mean': None if d[c].count() == 0 else float(d[c].mean()), 'n': int(d[c].count())} for c in cols}}

out['ragas_synthetic'] = scores(os.path.join(T, 'ragas_scores.csv'))
rs = pd.read_csv(os.path.join(T, 'ragas_scores.csv'))
out['ragas_synthetic']['by_evolution_type'] = {
    g: {c: float(d[c].mean()) for c in ['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall']}
    for g, d in rs.groupby('evolution_type')
}
out['ragas_real'] = scores(os.path.join(ROOT, 'real', 'ragas', 'ragas_evaluation_results.csv'))
print(json.dumps(out))
