// arena battles: a placeholder adapter (detects nothing) until its reader lands.
import type { HarnessAdapter } from '../formats/adapters';

export const arenaAdapter: HarnessAdapter = {
  format: 'arena',
  detect: () => false,
  parse: () => {
    const message = 'Eval Lens does not read arena battles yet.';
    return { format: 'arena', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  },
};
