"""Independent figures of the real files issue 17's tests read (numpy / scikit-learn), written to
issue17_real_expected.json. Run: /usr/bin/python3 test/reference/issue17_real_reference.py
- lm-eval 0.4.2-era samples_bias_classification_<ts>.json (JSON Lines in a .json file; the first
  100 lines of the real file) beside its unmodified results_<ts>.json."""
import json, os, statistics

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, '..', 'fixtures', 'real', 'lm-eval', 'meta-llama__Meta-Llama-3-8B')
TS = '2024-06-17T16-06-39.458097'
with open(os.path.join(REAL, f'samples_bias_classification_{TS}.json')) as f:
    rows = [json.loads(line) for line in f if line.strip()]
with open(os.path.join(REAL, f'results_{TS}.json')) as f:
    results = json.load(f)['results']['bias_classification']
out = {'bias_classification': {
    'n': len(rows), 'acc': statistics.mean(r['acc'] for r in rows), 'acc_norm': statistics.mean(r['acc_norm'] for r in rows),
    'reported_acc': results['acc,none'], 'reported_acc_norm': results['acc_norm,none'],
}}
# eqbench_ca (FLOR-760M), whose results file lm-eval named results_<model>:<ts>_<ts>.json (kept as
# ...-colon-....json.txt: a colon cannot be in a committed file name on Windows).
FLOR = os.path.join(HERE, '..', 'fixtures', 'real', 'lm-eval', 'FLOR-760M')
with open(os.path.join(FLOR, 'samples_eqbench_ca_2025-07-21T14-41-47.889425.jsonl')) as f:
    rows = [json.loads(line) for line in f if line.strip()]
with open(os.path.join(FLOR, 'results_FLOR-760M-colon-2025-07-21T1441-16_2025-07-21T14-41-47.889425.json.txt')) as f:
    doc = json.load(f)
res = doc['results']['eqbench_ca']
out['eqbench_ca'] = {'n': len(rows), 'eqbench': statistics.mean(r['eqbench'] for r in rows),
                     'percent_parseable': statistics.mean(r['percent_parseable'] for r in rows),
                     'reported_eqbench': res['eqbench,none'], 'reported_percent_parseable': res['percent_parseable,none'],
                     'model_name': doc['model_name']}

with open(os.path.join(HERE, 'issue17_real_expected.json'), 'w') as f:
    json.dump(out, f, indent=2, sort_keys=True)
print(json.dumps(out, indent=2))
