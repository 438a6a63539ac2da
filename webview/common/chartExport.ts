// A chart as an image file, drawn again from its own Chart.js configuration at its size on screen:
// PNG on a canvas at three times the pixel density (print resolution, whatever the screen's), SVG on
// svgcanvas's recording 2D context. The webview only makes the bytes; the host asks where to save them.
import { BasicPlatform, type ChartConfiguration } from 'chart.js';
import { Element as SvgCanvas } from 'svgcanvas';
import type { ChartImageFormat, ChartMissingMessage, ExportChartMessage, WebviewFile } from '../../src/common/exportProtocol';
import { backgroundPlugin, Chart } from './charts/common';

/**
 * svgcanvas reads a text's font by setting a `style` attribute on a scratch <span>, which the
 * panel's Content Security Policy (no inline styles) refuses, leaving every label unsized. For the
 * one synchronous draw, such a span takes the same declaration through the CSSOM, which the policy
 * allows.
 */
function withCspSafeSpans<T>(draw: () => T): T {
  const create = document.createElement;
  document.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
    const element = create.call(this, tag, options);
    if (tag.toLowerCase() === 'span') {
      const setAttribute = element.setAttribute;
      element.setAttribute = function (name: string, value: string) {
        if (name === 'style') element.style.cssText = value;
        else setAttribute.call(element, name, value);
      };
    }
    return element;
  } as typeof document.createElement;
  try {
    return draw();
  } finally {
    document.createElement = create;
  }
}

/** Pixels per CSS pixel of an exported PNG: a 500-pixel-wide chart becomes 1,500 pixels. */
export const PNG_SCALE = 3;

/** The live chart's configuration, for a copy drawn off screen at `pixelRatio` on `background`. */
function copyConfig(live: Chart, background: string, pixelRatio: number): ChartConfiguration {
  const { type, data, options, plugins } = live.config as unknown as ChartConfiguration;
  return {
    type,
    // The live chart keeps its own data: the copy reads fresh arrays. Chart.js strokes a line through
    // a Path2D, which svgcanvas cannot read (the line would be lost), unless the line has segment
    // options: an empty set makes it draw the path on the context itself.
    data: {
      ...data,
      labels: data.labels?.slice(),
      datasets: data.datasets.map((d) => ({ ...d, data: d.data.slice(), segment: (d as { segment?: object }).segment ?? {} })),
    } as ChartConfiguration['data'],
    options: { ...options, animation: false, responsive: false, maintainAspectRatio: false, devicePixelRatio: pixelRatio, events: [] },
    plugins: [...(plugins ?? []), backgroundPlugin(background)],
    platform: BasicPlatform,
  };
}

/** The chart's size on screen, in whole CSS pixels. */
function screenSize(live: Chart): { width: number; height: number } {
  return { width: Math.max(1, Math.floor(live.width)), height: Math.max(1, Math.floor(live.height)) };
}

/** The chart drawn on `canvas`, as base64 PNG bytes at PNG_SCALE on `background`; null when no chart is drawn there. */
export function chartPng(canvas: HTMLCanvasElement, background: string): string | null {
  const live = Chart.getChart(canvas);
  if (!live) return null;
  const out = document.createElement('canvas');
  Object.assign(out, screenSize(live));
  const copy = new Chart(out, copyConfig(live, background, PNG_SCALE));
  try {
    return out.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
  } finally {
    copy.destroy();
  }
}

/**
 * The chart drawn on `canvas`, as an SVG document of its size on screen, on `background`; null when
 * no chart is drawn there. Text from the files (class names, run labels) goes in as text nodes and
 * comes out escaped by the serializer: the document holds no markup of theirs.
 */
export function chartSvg(canvas: HTMLCanvasElement, background: string): string | null {
  const live = Chart.getChart(canvas);
  if (!live) return null;
  const target = new SvgCanvas(screenSize(live));
  const config = copyConfig(live, background, 1);
  return withCspSafeSpans(() => {
    const copy = new Chart(target as unknown as HTMLCanvasElement, config);
    try {
      // svgcanvas writes an attribute it has no value for as "undefined".
      return target.ctx.getSerializedSvg().replace(/ [a-z-]+="undefined"/g, '');
    } finally {
      copy.destroy();
    }
  });
}

/** A chart on the page: its id (file names, the Export commands' `chart`), title and canvas. */
export interface PageChart {
  id: string;
  title: string;
  canvas: HTMLCanvasElement;
}

/** A chart as the file the host saves, named `<stem>.<chart id>.<format>`; null when it has no drawing. */
export function chartFile(chart: PageChart, format: ChartImageFormat, stem: string, background: string): WebviewFile | null {
  const name = `${stem}.${chart.id}.${format}`;
  if (format === 'png') {
    const base64 = chartPng(chart.canvas, background);
    return base64 === null ? null : { format, name, base64 };
  }
  const text = chartSvg(chart.canvas, background);
  return text === null ? null : { format, name, text };
}

/** The menu entries of the charts: "PNG: ROC curve…", "SVG: ROC curve…", keyed `png:<id>` / `svg:<id>`. */
export function chartChoices(charts: PageChart[]): { value: string; text: string }[] {
  return charts.flatMap((c) => (['png', 'svg'] as const).map((format) => ({
    value: `${format}:${c.id}`,
    text: `${format.toUpperCase()}: ${c.title}…`,
  })));
}

/** The file of the chart a `png:<id>` / `svg:<id>` menu value names; null for any other value. */
export function chosenChartFile(value: string, charts: PageChart[], stem: string, background: string): WebviewFile | null {
  const m = /^(png|svg):(.+)$/.exec(value);
  const chart = m && charts.find((c) => c.id === m[2]);
  return chart ? chartFile(chart, m[1] as ChartImageFormat, stem, background) : null;
}

/** The answer to the host's 'exportChart': the chart as a file, or which charts there are. */
export function answerChartRequest(request: ExportChartMessage, charts: PageChart[], stem: string, background: string): WebviewFile | ChartMissingMessage {
  const chart = charts.find((c) => c.id === request.chart);
  const file = chart && (request.format === 'png' || request.format === 'svg') ? chartFile(chart, request.format, stem, background) : null;
  return file ?? { type: 'chartMissing', answers: request.request, chart: String(request.chart), available: charts.map((c) => ({ id: c.id, title: c.title })) };
}
