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
import { shellQuote } from '../../common/shellQuote';
import { sizeText } from './progress';

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

/** What a Git LFS pointer says of the file it stands for. */
export interface LfsPointer {
  /** The object's id as the pointer writes it: `sha256:` and 64 hex digits. */
  oid: string;
  /** The real file's size in bytes. */
  size: number;
  /** The pointer's own size in bytes. */
  bytes: number;
}

/**
 * Git LFS's pointer format (github.com/git-lfs/git-lfs docs/spec.md): the version line first, then
 * `key value` lines sorted by key (extension lines `ext-N-name`, then oid, then size), each ending
 * in a newline, under 1024 bytes in all. Read strictly, so that no data file is taken for a
 * pointer: a CSV whose first column is "version" has a comma where the pointer has a space and a
 * URL. A CR before each newline is allowed: a Windows checkout without the LFS filter can write
 * the pointer's text with CRLF line ends, and the final newline may have been trimmed by an editor.
 */
const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\r?\n(?:ext-\d+-[a-z0-9.-]+ sha256:[0-9a-f]{64}\r?\n)*oid (sha256:[0-9a-f]{64})\r?\nsize (0|[1-9]\d{0,15})(?:\r?\n)?$/;
const LFS_POINTER_MAX_BYTES = 1024;

/**
 * The Git LFS pointer a file's text is (its whole text, or its first kilobytes: a pointer is under
 * 1 KB, so a longer head is never one), or undefined.
 */
export function lfsPointer(head: string): LfsPointer | undefined {
  // The spec's limit; the text is ASCII when it matches, so its length is its size in bytes.
  if (head.length >= LFS_POINTER_MAX_BYTES) return undefined;
  const m = LFS_POINTER.exec(head);
  return m ? { oid: m[1], size: Number(m[2]), bytes: head.length } : undefined;
}

/** Characters gitignore-style patterns (git lfs pull --include) treat specially, and its list separator. */
const LFS_PATTERN_SPECIAL = /[*?[\]\\,!#]/;

/**
 * Why a Git LFS pointer is not scored, naming the file, the real file's size and oid and the
 * command that fetches it. `--include` takes gitignore-style patterns relative to the repository's
 * root; a bare file name matches it in any folder, whatever folder the command runs from, so the
 * name is given rather than a path relative to somewhere we cannot know. A name a pattern would
 * read as wildcards gets the plain `git lfs pull`.
 */
export function lfsPointerReason(path: string, pointer: LfsPointer): string {
  const name = baseName(path);
  const pull = LFS_PATTERN_SPECIAL.test(name) ? 'git lfs pull' : `git lfs pull --include=${shellQuote(name)}`;
  return `${name} is a Git LFS pointer (${pointer.bytes} bytes), not the data: the real file (${sizeText(pointer.size)}, oid ${pointer.oid}) was not fetched. Run ${pull} in its repository to fetch it (git lfs pull fetches every such file).`;
}

/** The format of a file, or null when it does not look like predictions of any kind. */
export function detectFormat(path: string, head: string): FormatName | null {
  const name = baseName(path);
  // A pointer committed in place of the data: whatever its name says, no reader can score it.
  if (lfsPointer(head)) return null;
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
