// lighteval details (details_*.parquet) and results: a placeholder adapter (detects nothing) until its reader lands.
import type { HarnessAdapter } from './adapters';

export const lightevalAdapter: HarnessAdapter = {
  format: 'lighteval',
  detect: () => false,
  parse: () => {
    const message = 'Eval Lens does not read lighteval details (details_*.parquet) and results yet.';
    return { format: 'lighteval', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  },
};
