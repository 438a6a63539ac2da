// OpenCompass predictions: a placeholder adapter (detects nothing) until its reader lands.
import type { HarnessAdapter } from './adapters';

export const openCompassAdapter: HarnessAdapter = {
  format: 'opencompass',
  detect: () => false,
  parse: () => {
    const message = 'Eval Lens does not read OpenCompass predictions yet.';
    return { format: 'opencompass', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  },
};
