// A chart's words for a screen reader (webview/common/chartTable.ts), read from the very Chart.js
// configurations the pages draw: the histogram's totals by correctness, the ROC curve thinned to
// the table's resolution.
import { describe, expect, it } from 'vitest';
import type { Chart } from '../../../webview/common/charts/common';
import { describeChart, TABLE_POINTS, thin } from '../../../webview/common/chartTable';
import { confidenceHistogramConfig } from '../../../src/charts/histogram';
import { rocConfig } from '../../../src/charts/roc';
import type { Palette } from '../../../src/charts/palette';

const palette = { foreground: '#ccc', background: '#1f1f1f', grid: '#444', green: '#0f0', red: '#f00', blue: '#00f', purple: '#a0f', orange: '#fa0', yellow: '#ff0', highContrast: false, scale: 1 } as unknown as Palette;
const asChart = (config: { type: string; data: unknown; options?: unknown }) => ({ config, data: config.data, options: config.options ?? {} }) as unknown as Chart;

describe('chart descriptions and tables', () => {
  it('says the histogram\'s totals of correct and incorrect instances, in words', () => {
    const histogram = { edges: [0.5, 0.6, 0.7, 0.8, 0.9, 1], correct: [1, 2, 3, 4, 5], incorrect: [5, 4, 3, 2, 1] };
    const text = describeChart(asChart(confidenceHistogramConfig(histogram as never, palette) as never), 'Confidence');
    expect(text).toBe('Confidence. Bar chart of Instances over 5 Top-label confidence categories: ✓ correct (plain) 15 in all; ✗ incorrect (hatched) 15 in all. The numbers are in the data table after the chart.');
  });

  it('names the ROC curve\'s series and point counts; the table keeps at most TABLE_POINTS evenly spaced points', () => {
    const n = 1000;
    const fpr = Float64Array.from({ length: n }, (_, i) => i / (n - 1));
    const tpr = fpr.map((x) => Math.sqrt(x));
    const text = describeChart(asChart(rocConfig({ fpr, tpr, thresholds: new Float64Array(n) } as never, 0.8, palette) as never), 'ROC curve — AUC 0.800');
    expect(text).toMatch(/^ROC curve — AUC 0\.800\. True positive rate against False positive rate: ROC \(AUC 0\.800\), [\d,]+ points; Chance, 2 points\./);
    const points = Array.from({ length: 1500 }, (_, i) => i);
    const kept = thin(points, TABLE_POINTS);
    expect(kept).toHaveLength(TABLE_POINTS);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(1499);
    expect(thin([1, 2, 3], TABLE_POINTS)).toEqual([1, 2, 3]);
  });
});

describe('chart marks keep 3:1 on the background (WCAG 1.4.11)', () => {
  it('mixes a pale theme colour toward the foreground just enough, and leaves a strong one alone', async () => {
    const { contrastRatio, markColor } = await import('../../../webview/common/theme');
    expect(contrastRatio('#d18616', '#ffffff')).toBeLessThan(3); // Light Modern's charts.orange
    const orange = markColor('#d18616', '#ffffff', '#3b3b3b');
    expect(contrastRatio(orange, '#ffffff')).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(orange, '#ffffff')).toBeLessThan(3.6);
    expect(markColor('#3794ff', '#1f1f1f', '#cccccc')).toBe('rgb(55, 148, 255)');
    expect(markColor('rgba(234, 92, 0, 0.33)', '#1f1f1f', '#cccccc')).toBe('rgb(234, 92, 0)');
  });
});
