// Plain tables rendered as GitHub-flavoured Markdown or RFC 4180 CSV: the one shape every command's
// --markdown and --csv output goes through (score, compare, board) and the report panel's exports. Pure.

export type Cell = string | number | null | undefined;

export interface Table {
  columns: string[];
  rows: Cell[][];
  /** Per column; numbers read best right-aligned. Default: left. */
  align?: ('left' | 'right')[];
}

/** A Markdown table cell: text characters that would start markup or end the cell are escaped. */
export function markdownText(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ').replace(/([\\`*_[\]<>|#~])/g, '\\$1');
}

/**
 * Inline code for paths: a fence longer than any run of backticks inside. In a table cell `|` is
 * still escaped (GFM splits cells before it reads code spans); anywhere else it must not be.
 */
export function markdownCode(text: string, inTable = false): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  const body = text.replace(/\r\n|\r|\n/g, ' ');
  return `${fence}${pad}${inTable ? body.replace(/\|/g, '\\|') : body}${pad}${fence}`;
}

function markdownCell(c: Cell, raw: boolean): string {
  if (c === null || c === undefined || c === '') return '';
  return raw ? String(c) : markdownText(String(c));
}

/**
 * A GFM table. Cells are escaped unless listed in `rawColumns` (cells the caller already wrote as
 * Markdown, such as code spans). An empty cell stays empty.
 */
export function markdownTable(t: Table, rawColumns: number[] = []): string {
  const raw = new Set(rawColumns);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rule = t.columns.map((_, i) => (t.align?.[i] === 'right' ? '---:' : '---'));
  return [
    line(t.columns.map((c) => markdownText(c))),
    line(rule),
    ...t.rows.map((r) => line(t.columns.map((_, i) => markdownCell(r[i], raw.has(i))))),
  ].join('\n') + '\n';
}

/** A CSV field: quoted when it holds a comma, quote, line break or leading/trailing space. */
export function csvField(c: Cell): string {
  if (c === null || c === undefined) return '';
  const s = typeof c === 'number' ? (Number.isFinite(c) ? String(c) : '') : c;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180: a header line, CRLF line ends, numbers at full precision (shortest round-trip form). */
export function csvTable(t: Table): string {
  return [t.columns, ...t.rows].map((r) => t.columns.map((_, i) => csvField(r[i])).join(',')).join('\r\n') + '\r\n';
}
