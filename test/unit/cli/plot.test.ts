// `eval-lens plot`: PNG decoded here with zlib (not by the library that drew it), at the size asked,
// drawn (many colours, the palette's bars, the diagonal where the axes put it); SVG parsed as XML by
// Python with the chart's elements in it; and every chart that cannot be drawn says why.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { chartConfig, runLabels } from '../../../src/cli/plot';
import { printPalette, renderChart } from '../../../src/cli/render';
import { parseColor } from '../../../src/charts/palette';
import { scorePath } from '../../../src/core/score';
import { decodePng, type DecodedPng as Decoded } from '../../support/png';

const root = join(__dirname, '..', '..', '..');
const folktexts = join(root, 'examples', 'folktexts', 'Mistral-7B-sim__ACSIncome__-1', 'Mistral-7B-sim__ACSIncome__-1.test_predictions.csv');
const almanacs = join(root, 'examples', 'almanacs', 'moral_dilemmas.predictions.jsonl');
const lmEval = join(root, 'test', 'fixtures', 'real', 'lm-eval', 'Qwen__Qwen3-8B', 'samples_negotiationtom_belief_2026-07-08T18-15-33.115417.jsonl');
const out = mkdtempSync(join(tmpdir(), 'eval-lens-plot-'));

function pixel(img: Decoded, x: number, y: number): [number, number, number] {
  const i = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]];
}

const near = (p: [number, number, number], q: [number, number, number], tol: number) => p.every((v, k) => Math.abs(v - q[k]) <= tol);

/** Share of the points along a segment with a pixel of `color` within `reach` pixels across it. */
function coverage(img: Decoded, from: [number, number], to: [number, number], color: [number, number, number], reach = 2): number {
  const steps = Math.round(Math.hypot(to[0] - from[0], to[1] - from[1]));
  let hit = 0;
  for (let s = 0; s <= steps; s++) {
    const x = from[0] + ((to[0] - from[0]) * s) / steps;
    const y = from[1] + ((to[1] - from[1]) * s) / steps;
    let found = false;
    for (let dx = -reach; dx <= reach && !found; dx++) for (let dy = -reach; dy <= reach && !found; dy++) found = near(pixel(img, x + dx, y + dy), color, 40);
    if (found) hit++;
  }
  return hit / (steps + 1);
}

