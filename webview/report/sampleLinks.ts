// The report page's ways into the sample view (issue 29): what the page tells the host of a row whose
// sample the peek (samplePeek.ts) or the sample tab shows; the search box asks the host to look
// inside the conversations, which the page does not hold. Pure but for `post`.
import type { Report, SampleRow } from '../../src/core/types';
import type { HostToWebview } from '../../src/protocol';
import { hasSampleView, SAMPLE_FILE_FORMATS } from '../../src/common/sampleView';
import { instanceId } from '../../src/common/instanceIds';
import { instanceText } from './data';
import { className } from './tableModel';
import { post } from '../common/vscodeApi';

/** Whether rows of this report open the sample view. */
export function opensSamples(report: Report): boolean {
  return hasSampleView(report.format, !!report.texts?.fields.length);
}

/** What the page tells the host of row i: where it is and what the report shows of it. */
export function sampleRowOf(report: Report, i: number): SampleRow {
  const inst = report.instances!;
  const row: SampleRow = { line: inst.lines[i] };
  const id = instanceId(inst, i);
  if (id !== undefined) row.id = id;
  const texts = report.texts;
  if (texts?.fields.length) row.texts = { fields: texts.fields, values: texts.fields.map((_, f) => instanceText(texts, i, f)) };
  if (report.kind === 'multiclass' || report.kind === 'binary') {
    if (inst.gold[i] >= 0) row.gold = className(report, inst.gold[i]);
    if (inst.pred[i] >= 0) row.pred = className(report, inst.pred[i]);
  }
  if (Number.isFinite(inst.confidence[i])) row.confidence = inst.confidence[i];
  if (report.kind !== 'probability' && report.kind !== 'scores') row.correct = inst.correct[i] === 1;
  return row;
}

// ---------------------------------------------------------------------------------------------
// The search inside conversations

/** Reports whose file holds conversations the page does not (Inspect logs, EEE instance files). */
export function searchesConversations(report: Report): boolean {
  return SAMPLE_FILE_FORMATS.includes(report.format) && report.format !== 'lm-eval';
}

type Matches = Extract<HostToWebview, { type: 'conversationMatches' }>;
const waiting = new Map<number, (m: Matches) => void>();
let searches = 0;

/** Asks the host which rows' conversations hold the query's text terms; resolves with its answer. */
export function searchConversations(reportIndex: number, query: string): Promise<Matches> {
  const search = ++searches;
  return new Promise((resolve) => {
    waiting.set(search, resolve);
    post({ type: 'searchConversations', report: reportIndex, search, query });
  });
}

/** The host's answer (main.ts routes 'conversationMatches' here). */
export function receiveConversationMatches(message: Matches): void {
  const resolve = waiting.get(message.search);
  if (!resolve) return;
  waiting.delete(message.search);
  resolve(message);
}
