// Pieces of the Python reference scripts several tests share (run with python3: the standard
// library, pandas where said): each test adds its own reading of the files, so the figures stay
// independent of the TypeScript under test.

/**
 * Given dicts `a` and `b` (instance id -> 1 or 0, right or wrong, of a baseline and a candidate):
 * prints n, the two accuracies and the agreement table over the ids in both, as JSON.
 */
export const PY_AGREEMENT = String.raw`
ids = sorted(set(a) & set(b))
t = {'both_right': 0, 'baseline_only': 0, 'candidate_only': 0, 'both_wrong': 0}
for i in ids:
    k = ('both_right' if b[i] == 1 else 'baseline_only') if a[i] == 1 else ('candidate_only' if b[i] == 1 else 'both_wrong')
    t[k] += 1
print(json.dumps({'n': len(ids), 'acc': [sum(a[i] for i in ids) / len(ids), sum(b[i] for i in ids) / len(ids)], 'table': t}))
`;

/**
 * Reads the FastChat MT-Bench single judgments of sys.argv[1] into `valid`: (model, question_id,
 * turn, score) of the last judgment of each (model, question, turn, judge) (gen_judgment.py appends
 * a re-run), the invalid ones (score -1) left out.
 */
export const PY_LAST_JUDGMENTS = String.raw`
import json, sys
last = {}
for line in open(sys.argv[1], encoding='utf-8'):
    r = json.loads(line)
    last[(r['model'], r['question_id'], r['turn'], '/'.join(r['judge']))] = r['score']
valid = [(m, q, t, s) for (m, q, t, j), s in last.items() if s != -1]
`;

/**
 * With pandas: prints, as JSON, each row's numeric columns of the CSV sys.argv[1], named
 * `<the row's value of column sys.argv[2]>/<column>`; with sys.argv[3] == 'index', the first column
 * is read as the index (index_col=0), as a summary table written by pandas has it.
 */
export const PY_PANDAS_SUMMARY = String.raw`
import json, sys
import pandas as pd
name = sys.argv[2]
d = pd.read_csv(sys.argv[1], index_col=0 if sys.argv[3:] == ['index'] else None)
out = {}
for _, row in d.iterrows():
    for c in d.columns:
        if c != name and pd.api.types.is_numeric_dtype(d[c]):
            out[f"{row[name]}/{c}"] = float(row[c])
print(json.dumps(out))
`;
