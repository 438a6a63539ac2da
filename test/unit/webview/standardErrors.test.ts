// The report's "Error bars" table (issue 28, point 12): standard errors to three significant figures
// (three decimals wrote 0.00148 as "0.001"), and nbr left out where it is brier's figure again (a
// binary report). The SEs come from numpy: sample SD (ddof=1) / √n of each row's term.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatStandardError, standardErrorMetrics } from '../../../src/common/errorBarText';
import { scorePath } from '../../../src/core/score';
import { standardErrorRows } from '../../../webview/report/errorBars';

const FILE = join(__dirname, '..', '..', '..', 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');

describe('standard errors in the Error bars table', () => {
  it('three significant figures, whatever the size', () => {
    expect(formatStandardError(0.00148)).toBe('0.00148');
    expect(formatStandardError(0.0213)).toBe('0.0213');
    expect(formatStandardError(0.15)).toBe('0.150');
    expect(formatStandardError(2.5e-7)).toBe('2.50e-7');
    expect(formatStandardError(1234.5)).toBe('1230');
    expect(formatStandardError(null)).toBe('—');
  });

  it('nbr only where it differs from brier', () => {
    expect(standardErrorMetrics({ accuracy: 0.01, brier: 0.006, nbr: 0.006 })).toEqual(['accuracy', 'brier']);
    expect(standardErrorMetrics({ brier: 0.006, nbr: 0.003 })).toEqual(['brier', 'nbr']);
    // Clustered figures that differ keep it too.
    expect(standardErrorMetrics({ brier: 0.006, nbr: 0.006 }, { brier: 0.01, nbr: 0.005 })).toEqual(['brier', 'nbr']);
  });

  it.skipIf(!existsSync('/usr/bin/python3'))('on a folktexts file: the SEs numpy gives, to three significant figures, and no nbr row', () => {
    const report = scorePath(FILE).reports[0];
    const { head, rows } = standardErrorRows(report);
    expect(head).toEqual(['metric', 'SE']);
    expect(rows.map((r) => r[0])).toEqual(['accuracy', 'brier', 'log_loss']);
    const numpy = JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import json, sys, numpy as np, pandas as pd
d = pd.read_csv(sys.argv[1]); s = d["risk_score"].to_numpy(float); y = d["label"].to_numpy(float)
p = np.clip(s, 1e-15, 1 - 1e-15)
terms = {"accuracy": ((s >= 0.5) == (y == 1)).astype(float), "brier": (s - y) ** 2, "log_loss": -(y * np.log(p) + (1 - y) * np.log(1 - p))}
print(json.dumps({k: "%.3g" % (v.std(ddof=1) / np.sqrt(len(v))) for k, v in terms.items()}))`, FILE], { encoding: 'utf8' }));
    for (const [metric, text] of rows) {
      expect(Number(text), metric).toBe(Number(numpy[metric]));
      expect(text.replace(/^0\.0*/, ''), `${metric}: ${text}`).toMatch(/^\d{3}$/);
    }
  });
});
