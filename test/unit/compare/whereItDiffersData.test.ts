// Issue 28.4: "Where it differs" in VS Code reads the baseline's joined data file (as
// `compare --slices auto --data` does), never tests empty cells as a slice ("SEX ="), and says why
// when it finds nothing to slice by. compareJob is the worker's compare job the panel runs.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareJob } from '../../../src/extension/worker/compareJob';

/** Baseline and candidate risk scores (no column to slice by), and a data file with SEX, some empty. */
function workspace(): { base: string; cand: string; data: string } {
  const dir = mkdtempSync(join(tmpdir(), 'where-data-'));
  const b = [',risk_score,label'];
  const c = [',risk_score,label'];
  const d = [',SEX,AGEP'];
  for (let i = 0; i < 800; i++) {
    const id = 1000 + i;
    const y = i % 2;
    const sex = i % 10 === 0 ? '' : i % 3 === 0 ? '2' : '1';
    // The baseline is right everywhere; the candidate is wrong on most SEX = 2 rows.
    const good = y ? 0.8 : 0.2;
    b.push(`${id},${good},${y}`);
    c.push(`${id},${sex === '2' && i % 4 !== 0 ? 1 - good : good},${y}`);
    d.push(`${id},${sex},${20 + (i % 50)}`);
  }
  const base = join(dir, 'base.test_predictions.csv');
  const cand = join(dir, 'cand.test_predictions.csv');
  const data = join(dir, 'data.csv');
  writeFileSync(base, b.join('\n') + '\n');
  writeFileSync(cand, c.join('\n') + '\n');
  writeFileSync(data, d.join('\n') + '\n');
  return { base, cand, data };
}

describe('Where it differs with a joined data file (28.4)', () => {
  const ws = workspace();

  it('finds the regressed slice in the data file\'s column, and no "SEX =" slice', () => {
    const view = compareJob([ws.base, ws.cand], { bootstrap: 100, listColumns: { dataPath: ws.data } }, () => {});
    const slices = view.comparison.slices ?? [];
    const sex2 = slices.find((s) => s.column === 'SEX' && s.value === '2');
    expect(sex2, JSON.stringify(slices.map((s) => `${s.column}=${s.value}`))).toBeDefined();
    expect(sex2!.delta!).toBeLessThan(0);
    expect(sex2!.p_holm!).toBeLessThan(0.05);
    expect(slices.some((s) => s.column === 'SEX' && s.value === '')).toBe(false);
    // The aligned instances carry each row's slice for the page's filter: the empty cell has none.
    const labels = view.pairs[0].rows.map((r) => r.slices?.[view.pairs[0].sliceColumns!.indexOf('SEX')]);
    expect(labels.filter((v) => v === '').length).toBe(0);
  });

  it('without a data file it says why there is nothing to slice by', () => {
    const view = compareJob([ws.base, ws.cand], { bootstrap: 100 }, () => {});
    expect(view.comparison.slices ?? []).toEqual([]);
    expect(view.comparison.slices_note).toMatch(/no column of base\.test_predictions\.csv has few enough values.*Join data file/);
  });
});
