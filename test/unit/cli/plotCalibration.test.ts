// `eval-lens plot` and issue 19: --chart smooth-reliability (the kernel-smoothed curve, its 95%
// bootstrap band, the density of scores, the diagonal; several files overlaid) and the Wilson error
// bars of the binned diagrams. PNG decoded with zlib (test/support/png), SVG parsed by Python.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { chartConfig, overlayConfig } from '../../../src/cli/plot';
import { printPalette, renderChart } from '../../../src/cli/render';
import { parseColor } from '../../../src/charts/palette';
import { scorePath } from '../../../src/core/score';
import { decodePng, type DecodedPng } from '../../support/png';

const root = join(__dirname, '..', '..', '..');
const mistral = join(root, 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');
const llama = join(root, 'examples', 'folktexts', 'Llama-3-8B-sim__ACSIncome__-1', 'Llama-3-8B-sim__ACSIncome__-1.test_predictions.csv');
const out = mkdtempSync(join(tmpdir(), 'eval-lens-plot-calibration-'));

type Rgb = [number, number, number];
const rgb = (c: string): Rgb => parseColor(c)!.slice(0, 3) as Rgb;
const over = (c: Rgb, alpha: number, paper: Rgb = [255, 255, 255]): Rgb => c.map((v, k) => Math.round(paper[k] + (v - paper[k]) * alpha)) as Rgb;
const near = (p: Rgb, q: Rgb, tol: number) => p.every((v, k) => Math.abs(v - q[k]) <= tol);
function pixel(img: DecodedPng, x: number, y: number): Rgb {
  const i = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]];
}
/** Pixels of `color` (within tol) inside a box. */
function countIn(img: DecodedPng, box: { left: number; top: number; right: number; bottom: number }, color: Rgb, tol = 6): number {
  let n = 0;
  for (let y = Math.ceil(box.top); y < box.bottom; y++) for (let x = Math.ceil(box.left); x < box.right; x++) if (near(pixel(img, x, y), color, tol)) n++;
  return n;
}

