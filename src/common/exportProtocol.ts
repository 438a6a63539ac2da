// What both panels' "Export…" menus send that only the webview can make: the instance table as
// filtered (CSV text) and a chart as an image (PNG bytes in base64, or SVG text), each with a
// suggested file name. The host checks the content and asks where to save it.

export type WebviewFile =
  | { format: 'csv'; name: string; text: string }
  | { format: 'png'; name: string; base64: string }
  | { format: 'svg'; name: string; text: string };

export type ChartImageFormat = 'png' | 'svg';

/** Host → webview: draw chart `chart` (its id, "reliability", "roc"…) as `format` and send it back to save. */
export interface ExportChartMessage {
  type: 'exportChart';
  chart: string;
  format: ChartImageFormat;
}

/** Webview → host: there is no chart `chart` on the page; `available` are the charts there are. */
export interface ChartMissingMessage {
  type: 'chartMissing';
  chart: string;
  available: { id: string; title: string }[];
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Whether `bytes` start with the PNG signature. */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/**
 * Whether `text` is a drawing and nothing else: one <svg> document with no script, no embedded
 * HTML, no event-handler attribute, no link out of the document. The webview's text is data: a
 * chart's labels come from the files, and the serializer escapes them, so a real chart passes.
 */
export function isPlainSvg(text: string): boolean {
  if (typeof text !== 'string') return false;
  const body = text.replace(/^\s*(<\?xml[^>]*\?>\s*)?/, '');
  if (!/^<svg[\s>]/.test(body) || !/<\/svg>\s*$/.test(body)) return false;
  if (/<\s*(script|foreignObject|iframe|object|embed|use)\b/i.test(body)) return false;
  // Inside tags only (text between tags cannot hold a raw '<' or '>'): handlers and outward links.
  for (const tag of body.match(/<[^>]*>/g) ?? []) {
    if (/\son[a-z]+\s*=/i.test(tag)) return false;
    if (/\s(?:xlink:)?href\s*=\s*(?:"(?!#)|'(?!#)|(?!["'#]))/i.test(tag)) return false;
    if (/javascript:|data:text\/html/i.test(tag)) return false;
  }
  return true;
}

/** A suggested name from the webview as a plain file name with the right extension, nothing else. */
export function safeFileName(name: string, ext: string): string {
  const plain = String(name).replace(/[\\/:*?"<>|\x00-\x1f]+/g, '_').slice(0, 120) || 'export';
  return plain.toLowerCase().endsWith(`.${ext}`) ? plain : `${plain}.${ext}`;
}
