// The panel's "CSV of the instance table, as filtered": Python's csv module reads back exactly the
// rows the table keeps (incorrect only, here), with the lines and scores of the source file.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { textInput } from '../../../src/core/formats/context';
import { scoreInput } from '../../../src/core/score';
import { instanceCsv } from '../../../webview/report/exportControls';
import { filterRows, NO_FILTER } from '../../../webview/report/tableModel';

describe('instance table CSV', () => {
  it.skipIf(!existsSync('/usr/bin/python3'))('holds the filtered rows, one per instance, read back by Python', () => {
    // Rows 2..7 of the file; the incorrect ones (threshold 0.5) are 0.7/0 (line 3), 0.2/1 (line 5) and 0.55/0 (line 7).
    const text = ',risk_score,label\n0,0.9,1\n1,0.7,0\n2,0.1,0\n3,0.2,1\n4,0.8,1\n5,0.55,0\n';
    const report = scoreInput(textInput('/tmp/x.test_predictions.csv', text));
    const rows = filterRows(report, null, { ...NO_FILTER, correctness: 'incorrect' }, 'equalWidth');
    const csv = instanceCsv(report, rows, 'equalWidth');
    const parsed: Record<string, string>[] = JSON.parse(execFileSync('/usr/bin/python3', ['-c',
      'import csv, json, sys; print(json.dumps(list(csv.DictReader(sys.stdin))))'], { input: csv, encoding: 'utf8' }));
    expect(parsed.map((r) => r.line)).toEqual(['3', '5', '7']);
    expect(parsed.map((r) => Number(r.score))).toEqual([0.7, 0.2, 0.55]);
    expect(parsed.map((r) => r.label)).toEqual(['0', '1', '0']);
  });
});
