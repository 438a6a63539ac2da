// Issue 28, point 12: what the charts let a reader see. The histogram's wrong answers stay visible
// beside a tall bar and are told apart by a hatch, not by colour alone; its bin edges are written by
// one rule; the smoothed diagram's density axis has evenly spaced ticks up to its top. Drawn by
// Chart.js on the CLI's canvas (as `eval-lens plot` does), the PNG decoded by test/support/png.
import { describe, expect, it } from 'vitest';
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import { confidenceHistogramConfig, histogramLabels, MIN_INCORRECT_PX } from '../../../src/charts/histogram';
import { densityAxis, smoothReliabilityConfig } from '../../../src/charts/smoothReliability';
import { parseColor } from '../../../src/charts/palette';
import { confidenceHistogram } from '../../../src/common/chartData';
import { printPalette, renderChart } from '../../../src/cli/render';
import type { SmoothReliability } from '../../../src/core/types';
import { decodePng, type DecodedPng } from '../../support/png';

const palette = printPalette('light', 800);
type Rgb = [number, number, number];
const rgb = (c: string): Rgb => parseColor(c)!.slice(0, 3) as Rgb;
const near = (p: Rgb, q: Rgb, tol: number) => p.every((v, k) => Math.abs(v - q[k]) <= tol);
function pixel(img: DecodedPng, x: number, y: number): Rgb {
  const i = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]];
}

/** Draws `config` with a plugin that hands the live chart to `seen` once it is drawn. */
async function draw(config: ChartConfiguration, seen: (chart: Chart) => void): Promise<DecodedPng> {
  const spy: Plugin = { id: 'spy', afterDraw: (chart) => seen(chart) };
  const figure = await renderChart({ ...config, plugins: [...(config.plugins ?? []), spy] } as ChartConfiguration, palette, { width: 800, height: 500 }, 'png');
  return decodePng(figure.bytes);
}

describe('the confidence histogram', () => {
  it('writes its 20 bin edges on [0.5, 1] with one rule: 0.625 and 0.725 as they are', () => {
    const h = confidenceHistogram(Float64Array.from([0.6, 0.9]), Uint8Array.from([1, 0]), 20, 0.5);
    const labels = histogramLabels(h.edges);
    expect(labels[5]).toBe('0.625–0.650');
    expect(labels[9]).toBe('0.725–0.750');
    expect(labels[0]).toBe('0.500–0.525');
    expect(labels.every((l) => /^\d\.\d{3}–\d\.\d{3}$/.test(l))).toBe(true);
    // Edges that two decimals write exactly keep two.
    expect(histogramLabels([0.5, 0.6, 0.7])).toEqual(['0.50–0.60', '0.60–0.70']);
    expect(confidenceHistogramConfig(h, palette).data.labels).toEqual(labels);
  });

  it('shows 30 wrong answers on top of 5,330 right ones, hatched, and no segment where there are none', async () => {
    const histogram = { edges: [0.5, 0.75, 1], correct: [5330, 400], incorrect: [30, 0] };
    let bars: { x: number; width: number; y: number; base: number }[] = [];
    const img = await draw(confidenceHistogramConfig(histogram, palette) as ChartConfiguration, (chart) => {
      bars = chart.getDatasetMeta(0).data.map((b) => b.getProps(['x', 'width', 'y', 'base'], true) as never);
    });
    // Red (the fill over white, or the border) in the column above the tall green bar's top: the
    // palette's red is red-dominated, and stays so blended on white.
    const red = rgb(palette.red);
    expect(red[0] - red[1]).toBeGreaterThan(60);
    const redRows = (b: { x: number; width: number; y: number }) => {
      let rows = 0;
      for (let y = Math.max(0, Math.floor(b.y - 3 * MIN_INCORRECT_PX)); y <= b.y; y++) {
        let hits = 0;
        for (let x = Math.ceil(b.x - b.width / 2) + 2; x < b.x + b.width / 2 - 2; x++) {
          const p = pixel(img, x, y);
          // Red-dominated: the fill blended on white, or the border.
          if (p[0] > 150 && p[0] - p[1] > 60 && p[0] - p[2] > 60) hits++;
        }
        if (hits > b.width / 4) rows++;
      }
      return rows;
    };
    expect(redRows(bars[0]), 'rows of red above the 5,330 bar').toBeGreaterThanOrEqual(MIN_INCORRECT_PX - 1);
    expect(redRows(bars[1]), 'no wrong answers in the second bin: no red').toBe(0);
    // The hatch: the page's background (white) crossing the red segment.
    const top = bars[0].y - MIN_INCORRECT_PX;
    let white = 0;
    for (let y = Math.ceil(top) + 1; y < bars[0].y - 1; y++) {
      for (let x = Math.ceil(bars[0].x - bars[0].width / 2) + 2; x < bars[0].x + bars[0].width / 2 - 2; x++) if (near(pixel(img, x, y), [255, 255, 255], 40)) white++;
    }
    expect(white, 'hatch lines inside the wrong answers\' segment').toBeGreaterThan(0);
  });

  it('the legend says how the two are told apart', () => {
    const config = confidenceHistogramConfig({ edges: [0.5, 1], correct: [1], incorrect: [1] }, palette);
    expect(config.data.datasets.map((d) => d.label)).toEqual(['✓ correct (plain)', '✗ incorrect (hatched)']);
  });
});

describe('the smoothed diagram\'s density axis', () => {
  it('rounds its top up to a multiple of a round step', () => {
    expect(densityAxis(17.2)).toEqual({ max: 100, stepSize: 20 });
    expect(densityAxis(3)).toEqual({ max: 15, stepSize: 5 });
    expect(densityAxis(0.9)).toEqual({ max: 5, stepSize: 1 });
    for (const d of [0.013, 0.2, 1, 1.7, 4.4, 9.99, 17.2, 123]) {
      const { max, stepSize } = densityAxis(d);
      expect(max).toBeGreaterThanOrEqual(d / 0.2 - 1e-9);
      expect(Math.abs(max / stepSize - Math.round(max / stepSize))).toBeLessThan(1e-9);
      expect(max / stepSize).toBeLessThanOrEqual(6);
    }
  });

  it('draws evenly spaced ticks up to the top (no crowded "80", "86")', async () => {
    // A density peaking at 17.2 (the axis' raw top 86).
    const t = Array.from({ length: 257 }, (_, q) => q / 256);
    const smooth: SmoothReliability = {
      sigma: 0.05, smece: 0.02, t, curve: t.map((x) => x), density: t.map((x) => 17.2 * Math.exp(-((x - 0.9) ** 2) / 0.002)),
    } as SmoothReliability;
    let ticks: number[] = [];
    await draw(smoothReliabilityConfig([{ label: 'x', smooth }], { kind: 'binary', palette }) as ChartConfiguration, (chart) => {
      ticks = chart.scales.density.ticks.map((k) => k.value);
    });
    expect(ticks.length).toBeGreaterThan(2);
    const steps = ticks.slice(1).map((v, k) => v - ticks[k]);
    for (const s of steps) expect(s).toBeCloseTo(steps[0], 9);
    expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(86);
  });
});
