// What both panels' "Export…" menus send that only the webview can make: the instance table as
// filtered (CSV text) and a chart as an image (PNG bytes in base64, or SVG text), each with a
// suggested file name. The host checks the content and asks where to save it.

export type WebviewFile =
  | { format: 'csv'; name: string; text: string }
  | { format: 'png'; name: string; base64: string }
  | { format: 'svg'; name: string; text: string };

export type ChartImageFormat = 'png' | 'svg';

/**
 * Host → webview: draw chart `chart` (its id, "reliability", "roc"…) as `format` and send it back to
 * save, in an 'export' message carrying `answers: request` (a file the user asks for from the menu
 * carries none).
 */
export interface ExportChartMessage {
  type: 'exportChart';
  request: number;
  chart: string;
  format: ChartImageFormat;
}

/** Webview → host: there is no chart `chart` on the page; `available` are the charts there are. */
export interface ChartMissingMessage {
  type: 'chartMissing';
  answers: number;
  chart: string;
  available: { id: string; title: string }[];
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Whether `bytes` start with the PNG signature. */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** What a chart drawn on svgcanvas is made of (and a few plain shapes besides): nothing that runs, links or embeds. */
const SVG_ELEMENTS = new Set([
  'svg', 'defs', 'g', 'clipPath', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
  'text', 'tspan', 'linearGradient', 'radialGradient', 'stop', 'title', 'desc',
]);

const SVG_ATTRIBUTES = new Set([
  'version', 'xmlns', 'xmlns:xlink', 'width', 'height', 'viewBox', 'preserveAspectRatio', 'id', 'transform',
  'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'd', 'points', 'offset',
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'stroke-dashoffset',
  'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit', 'paint-order', 'opacity', 'clip-path', 'clip-rule',
  'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform',
  'font-family', 'font-size', 'font-style', 'font-weight', 'text-anchor', 'dominant-baseline', 'text-decoration', 'letter-spacing',
]);

const NAMESPACES: Record<string, string> = { xmlns: 'http://www.w3.org/2000/svg', 'xmlns:xlink': 'http://www.w3.org/1999/xlink' };

/** An attribute value that points nowhere outside the drawing: no script URL, no numeric escape to hide one. */
function plainValue(name: string, value: string): boolean {
  if (name in NAMESPACES) return value === NAMESPACES[name];
  if (/&#|javascript:|data:/i.test(value)) return false;
  // url() only to an element of the drawing (clip paths, gradients).
  return [...value.matchAll(/url\(([^)]*)\)/gi)].every((m) => /^\s*#[\w-]+\s*$/.test(m[1]));
}

/**
 * Whether `text` is a drawing and nothing else: one <svg> document made only of the elements and
 * attributes a chart uses (an allow-list), with no comment, CDATA, doctype or processing
 * instruction after the XML declaration, and no reference out of the document. The webview's text
 * is data: a chart's labels come from the files and the serializer escapes them, so a real chart
 * passes and anything that could run or load does not. Tags are read with their quoted values, so
 * a '>' inside a value does not end a tag early.
 */
export function isPlainSvg(text: string): boolean {
  if (typeof text !== 'string') return false;
  const body = text.replace(/^\s*<\?xml[^<>]*\?>/, '');
  const token = /<(\/?)([A-Za-z][\w.:-]*)((?:\s+[^\s=/>"']+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/y;
  const attribute = /\s+([^\s=/>"']+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  const open: string[] = [];
  let seenRoot = false;
  for (let at = 0; at < body.length;) {
    token.lastIndex = at;
    const m = token.exec(body);
    if (!m) return false; // '<!', '<?', or a '<' that starts no tag
    at = token.lastIndex;
    if (m[5] !== undefined) {
      // Text: only inside the root (whitespace around it).
      if (!open.length && m[5].trim()) return false;
      continue;
    }
    const [, closing, name, attrs, selfClosing] = m;
    if (!SVG_ELEMENTS.has(name)) return false;
    if (closing) {
      if (attrs || selfClosing || open.pop() !== name) return false;
      continue;
    }
    if (!open.length) {
      if (seenRoot || name !== 'svg') return false;
      seenRoot = true;
    }
    for (const [, key, double, single] of attrs.matchAll(attribute)) {
      if (!SVG_ATTRIBUTES.has(key) || !plainValue(key, double ?? single)) return false;
    }
    if (!selfClosing) open.push(name);
  }
  return seenRoot && !open.length;
}

/** A suggested name from the webview as a plain file name with the right extension, nothing else. */
export function safeFileName(name: string, ext: string): string {
  const plain = String(name).replace(/[\\/:*?"<>|\x00-\x1f]+/g, '_').slice(0, 120) || 'export';
  return plain.toLowerCase().endsWith(`.${ext}`) ? plain : `${plain}.${ext}`;
}