describe('plot --chart smooth-reliability', () => {
  it('draws the curve, its band (200 resamples by default) and the density in the bottom fifth', async () => {
    const report = scorePath(mistral, { bins: 10, bootstrap: 200 }).reports[0];
    const s = report.smoothReliability!;
    expect(s.lower).toHaveLength(257);
    const palette = printPalette('light', 1200);
    const figure = await renderChart(chartConfig('smooth-reliability', report, palette, 'width'), palette, { width: 1200, height: 800 }, 'png');
    const img = decodePng(figure.bytes);
    const area = figure.chartArea;
    const blue = rgb(palette.blue);
    const yAt = (v: number) => area.bottom - v * (area.bottom - area.top);
    const xAt = (t: number) => area.left + t * (area.right - area.left);
    // The curve in the palette's blue where it is defined (at t = 0.3, 0.5, 0.7: within 3 px).
    for (const q of [77, 128, 179]) {
      const hit = [-3, -2, -1, 0, 1, 2, 3].some((d) => near(pixel(img, xAt(s.t[q]), yAt(s.curve[q]!) + d), blue, 40));
      expect(hit, `curve at t=${s.t[q]}`).toBe(true);
    }
    // The band: blue at 22% over white, between the curve and the band's edge.
    const band = over(blue, 0.22);
    const q = 128;
    const inBand = yAt((s.upper![q]! + s.curve[q]!) / 2);
    expect(near(pixel(img, xAt(s.t[q]), inBand), band, 12), `band at t=0.5: ${pixel(img, xAt(s.t[q]), inBand)} vs ${band}`).toBe(true);
    // The density: blue at 25% at the foot of the plot where scores are dense (near t = 1), nothing in the top four fifths.
    expect(countIn(img, { left: xAt(0.9), top: yAt(0.1), right: xAt(0.98), bottom: yAt(0.02) }, over(blue, 0.25), 12)).toBeGreaterThan(100);
  });

  it.skipIf(!existsSync('/usr/bin/python3'))('writes an SVG with the curve, band, density and diagonal named, and filled shapes', async () => {
    const svg = join(out, 'smooth.svg');
    const result = await runCli(['plot', mistral, '--chart', 'smooth-reliability', '--bootstrap', '50', '--out', svg]);
    expect(result.stderr).toContain('(smooth-reliability, 1200×800, SVG)');
    const script = `
import json, sys
from xml.dom import minidom
doc = minidom.parse(sys.argv[1])
texts = [''.join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE) for t in doc.getElementsByTagName('text')]
fills = [p.getAttribute('fill') for p in doc.getElementsByTagName('path')]
print(json.dumps({"texts": texts, "filled": len([f for f in fills if f and f != 'none'])}))`;
    const parsed = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, svg], { encoding: 'utf8' }));
    const words = parsed.texts.join(' ');
    for (const w of ['Smoothed curve (smECE', '95% bootstrap band (50 resamples)', 'Density of scores (right axis)', 'Perfect calibration', 'Risk score', 'Smoothed fraction positive', 'Density']) expect(words, w).toContain(w);
    // The band and the density are filled areas (the Filler plugin), replayed into the SVG.
    expect(parsed.filled).toBeGreaterThanOrEqual(2);
  });

  it('overlays several files: one legend entry a run, each in its own colour', async () => {
    const reports = [mistral, llama].map((p) => scorePath(p, { bins: 10, bootstrap: 50 }).reports[0]);
    const palette = printPalette('light', 1200);
    const config = overlayConfig('smooth-reliability', reports, palette, 'width');
    const labels = (config.data.datasets as { label?: string }[]).map((d) => d.label ?? '');
    expect(labels.filter((l) => l.includes('(smECE '))).toHaveLength(2);
    expect(labels.some((l) => l.startsWith('Mistral-7B'))).toBe(true);
    const png = join(out, 'overlay.png');
    const result = await runCli(['plot', mistral, llama, '--chart', 'smooth-reliability', '--bootstrap', '50', '--out', png]);
    expect(result.code).toBe(0);
    const img = decodePng(readFileSync(png));
    const whole = { left: 0, top: 0, right: img.width, bottom: img.height };
    expect(countIn(img, whole, rgb(palette.blue), 30)).toBeGreaterThan(500);
    expect(countIn(img, whole, rgb(palette.orange), 30)).toBeGreaterThan(500);
  });

  it('says why a file without confidences cannot give it', async () => {
    const almanacs = join(root, 'examples', 'almanacs', 'moral_dilemmas.predictions.jsonl');
    const result = await runCli(['plot', almanacs, '--chart', 'smooth-reliability', '--out', join(out, 'never.png')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the smoothed reliability diagram needs a confidence or a risk score for each answer');
  });
});

describe('plot: error bars on the binned reliability diagram', () => {
  it("draws each bin's Wilson 95% interval as a vertical bar in the foreground colour", async () => {
    const report = scorePath(mistral, { bins: 10 }).reports[0];
    const palette = printPalette('light', 1200);
    const figure = await renderChart(chartConfig('reliability', report, palette, 'width'), palette, { width: 1200, height: 800 }, 'png');
    const img = decodePng(figure.bytes);
    const area = figure.chartArea;
    const fg = rgb(palette.foreground);
    const bins = report.bins!.equalWidth.filter((b) => b.count > 0 && b.targetInterval && b.targetInterval[1] - b.targetInterval[0] > 0.05);
    expect(bins.length).toBeGreaterThan(5);
    for (const b of bins) {
      const x = area.left + b.meanValue! * (area.right - area.left);
      const [lo, hi] = b.targetInterval!;
      let hit = 0;
      const steps = 20;
      for (let k = 0; k <= steps; k++) {
        const v = lo + ((hi - lo) * k) / steps;
        const y = area.bottom - v * (area.bottom - area.top);
        if ([-1, 0, 1].some((d) => near(pixel(img, x + d, y), fg, 40))) hit++;
      }
      expect(hit / (steps + 1), `bin ${b.lo}-${b.hi}`).toBeGreaterThan(0.7);
    }
  });

  it('overlays: each run its own bars, named in the tooltip data', () => {
    const reports = [mistral, llama].map((p) => scorePath(p, { bins: 10 }).reports[0]);
    const config = overlayConfig('reliability', reports, printPalette('light', 1200), 'width');
    expect((config.plugins ?? []).map((p) => p.id)).toContain('binErrorBars');
  });
});
