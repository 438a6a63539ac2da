// The report's charts: each remembers how to draw itself, so a theme change or a binning switch
// redraws it, and "Export…" lists what is on the page.
import { applyDefaults, type Chart } from '../common/charts/common';
import type { PageChart } from '../common/chartExport';
import { ChartData } from '../common/chartTable';
import { el } from '../common/dom';
import type { Palette } from '../common/theme';

/** A chart and how to draw it again (theme changes, binning switches). */
export interface ChartSlot {
  id: string;
  canvas: HTMLCanvasElement;
  make: (canvas: HTMLCanvasElement, palette: Palette) => Chart;
  chart?: Chart;
  /** Its description and data table, for screen readers (refreshed on every draw). */
  data?: ChartData;
}

export interface ChartBoxOptions {
  height?: number;
  /** Scroll the chart inside a box of at most this height (tall per-class charts). */
  maxVisibleHeight?: number;
  caption?: string;
  controls?: HTMLElement;
  wide?: boolean;
  /** Shown beside the chart (the reliability bins table). */
  aside?: HTMLElement;
}

export class ChartSlots {
  private slots: ChartSlot[] = [];

  /** A titled section with a canvas whose chart `make` draws (on drawAll). */
  box(id: string, title: string, make: ChartSlot['make'], options: ChartBoxOptions = {}): HTMLElement {
    const data = new ChartData(id, title);
    const canvas = el('canvas', { attrs: { id: `chart-${id}`, role: 'img', 'aria-label': title, 'aria-describedby': data.description.id } });
    this.slots.push({ id, canvas, make, data });
    const frame = el('div', { className: 'chart-frame' }, [canvas]);
    frame.style.height = `${options.height ?? 280}px`;
    let body: HTMLElement = frame;
    if (options.maxVisibleHeight && (options.height ?? 0) > options.maxVisibleHeight) {
      // A scroll box is a focusable region with a name (keyboard users scroll it with the arrows).
      body = el('div', { className: 'chart-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': `${title} (scrolls)` } }, [frame]);
      body.style.maxHeight = `${options.maxVisibleHeight}px`;
    }
    const main = el('div', { className: 'chart-main' }, [
      body,
      options.caption ? el('p', { className: 'caption muted', text: options.caption }) : null,
      data.description,
      data.details,
    ]);
    return el('section', { className: `section chart${options.wide ? ' wide' : ''}`, attrs: { id: `section-${id}` } }, [
      el('div', { className: 'chart-head' }, [el('h2', { text: title }), options.controls ?? null]),
      options.aside ? el('div', { className: 'chart-with-aside' }, [main, options.aside]) : main,
    ]);
  }

  drawAll(palette: Palette): void {
    applyDefaults(palette);
    for (const slot of this.slots) this.draw(slot, palette);
  }

  /**
   * Draws the first chart now and the others once the page has painted it, then calls `then`;
   * nothing more when the page was rendered again in between (`current()` false). Issue 28.11: on
   * a million-row report, drawing every chart before the first paint held the page's thread for
   * 100-250 ms (on two busy cores) after the report arrived.
   */
  drawFirstThenRest(palette: Palette, current: () => boolean, then: () => void): void {
    applyDefaults(palette);
    const [first, ...rest] = this.slots;
    if (first) this.draw(first, palette);
    afterPaint(() => {
      if (!current()) return;
      for (const slot of rest) this.draw(slot, palette);
      then();
    });
  }

  private draw(slot: ChartSlot, palette: Palette): void {
    slot.chart?.destroy();
    slot.chart = slot.make(slot.canvas, palette);
    slot.data?.update(slot.chart);
  }

  redraw(id: string, palette: Palette): void {
    const slot = this.slots.find((s) => s.id === id);
    if (!slot) return;
    this.draw(slot, palette);
  }

  destroyAll(): void {
    for (const slot of this.slots) slot.chart?.destroy();
    this.slots = [];
  }

  /** The charts drawn on the page, for "Export…" and the Export Report command. */
  pageCharts(): PageChart[] {
    return this.slots.filter((s) => s.chart).map((s) => ({ id: s.id, title: s.canvas.getAttribute('aria-label') ?? s.id, canvas: s.canvas }));
  }
}

/**
 * Runs `f` after the next paint: a frame's callback, then a task (which runs once that frame is
 * painted). A hidden page gets no frames: then after HIDDEN_FALLBACK_MS.
 */
function afterPaint(f: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    f();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, HIDDEN_FALLBACK_MS);
}

const HIDDEN_FALLBACK_MS = 250;
