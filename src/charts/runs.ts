// Colours for several runs in one chart (compare): the first run keeps the chart's own colour.
import type { Palette } from './palette';

export function runColors(palette: Palette, n: number, first: string): string[] {
  const others = [palette.blue, palette.orange, palette.green, palette.purple, palette.red, palette.yellow].filter((c) => c !== first);
  return Array.from({ length: n }, (_, k) => (k === 0 ? first : others[(k - 1) % others.length]));
}
