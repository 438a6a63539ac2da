#!/usr/bin/python3
"""Independent reference for the folktexts aggregated-results board (test/unit/compare/board.test.ts).

    /usr/bin/python3 test/reference/board_reference.py

Reads test/fixtures/real/folktexts/aggregated-results.2024-08.csv with pandas and writes
test/reference/board_expected.json: per (name, prompting) row and task the reported roc_auc and
ece, each row's mean over tasks, and folktexts' appendix pivot (numeric minus multiple-choice,
per model and task) for ece and roc_auc. Written from the CSV's columns, not from the TypeScript.
"""
import json
import os

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
CSV = os.path.join(HERE, '..', 'fixtures', 'real', 'folktexts', 'aggregated-results.2024-08.csv')


def main():
    df = pd.read_csv(CSV, index_col=0)
    df['prompting'] = df['config_numeric_risk_prompting'].map({True: 'numeric', False: 'multiple-choice'})
    df['run'] = df['name'] + ' · ' + df['prompting']
    out = {'rows': {}, 'pivot': {}}
    for metric, col in (('auc', 'roc_auc'), ('ece', 'ece')):
        table = df.pivot(index='run', columns='config_task_name', values=col)
        out['rows'][metric] = {run: {'values': {t: float(v) for t, v in r.items()}, 'mean': float(r.mean())} for run, r in table.iterrows()}
        num = df[df.prompting == 'numeric'].pivot(index='name', columns='config_task_name', values=col)
        mc = df[df.prompting == 'multiple-choice'].pivot(index='name', columns='config_task_name', values=col)
        diff = num - mc
        out['pivot'][metric] = {name: {'values': {t: float(v) for t, v in r.items()}, 'mean': float(r.mean())} for name, r in diff.iterrows()}
    with open(os.path.join(HERE, 'board_expected.json'), 'w') as f:
        json.dump(out, f, indent=0, ensure_ascii=False)
    print('wrote board_expected.json')


if __name__ == '__main__':
    main()
