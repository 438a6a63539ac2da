// FastChat MT-Bench judgments: a placeholder adapter (detects nothing) until its reader lands.
import type { HarnessAdapter } from '../formats/adapters';

export const mtBenchAdapter: HarnessAdapter = {
  format: 'mt-bench',
  detect: () => false,
  parse: () => {
    const message = 'Eval Lens does not read FastChat MT-Bench judgments yet.';
    return { format: 'mt-bench', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  },
};
