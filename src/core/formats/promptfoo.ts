// promptfoo results (promptfoo eval -o results.json): a placeholder adapter (detects nothing) until its reader lands.
import type { HarnessAdapter } from './adapters';

export const promptfooAdapter: HarnessAdapter = {
  format: 'promptfoo',
  detect: () => false,
  parse: () => {
    const message = 'Eval Lens does not read promptfoo results (promptfoo eval -o results.json) yet.';
    return { format: 'promptfoo', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  },
};
