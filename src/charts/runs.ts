// How run k of a comparison is drawn, the same in every chart of the compare page (and its legend
// chips) and in `eval-lens plot`: its colour, in an order that keeps neighbours apart, and its dash
// and marker, so runs differ by more than colour (colour-blind readers, greyscale prints).
import { scaled, type Palette } from './palette';

const RUN_DASHES: readonly number[][] = [[], [7, 4], [2, 3], [10, 3, 2, 3]];
const RUN_POINTS = ['circle', 'rectRot', 'triangle', 'rect'] as const;

/** The colour of run k: the theme's chart colours. */
export function runColor(palette: Palette, k: number): string {
  const order = [palette.blue, palette.orange, palette.purple, palette.green, palette.yellow, palette.red];
  return order[k % order.length];
}

/** Run k's line: colour, dash, marker and width (at the palette's scale, for print sizes). */
export function runStyle(palette: Palette, k: number) {
  return {
    borderColor: runColor(palette, k),
    backgroundColor: runColor(palette, k),
    borderDash: RUN_DASHES[k % RUN_DASHES.length].map((px) => scaled(palette, px)),
    pointStyle: RUN_POINTS[k % RUN_POINTS.length],
    borderWidth: scaled(palette, palette.highContrast ? 3 : 2),
  };
}
