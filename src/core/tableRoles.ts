// The column roles of a table file (CSV, TSV, JSON Lines, a JSON array of records, Parquet), for
// the CLI's --map hint and the editor's "Map columns…" pick: the columns, the role each plays, what
// is missing or ambiguous, and the --map text that would score the file. The same model
// (formats/roles.ts) plans the generic reader, so the pick offers what the reader would do.
import { readFileSync } from 'node:fs';
import type { ColumnMapping } from './types';
import { columnRoles, rolesMessage, type ColumnRoles, type MapField } from './formats/roles';
import { parseCsv, sniffDelimiter, stripBom } from './formats/csv';
import { forEachJsonRecord } from './formats/jsonl';
import { isParquetPath, parquetToText } from './formats/parquet';
import { parseGeneric, workingHint, hintMapping } from './formats/generic';
import { textInput } from './formats/context';
import { resolveOptions } from './report';
import { nodeCompanionReader } from './io';

export type { ColumnRoles, ColumnInfo, ColumnRole, MapField } from './formats/roles';

/** Rows read to decide the roles (as the generic reader samples). */
const SAMPLE_ROWS = 200;

export interface TableRoles {
  /** The table's column names, in file order. */
  names: string[];
  roles: ColumnRoles;
  /** Rows sampled. */
  rows: number;
  /** One sentence when the roles do not settle a scorable table (what is missing, the columns, the --map); undefined when they do. */
  message?: string;
  /** The --map arguments the message proposes: tried, and they score the table. */
  hint?: string;
  /** For a pick: each --map field and the columns it may take (the proposed one first). */
  choices: { field: MapField; proposed?: string; columns: string[] }[];
}

/** The roles of a table given as text (CSV/TSV, or JSON records when `json`). */
export function tableRolesOfText(path: string, text: string, mapping?: ColumnMapping): TableRoles {
  const body = stripBom(text);
  const first = body.trimStart()[0];
  const json = /\.(jsonl|ndjson|json)$/i.test(path) || first === '{' || first === '[';
  let names: string[] = [];
  let records: Record<string, unknown>[] = [];
  if (json) {
    const seen = new Set<string>();
    forEachJsonRecord(body, (value) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return;
      const rec = value as Record<string, unknown>;
      for (const k of Object.keys(rec)) if (!seen.has(k)) { seen.add(k); names.push(k); }
      records.push(rec);
      return records.length < SAMPLE_ROWS;
    });
  } else {
    const head = body.slice(0, 256 * 1024);
    const delimiter = /\.(tsv|tab)$/i.test(path) ? '\t' : sniffDelimiter(head);
    const table = parseCsv(head, delimiter);
    names = table.header;
    const complete = head.length === body.length;
    records = (complete ? table.records : table.records.slice(0, -1)).slice(0, SAMPLE_ROWS)
      .map((r) => Object.fromEntries(names.map((n, i) => [n, r.fields[i]])));
  }
  // A --map is proposed only when scoring the text with it scores a row (as the generic reader says it).
  const tryMapping = (m: ColumnMapping) => parseGeneric(textInput(path, text), { options: resolveOptions({ mapping: m, format: 'generic' }), io: nodeCompanionReader });
  return finish(names, records, mapping, tryMapping);
}

/** The roles of a table file on disk, Parquet included. */
export async function tableRolesOfFile(path: string, mapping?: ColumnMapping): Promise<TableRoles> {
  const bytes = readFileSync(path);
  if (isParquetPath(path)) {
    const text = await parquetToText(path, bytes, {}, 1);
    if ('fatal' in text) throw new Error(text.fatal);
    return tableRolesOfText(path.replace(/\.parquet$/i, `.${text.as}`), text.text, mapping);
  }
  return tableRolesOfText(path, new TextDecoder('utf-8').decode(bytes.subarray(0, 4 * 1024 * 1024)), mapping);
}

const FIELDS: MapField[] = ['label', 'score', 'pred', 'confidence', 'correct', 'id'];

function finish(names: string[], records: Record<string, unknown>[], mapping: ColumnMapping | undefined, tryMapping: (m: ColumnMapping) => ReturnType<typeof parseGeneric>): TableRoles {
  const roles = columnRoles(names, (n) => records.map((r) => r[n]), { mapping, rowCount: records.length });
  const m = roles.mapping;
  const scorable = !roles.notPredictions && (!!roles.scores || (m.gold !== undefined && (m.score !== undefined || m.pred !== undefined || !!roles.classProbs || !!roles.models?.length))
    || (m.confidence !== undefined && m.correct !== undefined));
  const roleOf = (n: string) => roles.columns.find((c) => c.column === n)?.role;
  // Only a --map that scores the table is proposed, in the message and in the pick: one set of roles.
  const hint = scorable || !roles.mapHints?.length ? undefined : workingHint(roles.mapHints, mapping, tryMapping);
  const hinted: Partial<Record<MapField, string>> = hint ? hintMapping(hint) : {};
  const choices = FIELDS.map((field) => {
    const hint = hinted[field] !== undefined && names.includes(hinted[field]!) ? hinted[field] : undefined;
    const proposed = (field === 'label' ? m.gold : m[field]) ?? hint;
    // Never offer a prediction or a score as the gold label.
    const columns = names.filter((n) => field !== 'label' || !['pred', 'modelPred', 'score', 'modelScore', 'classProb', 'confidence'].includes(roleOf(n) ?? ''));
    const ordered = proposed !== undefined ? [proposed, ...columns.filter((n) => n !== proposed)] : columns;
    return { field, ...(proposed !== undefined ? { proposed } : {}), columns: ordered };
  });
  return { names, roles, rows: records.length, ...(scorable ? {} : { message: rolesMessage(roles, names, hint), ...(hint ? { hint } : {}) }), choices };
}
