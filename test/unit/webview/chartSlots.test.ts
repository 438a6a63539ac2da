// The report draws its first chart, lets the page paint it, then draws the others
// (webview/report/chartSlots.ts drawFirstThenRest, issue 28.11): the first chart is not held back
// by every other chart's drawing, a page rendered again in between draws nothing stale, and a
// hidden page (no frames) still gets its charts. Frames and timers are driven by hand.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChartSlots, type ChartSlot } from '../../../webview/report/chartSlots';
import type { Palette } from '../../../webview/common/theme';

const palette = { foreground: '#ccc', background: '#1f1f1f', grid: '#444', green: '#0f0', red: '#f00', blue: '#00f', purple: '#a0f', orange: '#fa0', yellow: '#ff0', highContrast: false, scale: 1 } as unknown as Palette;

let frames: (() => void)[] = [];
beforeEach(() => {
  vi.useFakeTimers();
  frames = [];
  (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame = (f: () => void) => frames.push(f);
});
afterEach(() => {
  vi.useRealTimers();
  delete (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame;
});

/** Slots whose make() records the order of the draws (a stand-in chart with destroy()). */
function slotsDrawing(ids: string[], drawn: string[]): ChartSlots {
  const slots = new ChartSlots();
  const list = ids.map((id): ChartSlot => ({
    id, canvas: {} as HTMLCanvasElement,
    make: () => { drawn.push(id); return { destroy() {} } as never; },
  }));
  (slots as unknown as { slots: ChartSlot[] }).slots = list;
  return slots;
}

/** The browser paints: this frame's callbacks run, then the tasks they queued. */
function paint(): void {
  const now = frames;
  frames = [];
  for (const f of now) f();
  vi.advanceTimersByTime(0);
}

describe('ChartSlots.drawFirstThenRest', () => {
  it('draws the first chart at once, the others after the next paint, then calls back once', () => {
    const drawn: string[] = [];
    const then = vi.fn();
    slotsDrawing(['reliability', 'smooth', 'histogram', 'roc'], drawn).drawFirstThenRest(palette, () => true, then);
    expect(drawn).toEqual(['reliability']);
    expect(then).not.toHaveBeenCalled();
    paint();
    expect(drawn).toEqual(['reliability', 'smooth', 'histogram', 'roc']);
    expect(then).toHaveBeenCalledTimes(1);
    // The fallback for a hidden page does not draw them again.
    vi.advanceTimersByTime(1000);
    expect(drawn).toHaveLength(4);
    expect(then).toHaveBeenCalledTimes(1);
  });

  it('a page rendered again before the paint: the old render draws nothing more', () => {
    const drawn: string[] = [];
    const then = vi.fn();
    let current = true;
    slotsDrawing(['reliability', 'histogram'], drawn).drawFirstThenRest(palette, () => current, then);
    current = false;
    paint();
    vi.advanceTimersByTime(1000);
    expect(drawn).toEqual(['reliability']);
    expect(then).not.toHaveBeenCalled();
  });

  it('a hidden page (no frames): the others are drawn after a short while all the same', () => {
    const drawn: string[] = [];
    const then = vi.fn();
    slotsDrawing(['reliability', 'histogram'], drawn).drawFirstThenRest(palette, () => true, then);
    vi.advanceTimersByTime(100);
    expect(drawn).toEqual(['reliability']);
    vi.advanceTimersByTime(200);
    expect(drawn).toEqual(['reliability', 'histogram']);
    expect(then).toHaveBeenCalledTimes(1);
  });

  it('no charts: calls back after the paint', () => {
    const then = vi.fn();
    slotsDrawing([], []).drawFirstThenRest(palette, () => true, then);
    paint();
    expect(then).toHaveBeenCalledTimes(1);
  });
});
