// The compare page's charts: each remembers how to draw itself, so a theme change redraws them all.
import { applyDefaults, type Chart } from '../common/charts/common';
import type { PageChart } from '../common/chartExport';
import { ChartData } from '../common/chartTable';
import { el } from '../common/dom';
import { readPalette, type Palette } from '../common/theme';
import { compareRunColors } from './charts';

interface Slot {
  canvas: HTMLCanvasElement;
  make: (canvas: HTMLCanvasElement, palette: Palette) => Chart;
  chart?: Chart;
  /** Its description and data table, for screen readers (refreshed on every draw). */
  data: ChartData;
}

let slots: Slot[] = [];

/** A titled chart section; drawn by drawAll() once it is in the document. */
export function chartSection(id: string, title: string, make: Slot['make'], height = 300, caption?: string): HTMLElement {
  const data = new ChartData(id, title);
  const canvas = el('canvas', { attrs: { id: `chart-${id}`, role: 'img', 'aria-label': title, 'aria-describedby': data.description.id } });
  slots.push({ canvas, make, data });
  const frame = el('div', { className: 'chart-frame' }, [canvas]);
  frame.style.height = `${height}px`;
  return el('section', { className: 'section chart', attrs: { id: `section-${id}` } }, [
    el('div', { className: 'chart-head' }, [el('h2', { text: title })]),
    frame,
    caption ? el('p', { className: 'caption muted', text: caption }) : null,
    data.description,
    data.details,
  ]);
}

export function drawAll(): void {
  const palette = readPalette();
  applyDefaults(palette);
  for (const s of slots) {
    s.chart?.destroy();
    s.chart = s.make(s.canvas, palette);
    s.data.update(s.chart);
  }
  // The run swatches beside the names: the charts' opaque colours (some themes give CSS ones alpha).
  const swatches = document.querySelectorAll<HTMLElement>('.run-swatch[data-run]');
  const colors = compareRunColors(palette, swatches.length);
  swatches.forEach((node) => {
    node.style.background = colors[Number(node.dataset.run)] ?? '';
  });
}

/** The charts drawn on the page, for "Export…" and the Export Comparison command. */
export function pageCharts(): PageChart[] {
  return slots.filter((s) => s.chart).map((s) => ({ id: s.canvas.id.replace(/^chart-/, ''), title: s.canvas.getAttribute('aria-label') ?? s.canvas.id, canvas: s.canvas }));
}

export function destroyAll(): void {
  for (const s of slots) s.chart?.destroy();
  slots = [];
}
