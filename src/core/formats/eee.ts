// Every Eval Ever aggregate and instance files: a placeholder adapter (detects nothing) until its reader lands.
import type { HarnessAdapter } from './adapters';

export const eeeAdapter: HarnessAdapter = {
  format: 'eee',
  detect: () => false,
  parse: () => {
    const message = 'Eval Lens does not read Every Eval Ever aggregate and instance files yet.';
    return { format: 'eee', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  },
};
