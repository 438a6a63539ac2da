// summary files (figures a run reports): a placeholder adapter (detects nothing) until its reader lands.
import type { HarnessAdapter } from './adapters';

export const summaryAdapter: HarnessAdapter = {
  format: 'summary',
  detect: () => false,
  parse: () => {
    const message = 'Eval Lens does not read summary files (figures a run reports) yet.';
    return { format: 'summary', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  },
};
