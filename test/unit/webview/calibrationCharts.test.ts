// Issue 19's chart data: the smoothed reliability diagram's datasets (curve with gaps, band filled
// between its edges, density on its own axis), its numbers table, the per-class ECE bars, and the
// band travelling with the intervals message to the panel.
import { describe, expect, it } from 'vitest';
import { classEceConfig } from '../../../src/charts/classes';
import { smoothReliabilityConfig, smoothTableRows } from '../../../src/charts/smoothReliability';
import { printPalette } from '../../../src/cli/render';
import { reportIntervals, withIntervals } from '../../../src/extension/report/panelModel';
import { buildReport, resolveOptions } from '../../../src/core/report';
import { mulberry32 } from '../../../src/core/metrics/bootstrap';
import type { ClassStats, ParseResult, Report } from '../../../src/core/types';

function report(bootstrap: number): Report {
  const rand = mulberry32(5);
  const n = 600;
  const score = new Float64Array(n);
  const label = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    score[i] = rand() * 0.7; // nothing above 0.7: the curve is null near t = 1
    label[i] = rand() < score[i] ? 1 : 0;
  }
  const parsed: ParseResult = { format: 'generic', set: { kind: 'binary', n, lines: Uint32Array.from(score, (_, i) => i + 2), score, label }, problems: [], skipped: 0, unlabeled: 0 };
  return buildReport('x.csv', parsed, resolveOptions({ bootstrap, seed: 1, instances: false }));
}

const palette = printPalette('light', 1200);

describe('smoothReliabilityConfig', () => {
  const r = report(40);
  const s = r.smoothReliability!;
  const config = smoothReliabilityConfig([{ label: 'x', smooth: s }], { kind: 'binary', palette });
  const sets = config.data.datasets as { label: string; data: { x: number; y: number | null }[]; fill?: unknown; yAxisID?: string }[];

  it('one run: band (lower, upper filled to it), density on the right axis, the curve, the diagonal', () => {
    expect(sets.map((d) => d.label)).toEqual([
      '95% band, lower', '95% bootstrap band (40 resamples)', 'Density of scores (right axis)',
      `Smoothed curve (smECE ${s.smece.toFixed(3)} = bandwidth σ*)`, 'Perfect calibration',
    ]);
    expect(sets[1].fill).toBe(0);
    expect(sets[2].yAxisID).toBe('density');
    expect(sets[2].fill).toBe('origin');
    // The density takes the bottom fifth: its axis runs to at least 5 times its largest value.
    const max = Math.max(...s.density);
    expect((config.options!.scales as Record<string, { max?: number }>).density.max).toBeGreaterThanOrEqual(5 * max);
  });

  it('keeps the curve\'s nulls as gaps (no rows near t = 1), every t in order', () => {
    const curve = sets[3].data;
    expect(curve.map((p) => p.x)).toEqual(s.t);
    expect(curve[256].y).toBeNull();
    expect(curve[64].y).toBeCloseTo(s.curve[64]!, 15);
  });

  it('several runs: a curve each in its own colour, one legend line for the shading', () => {
    const two = smoothReliabilityConfig([{ label: 'a', smooth: s }, { label: 'b', smooth: s }], { kind: 'binary', palette, colors: ['#111111', '#222222'] });
    const labels = (two.data.datasets as { label: string; borderColor?: string }[]);
    expect(labels.filter((d) => d.label.includes('(smECE')).map((d) => [d.label.slice(0, 1), d.borderColor])).toEqual([['a', '#111111'], ['b', '#222222']]);
    expect(labels.some((d) => d.label === 'Shaded: 95% bands; bottom: densities')).toBe(true);
  });

  it('the numbers table: t every 1/32 with the curve, band and density', () => {
    const rows = smoothTableRows(s);
    expect(rows).toHaveLength(33);
    expect(rows[16]).toEqual({ t: 0.5, curve: s.curve[128], lower: s.lower![128], upper: s.upper![128], density: s.density[128] });
  });
});

describe('the band reaches the panel with the intervals', () => {
  it('reportIntervals carries lower, upper and resamples; withIntervals puts them on the quick report', () => {
    const quick = report(0);
    const full = report(30);
    expect(quick.smoothReliability!.lower).toBeUndefined();
    const [message] = reportIntervals([full]);
    expect(message.smoothBand?.resamples).toBe(30);
    const merged = withIntervals(quick, message);
    expect(merged.smoothReliability!.lower).toEqual(full.smoothReliability!.lower);
    expect(merged.smoothReliability!.curve).toEqual(quick.smoothReliability!.curve);
  });
});

describe('classEceConfig', () => {
  it('a bar per class (null: none) and the mean as a dashed line named with its value', () => {
    const stats = { classes: ['a', 'b', 'c'], ece: [0.1, null, 0.3], support: [3, 4, 5], f1: [], precision: [], recall: [] } as unknown as ClassStats;
    const config = classEceConfig(stats, palette, 0.2);
    const sets = config.data.datasets as { label: string; data: (number | null)[] }[];
    expect(sets[0]).toMatchObject({ label: 'ECE of the class', data: [0.1, null, 0.3] });
    expect(sets[1]).toMatchObject({ label: 'Mean over classes (ece_classwise 0.200)', data: [0.2, 0.2, 0.2] });
  });
});
