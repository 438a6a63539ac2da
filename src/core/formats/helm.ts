// HELM run folders (per_instance_stats.json, scenario_state.json, stats.json): a placeholder adapter (detects nothing) until its reader lands.
import type { HarnessAdapter } from './adapters';

export const helmAdapter: HarnessAdapter = {
  format: 'helm',
  detect: () => false,
  parse: () => {
    const message = 'Eval Lens does not read HELM run folders (per_instance_stats.json, scenario_state.json, stats.json) yet.';
    return { format: 'helm', set: null, problems: [{ line: 1, severity: 'error', code: 'unscorable', message }], skipped: 0, unlabeled: 0, fatal: message };
  },
};
