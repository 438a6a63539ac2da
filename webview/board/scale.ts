// A colour-blind-safe sequential scale for the leaderboard: cividis (Nuñez, Anderton & Renslow
// 2018), designed to read the same with deuteranopia and protanopia and to rise monotonically in
// lightness, so the shading also survives greyscale. Nine control points, linearly interpolated.
const CIVIDIS: [number, number, number][] = [
  [0, 34, 78], [18, 53, 112], [59, 73, 108], [87, 93, 109], [112, 113, 115],
  [138, 135, 121], [166, 157, 117], [196, 181, 108], [254, 232, 56],
];

/** The colour of t in [0, 1] as [r, g, b]. */
export function cividis(t: number): [number, number, number] {
  const x = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0)) * (CIVIDIS.length - 1);
  const i = Math.min(CIVIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const a = CIVIDIS[i];
  const b = CIVIDIS[i + 1];
  return [0, 1, 2].map((c) => Math.round(a[c] + f * (b[c] - a[c]))) as [number, number, number];
}

export function rgb([r, g, b]: [number, number, number]): string {
  return `rgb(${r}, ${g}, ${b})`;
}

/** Black or white text, whichever contrasts more with the background (WCAG relative luminance). */
export function textOn([r, g, b]: [number, number, number]): string {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

/** Where value v sits between lo and hi, flipped when lower is better (bright = better). */
export function position(v: number, lo: number, hi: number, higherIsBetter: boolean): number {
  const t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
  return higherIsBetter ? t : 1 - t;
}
