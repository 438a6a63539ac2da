// Which format a file is, from its name first and its first few kilobytes second. Order matters:
// the specific formats claim their files before the generic reader gets a look.
import type { FormatName } from '../types';
import { stripBom } from './csv';
import { isRaftPredictions } from './raft';
import { isLmEvalSamples } from './lmEval';
import { isInspectLog } from './inspect';
import { looksLikeAlmanacs } from './almanacs';
import { looksLikeGenericTable } from './generic';
import { baseName } from '../../common/paths';

/** How much of a file detection reads. */
export const DETECT_HEAD_BYTES = 16 * 1024;

const FOLKTEXTS_NAME = /\.test_predictions\.csv$/i;
const FOLKTEXTS_HEADER = /^\s*,\s*risk_score\s*,\s*label\s*$/i;

/** RAFT companions, benchmark summaries and similar files that hold no predictions to score. */
const NEVER_PREDICTIONS = /(^|[\\/])(task\.json|train\.csv|test\.csv|package(-lock)?\.json|tsconfig\.json|results\.bench-[^\\/]*\.json|results_[^\\/]*\.json)$/i;

export function firstLine(head: string): string {
  const text = stripBom(head);
  const nl = text.indexOf('\n');
  return (nl === -1 ? text : text.slice(0, nl)).replace(/\r$/, '');
}

/** The format of a file, or null when it does not look like predictions of any kind. */
export function detectFormat(path: string, head: string): FormatName | null {
  const name = baseName(path);
  if (NEVER_PREDICTIONS.test(path)) return null;
  // A Parquet table (PAR1 magic): its format is settled from its rows when it is read (scoreAsync).
  if (/\.parquet$/i.test(name)) return head.startsWith('PAR1') ? 'generic' : null;
  if (FOLKTEXTS_NAME.test(name) || (/\.csv$/i.test(name) && FOLKTEXTS_HEADER.test(firstLine(head)))) return 'folktexts';
  if (isRaftPredictions(path, head)) return 'raft';
  if (isInspectLog(path, stripBom(head))) return 'inspect';
  if (isLmEvalSamples(path, head)) return 'lm-eval';
  if (looksLikeAlmanacs(path, head)) return 'almanacs';
  if (looksLikeGenericTable(path, head)) return 'generic';
  return null;
}
