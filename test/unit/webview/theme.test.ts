import { describe, expect, it } from 'vitest';
import { opaque, parseColor, themeKind, withAlpha } from '../../../webview/common/theme';
import { stepIndex } from '../../../webview/report/stepper';

const body = (...names: string[]) => ({ classList: { contains: (n: string) => names.includes(n) } });

describe('theme colours', () => {
  it('parses the colour forms VS Code writes', () => {
    expect(parseColor('#3794ff')).toEqual([55, 148, 255, 1]);
    expect(parseColor('#fff')).toEqual([255, 255, 255, 1]);
    expect(parseColor('#ffffff80')![3]).toBeCloseTo(0.502, 3);
    expect(parseColor('rgba(204, 204, 204, 0.5)')).toEqual([204, 204, 204, 0.5]);
    expect(parseColor('rgb(1 2 3 / 50%)')).toEqual([1, 2, 3, 0.5]);
    expect(parseColor('var(--x)')).toBeNull();
  });

  it('multiplies alpha and leaves unknown colours alone', () => {
    expect(withAlpha('#ff0000', 0.3)).toBe('rgba(255, 0, 0, 0.3)');
    expect(withAlpha('rgba(0, 0, 0, 0.5)', 0.5)).toBe('rgba(0, 0, 0, 0.25)');
    expect(withAlpha('red', 0.5)).toBe('red');
  });

  it('drops a theme colour\'s own transparency (Dark Modern charts.orange is rgba(234, 92, 0, 0.33))', () => {
    expect(opaque('rgba(234, 92, 0, 0.33)')).toBe('rgb(234, 92, 0)');
    expect(opaque('#59a4f9')).toBe('rgb(89, 164, 249)');
    expect(opaque('red')).toBe('red');
  });

  it('reads the theme kind from the body classes', () => {
    expect(themeKind(body('vscode-light'))).toBe('light');
    expect(themeKind(body('vscode-dark'))).toBe('dark');
    expect(themeKind(body('vscode-high-contrast'))).toBe('high-contrast');
    expect(themeKind(body('vscode-high-contrast', 'vscode-high-contrast-light'))).toBe('high-contrast-light');
    expect(themeKind(body())).toBe('dark');
  });
});

describe('stepper position', () => {
  it('wraps around at both ends', () => {
    expect(stepIndex(0, 1, 3)).toBe(1);
    expect(stepIndex(2, 1, 3)).toBe(0);
    expect(stepIndex(0, -1, 3)).toBe(2);
    expect(stepIndex(0, 1, 0)).toBe(0);
  });
});
