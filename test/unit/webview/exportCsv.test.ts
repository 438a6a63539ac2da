// The panel's "CSV of the instance table, as filtered": Python's csv module reads back exactly the
// rows the table keeps (incorrect only; one group's rows), as data: scores at full precision,
// `correct` as 1/0, identifiers for column names.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { textInput } from '../../../src/core/formats/context';
import { scoreInput } from '../../../src/core/score';
import { instanceCsv } from '../../../webview/report/exportControls';
import { groupSlice } from '../../../webview/report/groups';
import { filterRows, NO_FILTER } from '../../../webview/report/tableModel';

const python = (csv: string): Record<string, string>[] => JSON.parse(execFileSync('/usr/bin/python3', ['-c',
  'import csv, json, sys; print(json.dumps(list(csv.DictReader(sys.stdin))))'], { input: csv, encoding: 'utf8' }));

describe('instance table CSV', () => {
  it.skipIf(!existsSync('/usr/bin/python3'))('holds the filtered rows, one per instance, read back by Python', () => {
    // Rows 2..7 of the file; the incorrect ones (threshold 0.5) are 0.7/0 (line 3), 0.2/1 (line 5) and 0.55/0 (line 7).
    const text = ',risk_score,label\n0,0.9,1\n1,0.7,0\n2,0.1,0\n3,0.2,1\n4,0.8,1\n5,0.55,0\n';
    const report = scoreInput(textInput('/tmp/x.test_predictions.csv', text));
    const rows = filterRows(report, null, { ...NO_FILTER, correctness: 'incorrect' }, 'equalWidth');
    const csv = instanceCsv(report, rows, 'equalWidth');
    const parsed = python(csv);
    expect(parsed.map((r) => r.line)).toEqual(['3', '5', '7']);
    expect(parsed.map((r) => Number(r.score))).toEqual([0.7, 0.2, 0.55]);
    expect(parsed.map((r) => r.label)).toEqual(['0', '1', '0']);
  });

  it.skipIf(!existsSync('/usr/bin/python3'))('is data: full precision, correct as 1/0, names without spaces or #', () => {
    const scores = [0.0027795189630401957, 0.9999999999999999, 0.1 + 0.2, 1e-7, 0.5];
    const labels = [0, 1, 1, 0, 0];
    const text = ',risk_score,label\n' + scores.map((s, i) => `${i},${s},${labels[i]}`).join('\n') + '\n';
    const report = scoreInput(textInput('/tmp/p.test_predictions.csv', text));
    const csv = instanceCsv(report, filterRows(report, null, NO_FILTER, 'equalWidth'), 'equalWidth');
    const parsed = python(csv);
    // The unnamed pandas index is the ID (issue 28, point 7).
    expect(Object.keys(parsed[0])).toEqual(['row', 'line', 'id', 'score', 'label', 'pred', 'confidence', 'correct', 'bin', 'brier']);
    expect(parsed.map((r) => r.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(parsed.map((r) => r.correct)).toEqual(['1', '1', '0', '1', '0']);
    expect(parsed.map((r) => r.score)).toEqual(scores.map(String));
    expect(parsed.map((r) => Number(r.score))).toEqual(scores);
    expect(parsed.map((r) => r.brier)).toEqual(scores.map((s, i) => String((s - labels[i]) ** 2)));
    expect(parsed.map((r) => r.line)).toEqual(['2', '3', '4', '5', '6']);
  });

  it('of a binary file has correct as 1 / 0 where the table shows ✓ / ✗', () => {
    const text = 'id,score,label\na,0.9,1\nb,0.7,0\nc,0.123456789012345,0\n';
    const report = scoreInput(textInput('/tmp/q.csv', text), { kind: 'binary' } as never);
    const csv = instanceCsv(report, filterRows(report, null, NO_FILTER, 'equalWidth'), 'equalWidth');
    const [head, ...rows] = csv.trimEnd().split('\r\n').map((l) => l.split(','));
    const col = (name: string) => rows.map((r) => r[head.indexOf(name)]);
    if (head.includes('correct')) expect(col('correct')).toEqual(['1', '0', '1']);
    expect(csv).not.toMatch(/[✓✗—]/);
    expect(col('score')).toContain('0.123456789012345');
  });

  it('of a selected group holds that group\'s rows, not the file\'s first rows', () => {
    // Group by the file's own column "g": rows of group "b" are lines 3, 5 and 7.
    const text = ',risk_score,label,g\n10,0.9,1,a\n11,0.7,0,b\n12,0.1,0,a\n13,0.2,1,b\n14,0.8,1,a\n15,0.55,0,b\n';
    const whole = scoreInput(textInput('/tmp/g.test_predictions.csv', text), { groupBy: { column: 'g' } } as never);
    const groups = whole.groups!;
    expect(groups).toBeTruthy();
    const k = groups.groups.findIndex((s) => s.value === 'b');
    const slice = groupSlice(whole, k);
    const csv = instanceCsv(slice, filterRows(slice, null, NO_FILTER, 'equalWidth'), 'equalWidth');
    const [head, ...rows] = csv.trimEnd().split('\r\n').map((l) => l.split(','));
    expect(rows.map((r) => r[head.indexOf('score')])).toEqual(['0.7', '0.2', '0.55']);
    expect(rows.map((r) => r[head.indexOf('line')])).toEqual(['3', '5', '7']);
  });
});