describe('eval-lens plot: PNG', () => {
  it.each([
    ['reliability', folktexts, 1200, 800],
    ['roc', folktexts, 900, 700],
    ['histogram', folktexts, 1200, 800],
    ['scatter', almanacs, 640, 480],
  ])('draws %s at the size asked, in many colours', async (chart, file, width, height) => {
    const png = join(out, `${chart}.png`);
    const args = ['plot', file, '--chart', chart, '--out', png];
    if (width !== 1200) args.push('--width', String(width), '--height', String(height));
    const result = await runCli(args);
    expect(result.stderr).toContain(`wrote ${png}`);
    expect(result.code).toBe(0);
    const img = decodePng(readFileSync(png));
    expect([img.width, img.height]).toEqual([width, height]);
    const colours = new Set<number>();
    for (let i = 0; i < img.rgba.length; i += 4) colours.add((img.rgba[i] << 16) | (img.rgba[i + 1] << 8) | img.rgba[i + 2]);
    expect(colours.size).toBeGreaterThan(50);
    // Opaque white paper, not a transparent canvas.
    expect([...img.rgba.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
  });

  it('puts the diagonal from the axes\' (0, 0) to (1, 1), the bars in the palette\'s blue, and nothing grey across the other diagonal', async () => {
    const report = scorePath(folktexts, { bins: 10 }).reports[0];
    const palette = printPalette('light', 1200);
    const figure = await renderChart(chartConfig('reliability', report, palette, 'width'), palette, { width: 1200, height: 800 }, 'png');
    const img = decodePng(figure.bytes);
    const { left, top, right, bottom } = figure.chartArea;
    expect(right - left).toBeGreaterThan(800);
    const grey = parseColor(palette.muted)!.slice(0, 3) as [number, number, number];
    // The diagonal is dashed (5 on, 4 off at the palette's scale): over half the length is drawn.
    const along = coverage(img, [left + 4, bottom - 4], [right - 4, top + 4], grey);
    expect(along).toBeGreaterThan(0.45);
    expect(coverage(img, [left + 4, top + 4], [right - 4, bottom - 4], grey)).toBeLessThan(0.1);
    // Bars fill the lower plot: the palette's blue at 30% over white.
    const [r, g, b] = parseColor(palette.blue)!;
    const bar: [number, number, number] = [255 + (r - 255) * 0.3, 255 + (g - 255) * 0.3, 255 + (b - 255) * 0.3].map(Math.round) as [number, number, number];
    expect(coverage(img, [left + 10, bottom - 10], [right - 10, bottom - 10], bar, 0)).toBeGreaterThan(0.5);
  });

  it('draws the dark theme on a dark background', async () => {
    const png = join(out, 'dark.png');
    expect((await runCli(['plot', folktexts, '--chart', 'roc', '--theme', 'dark', '--out', png])).code).toBe(0);
    const img = decodePng(readFileSync(png));
    expect(near(pixel(img, 2, 2), parseColor(printPalette('dark', 1200).background)!.slice(0, 3) as [number, number, number], 1)).toBe(true);
  });
});

describe('eval-lens plot: SVG', () => {
  it.skipIf(!existsSync('/usr/bin/python3'))('writes valid XML with the axes\' titles, the legend and the curve', async () => {
    const svg = join(out, 'reliability.svg');
    const result = await runCli(['plot', folktexts, '--chart', 'reliability', '--binning', 'count', '--out', svg]);
    expect(result.code).toBe(0);
    const script = `
import json, sys
from xml.dom import minidom
doc = minidom.parse(sys.argv[1])
root = doc.documentElement
texts = [''.join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE) for t in doc.getElementsByTagName('text')]
print(json.dumps({"tag": root.tagName, "ns": root.getAttribute('xmlns'), "width": root.getAttribute('width'), "height": root.getAttribute('height'),
  "texts": texts, "paths": len(doc.getElementsByTagName('path')), "rects": len(doc.getElementsByTagName('rect'))}))`;
    const parsed = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, svg], { encoding: 'utf8' }));
    expect(parsed).toMatchObject({ tag: 'svg', ns: 'http://www.w3.org/2000/svg', width: '1200', height: '800' });
    const words = parsed.texts.join(' ');
    for (const w of ['Mean risk score', 'Fraction', 'positive', 'Perfect calibration', 'Bins (fraction positive vs mean risk score)']) expect(words, w).toContain(w);
    for (const tick of ['0', '0.2', '0.4', '0.6', '0.8', '1.0']) expect(parsed.texts.filter((t: string) => t === tick).length, tick).toBe(2);
    // Equal-count bins of 2,000 rows: 200 each, labelled where the bar is wide enough.
    expect(parsed.texts.filter((t: string) => t === 'n=200').length).toBeGreaterThan(2);
    // Grid, bars, gap shading, the curve and the dashed diagonal are paths and rects.
    expect(parsed.paths + parsed.rects).toBeGreaterThan(40);
  });
});

