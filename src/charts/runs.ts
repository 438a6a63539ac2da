// Colours for several runs in one chart (compare): the first run keeps the chart's own colour.
import { scaled, type Palette } from './palette';

export function runColors(palette: Palette, n: number, first: string): string[] {
  const others = [palette.blue, palette.orange, palette.green, palette.purple, palette.red, palette.yellow].filter((c) => c !== first);
  return Array.from({ length: n }, (_, k) => (k === 0 ? first : others[(k - 1) % others.length]));
}

/** Runs apart by dash as well as colour, so a grey-scale print still tells them apart: the first is solid. */
export function runDash(palette: Palette, k: number): number[] {
  return k === 0 ? [] : [scaled(palette, 2 + 4 * k), scaled(palette, 3)];
}

/** And by marker shape. */
const RUN_POINTS = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot'] as const;

export function runPointStyle(k: number): (typeof RUN_POINTS)[number] {
  return RUN_POINTS[k % RUN_POINTS.length];
}
