// Inspect's log listing: `inspect view bundle` (the log viewer's static export) writes logs.json
// beside the logs it bundles, an object from each log's file name to that log's header (version,
// status, eval, plan, results, stats). It holds no samples, so there is nothing in it to score: the
// logs beside it are scored, each on its own. It is told from a log (a header at the top level) by
// its first key, a log's file name.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { shellQuote } from '../../common/shellQuote';
import { parsePythonJson } from './pythonJson';

/** {"<name>.eval" (or .json): {"version" | "status" | "eval": ...: the listing's first entry. */
const LISTING_HEAD = /^\s*\{\s*"((?:[^"\\]|\\.)+\.(?:eval|json))"\s*:\s*\{\s*"(?:version|status|eval)"\s*:/i;

/** A listing is read whole to name every log it lists only up to this size; larger, its first entry is named. */
const MAX_LISTING_BYTES = 16 * 1024 * 1024;

/** Whether a JSON document's head (its first kilobytes) is Inspect's log listing. */
export function isInspectListing(head: string): boolean {
  return LISTING_HEAD.test(head);
}

/** The log names a listing holds: every key when the file can be read whole, else the first in its head. */
function listedNames(path: string, head: string): string[] {
  try {
    if (statSync(path).size <= MAX_LISTING_BYTES) {
      const doc = parsePythonJson(readFileSync(path, 'utf8')) as unknown;
      if (doc && typeof doc === 'object' && !Array.isArray(doc)) return Object.keys(doc);
    }
  } catch {
    // Not on disk (an unsaved buffer) or not whole: the head names the first log.
  }
  const first = LISTING_HEAD.exec(head);
  return first ? [JSON.parse(`"${first[1]}"`) as string] : [];
}

function nameList(names: string[], max = 6): string {
  return `${names.slice(0, max).join(', ')}${names.length > max ? `, … (${names.length} in all)` : ''}`;
}

/** Why the listing is not scored, naming the logs it lists and which of them are beside it. */
export function inspectListingReason(path: string, head: string): string {
  const dir = dirname(path);
  const names = listedNames(path, head);
  const beside = names.filter((n) => {
    try {
      return existsSync(join(dir, n));
    } catch {
      return false;
    }
  });
  const missing = names.filter((n) => !beside.includes(n));
  const what = `Inspect's log listing (the logs.json \`inspect view bundle\` writes): it holds the headers of ${names.length === 1 ? `1 log, ${names[0]}` : `${names.length} logs (${nameList(names)})`}, not their samples`;
  if (!beside.length) return `${what}, and ${names.length === 1 ? 'that log is' : 'none of them is'} beside it; score the .eval logs themselves.`;
  const command = beside.length === 1 ? shellQuote(join(dir, beside[0])) : shellQuote(dir);
  const besideText = missing.length ? `${beside.length} of them (${nameList(beside)}) ${beside.length === 1 ? 'is' : 'are'} beside it` : names.length === 1 ? 'that log is beside it' : 'they are beside it';
  const scored = beside.length === 1 ? 'is scored on its own' : 'are scored each on its own';
  return `${what}; ${besideText} and ${scored}: eval-lens score ${command}.`;
}
