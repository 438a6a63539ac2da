// The leaderboard's colour scale and the significance wording: properties that must hold whatever
// the control points (cividis rises in lightness; the text picked on a cell meets WCAG contrast).
import { describe, expect, it } from 'vitest';
import { cividis, position, textOn } from '../../../webview/board/scale';
import { significanceText } from '../../../src/common/compareProtocol';

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

describe('cividis', () => {
  it('rises in lightness from end to end, so the order survives greyscale and colour-blindness', () => {
    let previous = -1;
    for (let i = 0; i <= 100; i++) {
      const l = luminance(cividis(i / 100));
      expect(l).toBeGreaterThan(previous);
      previous = l;
    }
  });

  it('clamps outside [0, 1] and treats NaN as the low end', () => {
    expect(cividis(-1)).toEqual(cividis(0));
    expect(cividis(2)).toEqual(cividis(1));
    expect(cividis(NaN)).toEqual(cividis(0));
  });

  it('puts text of at least 4.5:1 contrast on every shade', () => {
    for (let i = 0; i <= 100; i++) {
      const bg = cividis(i / 100);
      const fg = textOn(bg) === '#000000' ? 0 : 1;
      const [hi, lo] = fg > luminance(bg) ? [fg, luminance(bg)] : [luminance(bg), fg];
      expect((hi + 0.05) / (lo + 0.05)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('maps the better end to the bright end whichever way is better', () => {
    expect(position(0.9, 0.1, 0.9, true)).toBe(1);
    expect(position(0.1, 0.1, 0.9, false)).toBe(1);
    expect(position(0.5, 0.5, 0.5, true)).toBe(0.5);
  });
});

describe('significanceText', () => {
  it('says significant or n.s. in words, with the p-value', () => {
    expect(significanceText(0.003)).toEqual({ text: 'significant (p = 0.003)', significant: true });
    expect(significanceText(0.41)).toEqual({ text: 'n.s. (p = 0.410)', significant: false });
    expect(significanceText(3e-12).text).toBe('significant (p = 3.0e-12)');
    expect(significanceText(null)).toEqual({ text: 'no test', significant: null });
  });

  it('reads a bootstrap p of 0 as below the resolution of its resamples', () => {
    expect(significanceText(0, 0.05, 2 / 200).text).toBe('significant (p < 0.010)');
  });
});
