// AlpacaEval annotations: a placeholder adapter (detects nothing) until its reader lands.
import type { HarnessAdapter } from '../formats/adapters';

export const alpacaEvalAdapter: HarnessAdapter = {
  format: 'alpacaeval',
  detect: () => false,
  parse: () => {
    const message = 'Eval Lens does not read AlpacaEval annotations yet.';
    return { format: 'alpacaeval', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  },
};