describe('eval-lens plot: what it cannot draw', () => {
  it.each([
    [['--chart', 'roc'], almanacs, 2, 'the ROC curve needs risk scores with 0/1 labels'],
    [['--chart', 'scatter'], folktexts, 2, 'the scatter plots predicted against true probabilities'],
    [['--chart', 'histogram'], almanacs, 2, 'this file can give: reliability, scatter.'],
    [['--chart', 'groups'], folktexts, 1, '--chart groups needs --group-by COL'],
    [['--chart', 'groups', '--group-by', 'sex'], folktexts, 2, 'has no groups: The file has no column "sex" to group by'],
    [['--chart', 'pie'], folktexts, 1, "--chart must be one of reliability, roc, histogram, scatter, groups, smooth-reliability, got 'pie'"],
    [[], folktexts, 1, 'plot needs --chart'],
    [['--chart', 'roc', '--out', 'x.pdf'], folktexts, 1, "--out must end in .png or .svg, got 'x.pdf'"],
    [['--chart', 'roc', '--width', '50'], folktexts, 1, '--width takes a whole number of pixels from 100 to 10000'],
    [['--chart', 'roc', '--theme', 'blue'], folktexts, 1, "--theme must be one of light, dark, got 'blue'"],
    [['--chart', 'roc', '--binning', 'log'], folktexts, 1, "--binning must be one of width, count, got 'log'"],
  ])('%j on %s: exit %i, "%s"', async (args, file, code, message) => {
    const withOut = args.includes('--out') ? args : [...args, '--out', join(out, 'never.png')];
    const result = await runCli(['plot', file, ...withOut]);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    expect(existsSync(join(out, 'never.png'))).toBe(false);
  });

  // Issue 17, point 9: plot reads what score reads, and says in words which charts a file gives.
  it('draws a Parquet table as score reads it (the churn table\'s ROC)', async () => {
    const png = join(out, 'churn-roc.png');
    const result = await runCli(['plot', join(root, 'test', 'fixtures', 'roles', 'churn.parquet'), '--chart', 'roc', '--out', png]);
    expect(result.stderr).toBe(`eval-lens: wrote ${png} (roc, 1200×800, PNG).\n`);
    expect(result.code).toBe(0);
    expect(decodePng(readFileSync(png)).width).toBe(1200);
  });

  it.each([
    ['histogram', 'the confidence histogram needs a confidence for each answer, and epochs10.json holds class predictions without one; this file gives no chart, only its metrics.'],
    ['reliability', 'the reliability diagram needs a confidence or probability for each answer, and epochs10.json holds class predictions without one; this file gives no chart, only its metrics.'],
  ])('an Inspect log without confidences: --chart %s says why in words, with one period', async (chart, sentence) => {
    const log = join(root, 'test', 'fixtures', 'inspect', 'issue17', 'epochs10.json');
    const result = await runCli(['plot', log, '--chart', chart, '--out', join(out, 'never.png')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`eval-lens: cannot draw --chart ${chart}: ${sentence}\n`);
    expect(existsSync(join(out, 'never.png'))).toBe(false);
  });

  it('a Parquet table it cannot score: the roles\' sentence, no internal name, no double period', async () => {
    const result = await runCli(['plot', join(root, 'test', 'fixtures', 'roles', 'ludwig.parquet'), '--chart', 'roc', '--out', join(out, 'never.png')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ludwig.parquet was not scored: No column holds the gold label');
    expect(result.stderr).not.toMatch(/scorePathAsync|scoreFileAsync|internal error|\.\./);
    expect(result.stderr.trimEnd().endsWith('--map label=COLUMN.')).toBe(true);
  });

  it('draws a real lm-eval file\'s reliability diagram (multiple choice: confidence vs accuracy)', async () => {
    const png = join(out, 'lm-eval.png');
    const result = await runCli(['plot', lmEval, '--chart', 'reliability', '--out', png]);
    expect(result.stderr).toContain('wrote');
    expect(decodePng(readFileSync(png)).width).toBe(1200);
  });
});

describe('eval-lens plot: several runs overlaid (compare)', () => {
  /** A folktexts run of 2,000 rows: label ~ Bernoulli(p), score = p pushed towards 0/1 by `sharpen` (1: calibrated). */
  function run(name: string, sharpen: number, seed: number): string {
    let state = seed;
    const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
    const rows = [',risk_score,label'];
    for (let i = 0; i < 2000; i++) {
      const p = 0.02 + 0.96 * random();
      const y = random() < p ? 1 : 0;
      const logit = Math.log(p / (1 - p)) * sharpen;
      rows.push(`${i},${(1 / (1 + Math.exp(-logit))).toFixed(5)},${y}`);
    }
    const dir = join(out, 'runs', name);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${name}.test_predictions.csv`);
    writeFileSync(path, rows.join('\n') + '\n');
    return path;
  }

  it('draws each run in its own colour over one diagonal, named in the legend with its ECE / AUC', async () => {
    const base = run('baseline', 1, 7);
    const cand = run('candidate', 2.5, 11);
    const png = join(out, 'overlay.png');
    expect((await runCli(['plot', base, cand, '--chart', 'reliability', '--out', png])).code).toBe(0);
    const img = decodePng(readFileSync(png));
    const palette = printPalette('light', 1200);
    const count = (hex: string) => {
      const c = parseColor(hex)!;
      let n = 0;
      for (let i = 0; i < img.rgba.length; i += 4) if (Math.abs(img.rgba[i] - c[0]) < 8 && Math.abs(img.rgba[i + 1] - c[1]) < 8 && Math.abs(img.rgba[i + 2] - c[2]) < 8) n++;
      return n;
    };
    // The baseline in the reliability diagram's blue, the candidate in the next run colour (orange).
    expect(count(palette.blue)).toBeGreaterThan(500);
    expect(count(palette.orange)).toBeGreaterThan(500);

    const svg = join(out, 'overlay-roc.svg');
    expect((await runCli(['plot', base, cand, '--chart', 'roc', '--out', svg])).code).toBe(0);
    const text = readFileSync(svg, 'utf8');
    expect(text).toMatch(/>baseline \(AUC 0\.\d{3}\)</);
    expect(text).toMatch(/>candidate \(AUC 0\.\d{3}\)</);
  });

  it('names runs by what tells them apart', () => {
    expect(runLabels(['r/a/gpt.test_predictions.csv', 'r/b/llama.test_predictions.csv'])).toEqual(['gpt', 'llama']);
    expect(runLabels(['runs/gpt/raft/ade/predictions.csv', 'runs/llama/raft/ade/predictions.csv'])).toEqual(['gpt', 'llama']);
    expect(runLabels(['x/p.csv', 'x/p.csv'])).toEqual(['p (1)', 'p (2)']);
    expect(runLabels(['a/' + 'm'.repeat(60) + '-seed1.csv', 'a/' + 'm'.repeat(60) + '-seed2.csv'])).toEqual([`${'m'.repeat(17)}…${'m'.repeat(12)}-seed1`, `${'m'.repeat(17)}…${'m'.repeat(12)}-seed2`]);
  });

  it('overlays reliability (binned or smoothed) and ROC only, and runs of one kind only', async () => {
    const a = await runCli(['plot', folktexts, folktexts, '--chart', 'histogram', '--out', join(out, 'never.png')]);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('several FILEs are overlaid in --chart reliability, smooth-reliability or roc only');
    const b = await runCli(['plot', folktexts, almanacs, '--chart', 'reliability', '--out', join(out, 'never.png')]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('cannot overlay runs of different kinds (binary, probability)');
    expect(existsSync(join(out, 'never.png'))).toBe(false);
  });
});

describe('eval-lens plot --chart groups', () => {
  it('draws every group\'s reliability curve, the worst one named, from a column of the file', async () => {
    // Two groups of 600: F calibrated (score = p), M squeezed into [0.35, 0.95] (score = 0.6 p + 0.35).
    let state = 99;
    const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
    const rows = ['id,score,label,sex'];
    for (let i = 0; i < 1200; i++) {
      const p = random();
      const y = random() < p ? 1 : 0;
      rows.push(`${i},${(i % 2 ? p : 0.6 * p + 0.35).toFixed(4)},${y},${i % 2 ? 'F' : 'M'}`);
    }
    const file = join(out, 'groups.csv');
    writeFileSync(file, rows.join('\n') + '\n');
    const svg = join(out, 'groups.svg');
    const result = await runCli(['plot', file, '--chart', 'groups', '--group-by', 'sex', '--out', svg]);
    expect(result.code).toBe(0);
    const text = readFileSync(svg, 'utf8');
    expect(text).toContain('>F (n = 600)<');
    expect(text).toContain('>M (n = 600) (worst)<');
    const png = join(out, 'groups.png');
    expect((await runCli(['plot', file, '--chart', 'groups', '--group-by', 'sex', '--out', png, '--width', '800', '--height', '600'])).code).toBe(0);
    expect(decodePng(readFileSync(png)).width).toBe(800);
  });
});
