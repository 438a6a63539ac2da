// --json carries the calibration views the panel draws (issue 19): the smoothed reliability curve
// with its bootstrap band, each group's curve, and every bin's Wilson interval of its target.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { toJson } from '../../../src/documents/json';
import { scoreInput } from '../../../src/core/score';
import { textInput } from '../../../src/core/formats/context';

const root = join(__dirname, '..', '..', '..');
const folktexts = join(root, 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');

type Smooth = { sigma: number; smece: number; t: number[]; curve: (number | null)[]; density: number[]; lower?: (number | null)[]; upper?: (number | null)[]; resamples?: number };
type Bin = { count: number; targetInterval?: [number, number] | null };

describe('--json: smoothed reliability and bin intervals', () => {
  it('carries smoothReliability (sigma, smece, 257 points, density, band) beside the bins, each with its targetInterval', async () => {
    const out = await runCli(['score', '--json', '--bootstrap', '50', folktexts]);
    expect(out.code).toBe(0);
    const r = JSON.parse(out.stdout).results[0] as { metrics: Record<string, number>; bins: Record<string, Bin[]>; smoothReliability: Smooth };
    const s = r.smoothReliability;
    expect(s).toBeDefined();
    expect(s.sigma).toBeCloseTo(r.metrics.smece_sigma, 12);
    expect(s.smece).toBeCloseTo(r.metrics.smece, 12);
    expect(s.t).toHaveLength(257);
    expect(s.curve).toHaveLength(257);
    expect(s.density).toHaveLength(257);
    expect(s.lower).toHaveLength(257);
    expect(s.upper).toHaveLength(257);
    expect(s.resamples).toBe(50);
    for (const key of ['equalWidth', 'equalCount']) {
      for (const b of r.bins[key]) {
        if (b.count === 0) continue;
        expect(b.targetInterval).toHaveLength(2);
        expect(b.targetInterval![0]).toBeLessThanOrEqual(b.targetInterval![1]);
      }
    }
  });

  it('gives each group its own smoothed curve', () => {
    const rows = Array.from({ length: 80 }, (_, i) => `${i},${((i * 37) % 100) / 100},${i % 3 === 0 ? 1 : 0},${i % 2 ? 'b' : 'a'}`);
    const r = scoreInput(textInput('/tmp/G.ACSIncome.test_predictions.csv', [',risk_score,label,g', ...rows].join('\n') + '\n'), { groupBy: { column: 'g' } } as never);
    const doc = JSON.parse(JSON.stringify(toJson([r], {} as never))) as { results: { groups: { groups: { smoothReliability?: Smooth }[] }; smoothReliability?: Smooth }[] };
    expect(doc.results[0].smoothReliability?.curve).toHaveLength(257);
    for (const g of doc.results[0].groups.groups) expect(g.smoothReliability?.t).toHaveLength(257);
  });
});
