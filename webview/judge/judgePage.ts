// The judge views' hooks into the report page (webview/report/main.ts): the panels, the stepper in
// the stepper's place (or the page's word why there is none), and the host's reading of a row's
// whole record, answered by a 'record' message this module listens for itself.
import type { Report } from '../../src/core/types';
import type { HostToWebview } from '../../src/protocol';
import { post } from '../common/vscodeApi';
import { notApplicable } from '../report/reportParts';
import { JudgeStepper, noJudgeStepperReason, type JudgeStepperOptions } from './judgeStepper';

export { judgePanels } from './judgePanels';
export { JudgeStepper } from './judgeStepper';

let requests = 0;
const waiting = new Map<number, (fields: Record<string, string> | null) => void>();

window.addEventListener('message', (event: MessageEvent) => {
  const message = event.data as HostToWebview;
  if (!message || typeof message !== 'object' || message.type !== 'record') return;
  const done = waiting.get(message.request);
  if (!done) return;
  waiting.delete(message.request);
  done(message.fields && typeof message.fields === 'object' ? message.fields : null);
});

/** Asks the host for the record on `line` of report `report`'s file (null when it could not be read). */
export function readRecord(report: number, line: number): Promise<Record<string, string> | null> {
  const request = ++requests;
  return new Promise((resolve) => {
    waiting.set(request, resolve);
    post({ type: 'readRecord', report, line, request });
  });
}

/** The stepper of a judge report's verdicts, or the page's word why it has none (data-na="stepper"). */
export function judgeStepperOrReason(
  report: Report, reportIndex: number, options: Omit<JudgeStepperOptions, 'onLink' | 'readRecord'>,
): { stepper: JudgeStepper } | { reason: HTMLElement } {
  const why = noJudgeStepperReason(report);
  if (why) return { reason: notApplicable('stepper', why) };
  const lines = report.instances?.lines;
  return {
    stepper: new JudgeStepper(report, {
      ...options,
      onLink: (url) => post({ type: 'openLink', url }),
      readRecord: lines ? (i) => readRecord(reportIndex, lines[i]) : undefined,
    }),
  };
}
