// folktexts files without a joined data file (issue 28, point 7): pandas' unnamed first column is the
// instance ID. The instance table shows it, `id = N` finds the row, and the CSV export has it as the
// `id` column with the file's own values. pandas reads the file and the export independently.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scorePath } from '../../../src/core/score';
import { encodeInstances, InstanceAssembler } from '../../../src/common/instanceCodec';
import { searchIndex, searchRows } from '../../../src/common/instanceSearch';
import type { Report } from '../../../src/core/types';
import { instanceCsv } from '../../../webview/report/exportControls';
import { filterRows, NO_FILTER, sortKeys, tableColumns } from '../../../webview/report/tableModel';

const FILE = join(__dirname, '..', '..', '..', 'examples', 'folktexts', 'Llama-3-8B-sim__ACSIncome__-1', 'Llama-3-8B-sim__ACSIncome__-1.test_predictions.csv');
const python = existsSync('/usr/bin/python3');

/** pandas' reading: the index (the unnamed first column) as the file writes it, in file order. */
function pandasIndex(): string[] {
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c',
    'import json, sys, pandas as pd; d = pd.read_csv(sys.argv[1], dtype=str); print(json.dumps(list(d.iloc[:, 0])))', FILE], { encoding: 'utf8' }));
}

/** The report as the page gets it: through the instance codec. */
function asThePageGetsIt(report: Report): Report {
  const payload = encodeInstances({ instances: report.instances!, threshold: report.options.threshold }, 1 << 16);
  const asm = new InstanceAssembler(structuredClone(payload.scheme));
  for (const p of payload.pages) asm.add(structuredClone(p));
  return { ...report, instances: asm.decode().instances };
}

describe('a folktexts file without a data file', () => {
  const report = scorePath(FILE).reports[0];
  const lines = readFileSync(FILE, 'utf8').trimEnd().split('\n');

  it.skipIf(!python)('has the index as the table\'s id column, in the report and as the page gets it', () => {
    const expected = pandasIndex();
    expect(expected.length).toBe(report.n);
    for (const r of [report, asThePageGetsIt(report)]) {
      expect(tableColumns(r).map((c) => c.key)).toContain('id');
      const csv = instanceCsv(r, filterRows(r, null, NO_FILTER, 'equalWidth'), 'equalWidth');
      const ids = JSON.parse(execFileSync('/usr/bin/python3', ['-c',
        'import io, json, sys, pandas as pd; d = pd.read_csv(io.StringIO(sys.stdin.read()), dtype=str); print(json.dumps(list(d["id"])))'], { input: csv, encoding: 'utf8' }));
      expect(ids).toEqual(expected);
    }
  });

  it('finds a row by `id = N`, and only that row', () => {
    // Line 40 of the file, read here with a split, not by the parser.
    const id = lines[39].split(',')[0];
    expect(id).toMatch(/^\d+$/);
    for (const r of [report, asThePageGetsIt(report)]) {
      const found = searchRows(searchIndex(r)!, `id = ${id}`);
      if ('error' in found) throw new Error(found.error);
      expect(found.count).toBe(1);
      const row = found.mask.indexOf(1);
      expect(r.instances!.lines[row]).toBe(40);
      // Plain text finds it too.
      const text = searchRows(searchIndex(r)!, id);
      if ('error' in text) throw new Error(text.error);
      expect(text.mask[row]).toBe(1);
    }
  });

  it('sorts the id column by number', () => {
    const keys = sortKeys(report, 'id', 'equalWidth')!;
    expect(Array.from(keys.slice(0, 3))).toEqual(lines.slice(1, 4).map((l) => Number(l.split(',')[0])));
  });
});
