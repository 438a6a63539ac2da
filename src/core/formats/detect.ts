// Which format a file is, from its name first and its first few kilobytes second. Order matters:
// the specific formats claim their files before the generic reader gets a look.
import type { ColumnMapping, FormatName } from '../types';
import { stripBom } from './csv';
import { isRaftPredictions } from './raft';
import { isLmEvalSamples } from './lmEval';
import { isPromptfooResults } from './promptfoo';
import { isInspectLog } from './inspect';
import { looksLikeAlmanacs } from './almanacs';
import { looksLikeGenericTable } from './generic';
import { detectAdapter } from './adapters';
import { baseName } from '../../common/paths';

/** How much of a file detection reads. */
export const DETECT_HEAD_BYTES = 16 * 1024;

const FOLKTEXTS_NAME = /\.test_predictions\.csv$/i;
const FOLKTEXTS_HEADER = /^\s*,\s*risk_score\s*,\s*label\s*$/i;

/**
 * RAFT companions and configuration files that hold nothing to score. Results files (lm-eval's and
 * lighteval's results_*.json, folktexts' results.bench-*.json) are not among them: they are
 * summaries, read as such by the summary adapter (formats/summary.ts).
 */
const NEVER_PREDICTIONS = /(^|[\\/])(task\.json|train\.csv|test\.csv|package(-lock)?\.json|tsconfig\.json)$/i;

export function firstLine(head: string): string {
  const text = stripBom(head);
  const nl = text.indexOf('\n');
  return (nl === -1 ? text : text.slice(0, nl)).replace(/\r$/, '');
}

/**
 * The format to read a file as, given the user's column mapping: a mapping (--map) names columns of
 * a table, so a table a specific reader claimed by its name (folktexts' *.test_predictions.csv) is
 * read by the generic table reader, which honours it. Other formats are not tables and keep theirs.
 */
export function formatForMapping(format: FormatName | null, mapping: ColumnMapping | undefined): FormatName | null {
  if (!mapping || !Object.values(mapping).some((v) => v !== undefined)) return format;
  // A summary table given a mapping is a table the user says holds predictions.
  return format === 'folktexts' || format === 'summary' ? 'generic' : format;
}

/** The format of a file, or null when it does not look like predictions of any kind. */
export function detectFormat(path: string, head: string): FormatName | null {
  const name = baseName(path);
  if (NEVER_PREDICTIONS.test(path)) return null;
  // A Parquet table (PAR1 magic): its format is settled from its rows when it is read (scoreAsync).
  if (/\.parquet$/i.test(name)) return head.startsWith('PAR1') ? 'generic' : null;
  if (/\.csv$/i.test(name) && FOLKTEXTS_HEADER.test(firstLine(head))) return 'folktexts';
  // The name alone says folktexts; the content wins when it says otherwise: a risk_score column is
  // folktexts' (its reader then checks the rest), another table of predictions is generic.
  if (FOLKTEXTS_NAME.test(name)) {
    const header = firstLine(head);
    if (!/(^|[,\t])\s*"?risk_score"?\s*([,\t]|$)/i.test(header) && looksLikeGenericTable(path, head)) return 'generic';
    return 'folktexts';
  }
  if (isRaftPredictions(path, head)) return 'raft';
  if (isInspectLog(path, stripBom(head))) return 'inspect';
  // promptfoo's version-2 results.json opens with {"results": {...}} as an lm-eval dump does.
  if (isPromptfooResults(head)) return 'promptfoo';
  if (isLmEvalSamples(path, head)) return 'lm-eval';
  if (looksLikeAlmanacs(path, head)) return 'almanacs';
  const adapter = detectAdapter(path, head);
  if (adapter) return adapter.format;
  if (looksLikeGenericTable(path, head)) return 'generic';
  return null;
}
