// A table pandas wrote with its index (to_csv's default) starts with an unnamed column of row
// numbers 0, 1, 2, ...: that column is pandas' index, not a metric. Before, folktexts'
// benchmark_metrics.csv reported "acsincome_classification.csv/column 1  0" and six more row
// numbers among its 35 figures. Figures against pandas reading the same file with index_col=0.
import { execFileSync } from 'node:child_process';
import { PY_PANDAS_SUMMARY } from '../pythonReferences';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFile } from '../../../src/core/score';
import { tableSummary } from '../../../src/core/formats/summaryTables';
import { REAL } from '../realData';

const FILE = join(REAL, 'folktexts', 'benchmark_metrics.csv');


describe("summary tables: pandas' unnamed index column", () => {
  it('is not a metric (folktexts benchmark_metrics.csv: 28 figures, no "column 1")', () => {
    const ref: Record<string, number> = JSON.parse(execFileSync('/usr/bin/python3', ['-c', PY_PANDAS_SUMMARY, FILE, 'dataset_name', 'index'], { encoding: 'utf8' }));
    const r = scoreFile(FILE, { bootstrap: 0 });
    expect(r.fatal).toBeUndefined();
    expect(Object.keys(r.reported!).sort()).toEqual(Object.keys(ref).sort());
    expect(Object.keys(ref)).toHaveLength(28);
    for (const [k, v] of Object.entries(ref)) expect(r.reported![k]).toBeCloseTo(v, 12);
  });

  it('drops a re-saved index ("Unnamed: 0") of row numbers too, and keeps an unnamed column of names as the row label', () => {
    const resaved = 'Unnamed: 0,model,accuracy,f1\n0,a,0.5,0.4\n1,b,0.6,0.7\n';
    const figures = tableSummary('t.csv', resaved).info.figures.map((f) => f.name);
    expect(figures).toEqual(['a/accuracy', 'a/f1', 'b/accuracy', 'b/f1']);
    const named = ',accuracy,f1\nm1,0.5,0.4\nm2,0.6,0.7\n';
    expect(tableSummary('t.csv', named).info.figures.map((f) => f.name)).toEqual(['m1/accuracy', 'm1/f1', 'm2/accuracy', 'm2/f1']);
  });
});
