// Summary files: the figures a run reports (lm-eval and lighteval results, HELM stats.json,
// folktexts results.bench-*.json, an object of metric -> number, OpenCompass and AlpacaEval tables,
// tables of metrics per model, task or threshold). They are shown as what they are: a report with
// n = 0, its figures in `reported` named by task and metric, and no fatal. Detection looks at the
// file's content (its name only for HELM's stats.json); a table of predictions is never claimed.
// A simple_evaluate dump without samples reaches here too, through the lm-eval reader.
import type { ParseResult } from '../types';
import type { HarnessAdapter } from './adapters';
import type { FileInput, FormatContext } from './context';
import { stripBom } from './csv';
import { baseName } from '../../common/paths';
import { parsePythonJson } from './pythonJson';
import { looksLikeGenericTable } from './generic';
import { isSummaryTable, tableSummary } from './summaryTables';
import {
  flatMetricsSummary, helmStatsSummary, helmTablesSummary, isFlatMetrics, isHelmTables, looksLikeHelmTables, isHelmStats, isLightevalResults, isLmEvalResults, isNestedResults,
  lightevalSummary, lmEvalSummary, nestedResultsSummary, summaryResultOf, type JsonSummary,
} from './summaryJson';
import { summaryFailure } from './summaryFigures';

/** How much of a file detection reads (detect.ts's DETECT_HEAD_BYTES): a head this long may be cut. */
const HEAD_BYTES = 16 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the file (its name and first kilobytes) is a summary. */
export function isSummary(path: string, head: string): boolean {
  const name = baseName(path);
  const text = stripBom(head);
  // A cut head is shorter in characters than in bytes only for non-ASCII text: compare bytes.
  const complete = new TextEncoder().encode(head).length < HEAD_BYTES;
  if (/\.json$/i.test(name)) {
    const first = text.trimStart()[0];
    if (looksLikeHelmTables(text)) return true;
    if (first === '[') return /^stats\.json$/i.test(name) && /^\s*\[\s*\{\s*"name"\s*:\s*\{\s*"name"\s*:/.test(text);
    if (first !== '{') return false;
    // Results documents are large (configs, environment): their first keys say what they are.
    if (/"config_general"\s*:/.test(text) && /"results"\s*:\s*\{/.test(text)) return true;
    if (/^results.*\.json$/i.test(name) && /"results"\s*:\s*\{/.test(text) && /"[^"]+,[^"]+"\s*:|"versions"\s*:|"n-samples"\s*:/.test(text)) return true;
    // An object of metric -> number is small: read whole from the head.
    if (!complete || looksLikeGenericTable(path, head)) return false;
    try {
      const doc = parsePythonJson(text);
      return isFlatMetrics(doc) || isNestedResults(doc);
    } catch {
      return false;
    }
  }
  return isSummaryTable(path, head, complete);
}

/** Read a summary file (or a document detection took for one) into its figures. */
export function parseSummary(input: FileInput, ctx: FormatContext): ParseResult {
  const name = baseName(input.path);
  let text: string;
  try {
    text = stripBom(input.text());
  } catch (e) {
    return summaryFailure(e instanceof Error ? e.message : String(e));
  }
  const first = text.trimStart()[0];
  if (/\.json$/i.test(name) || first === '{' || first === '[') {
    let doc: unknown;
    try {
      doc = parsePythonJson(text);
    } catch (e) {
      return summaryFailure(`${name} is not valid JSON (${e instanceof Error ? e.message : String(e)}).`);
    }
    const read = jsonSummary(doc, input.path, ctx);
    if (!read) return summaryFailure(`${name} is JSON, but neither a results file, a stats.json nor an object of metrics.`);
    return summaryResultOf(read);
  }
  return summaryResultOf(tableSummary(input.path, text));
}

/** The figures of a JSON summary document, or undefined when it is none of the shapes. */
export function jsonSummary(doc: unknown, path: string, ctx: FormatContext): JsonSummary | undefined {
  if (isHelmStats(doc)) return helmStatsSummary(doc, path, ctx);
  if (isHelmTables(doc)) return helmTablesSummary(doc);
  if (!isObject(doc)) return undefined;
  if (isLightevalResults(doc)) return lightevalSummary(doc);
  if (isLmEvalResults(doc)) return lmEvalSummary(doc);
  if (isFlatMetrics(doc)) return flatMetricsSummary(doc, path);
  if (isNestedResults(doc)) return nestedResultsSummary(doc);
  return undefined;
}

export const summaryAdapter: HarnessAdapter = {
  format: 'summary',
  detect: isSummary,
  parse: parseSummary,
};
