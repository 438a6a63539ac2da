// Fill patterns for bar datasets (issue 27's judge charts): colour must never carry the meaning
// alone, so each series of a grouped or stacked bar chart gets a pattern too, drawn over its bars
// and named in its legend label ("(hatched /)"). Plain context calls only (moveTo, lineTo, rect,
// clip): svgcanvas replays them for the SVG export, as the confidence histogram's hatch.
import type { Chart, Plugin } from 'chart.js';
import { scaled, type Palette } from './palette';

export type BarPattern = 'plain' | 'diagonal' | 'back-diagonal' | 'horizontal' | 'vertical' | 'cross' | 'dots';

/** The patterns in the order series take them (series k: PATTERNS[k % length]). */
export const PATTERNS: readonly BarPattern[] = ['plain', 'diagonal', 'dots', 'back-diagonal', 'horizontal', 'cross', 'vertical'];

/** The words a legend label carries for a pattern. */
export const PATTERN_WORDS: Record<BarPattern, string> = {
  plain: 'plain',
  diagonal: 'hatched /',
  'back-diagonal': 'hatched \\',
  horizontal: 'striped —',
  vertical: 'striped |',
  cross: 'cross-hatched',
  dots: 'dotted',
};

/** The pattern of series k. */
export function patternOf(k: number): BarPattern {
  return PATTERNS[k % PATTERNS.length];
}

/** A bar's rectangle in canvas pixels, whichever way the chart runs. */
function barRect(bar: { getProps: (keys: string[], final?: boolean) => Record<string, number> }, horizontal: boolean): { left: number; top: number; right: number; bottom: number } {
  const p = bar.getProps(['x', 'y', 'base', 'width', 'height'], true);
  if (horizontal) {
    return { left: Math.min(p.x, p.base), right: Math.max(p.x, p.base), top: p.y - p.height / 2, bottom: p.y + p.height / 2 };
  }
  return { left: p.x - p.width / 2, right: p.x + p.width / 2, top: Math.min(p.y, p.base), bottom: Math.max(p.y, p.base) };
}

function drawPattern(ctx: Chart['ctx'], pattern: BarPattern, r: { left: number; top: number; right: number; bottom: number }, gap: number): void {
  const { left, top, right, bottom } = r;
  if (right - left < 1 || bottom - top < 1 || pattern === 'plain') return;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, right - left, bottom - top);
  ctx.clip();
  ctx.beginPath();
  const h = bottom - top;
  if (pattern === 'diagonal' || pattern === 'cross') {
    for (let x = left - h; x < right; x += gap) { ctx.moveTo(x, bottom); ctx.lineTo(x + h, top); }
  }
  if (pattern === 'back-diagonal' || pattern === 'cross') {
    for (let x = left; x < right + h; x += gap) { ctx.moveTo(x, bottom); ctx.lineTo(x - h, top); }
  }
  if (pattern === 'horizontal') {
    for (let y = top + gap / 2; y < bottom; y += gap) { ctx.moveTo(left, y); ctx.lineTo(right, y); }
  }
  if (pattern === 'vertical') {
    for (let x = left + gap / 2; x < right; x += gap) { ctx.moveTo(x, top); ctx.lineTo(x, bottom); }
  }
  ctx.stroke();
  if (pattern === 'dots') {
    const radius = Math.max(0.8, gap / 5);
    for (let y = top + gap / 2; y < bottom; y += gap) {
      for (let x = left + gap / 2; x < right; x += gap) {
        ctx.beginPath();
        ctx.arc(x, y, radius, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
  }
  ctx.restore();
}

/**
 * Draws each bar dataset's pattern (by dataset index) over its bars, in the page's background colour
 * so that it reads on any fill. Datasets without an entry, or 'plain', are left as they are.
 */
export function patternPlugin(patterns: readonly (BarPattern | undefined)[], palette: Palette): Plugin<'bar'> {
  const gap = scaled(palette, 6);
  return {
    id: 'barPatterns',
    afterDatasetsDraw(chart: Chart<'bar'>) {
      const horizontal = (chart.options as { indexAxis?: string }).indexAxis === 'y';
      const ctx = chart.ctx;
      ctx.save();
      ctx.strokeStyle = palette.background;
      ctx.fillStyle = palette.background;
      ctx.lineWidth = scaled(palette, palette.highContrast ? 1.5 : 1.2);
      patterns.forEach((pattern, d) => {
        if (!pattern || pattern === 'plain' || !chart.isDatasetVisible(d)) return;
        for (const bar of chart.getDatasetMeta(d).data) {
          drawPattern(ctx, pattern, barRect(bar as unknown as { getProps: (keys: string[], final?: boolean) => Record<string, number> }, horizontal), gap);
        }
      });
      ctx.restore();
    },
  };
}
