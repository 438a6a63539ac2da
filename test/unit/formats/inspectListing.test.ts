// Inspect's log listing (sweep 12, defect 13): `inspect view bundle` writes logs.json beside the
// logs, an object from each log's file name to its header. ControlArena's bundles (UKGovernmentBEIS/
// inspect-evals-log-viewer, no licence: not copied) have one beside each log. It was read as a
// generic table: "No prediction fields: Testing.eval; …". Now it is named for what it is, with the
// logs it lists and which of them are beside it. The listing here is written by hand in that shape.
import { mkdirSync, mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { decideFile } from '../../../src/core/unscored';
import { scorePath } from '../../../src/core/score';

const LOG = resolve(__dirname, '../../fixtures/real/inspect-ai/log_formats.eval');

/** A header as the listing holds it (version, status, eval, plan, results, stats): trimmed to a few fields. */
const header = (task: string) => ({
  version: 2, status: 'success',
  eval: { run_id: 'r', created: '2025-03-13T13:06:05+00:00', task, model: 'anthropic/claude-3-5-sonnet-20240620', config: { epochs: 1 } },
  plan: { name: 'plan', steps: [] },
  results: { total_samples: 5, completed_samples: 5, scores: [{ name: 'main_task_correctness', scorer: 'main_task_correctness', metrics: { accuracy: { name: 'accuracy', value: 0.4 } } }] },
  stats: { started_at: '', completed_at: '' },
});

describe("Inspect's logs.json listing", () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-listing-'));
  const logs = join(dir, 'logs');
  mkdirSync(logs);
  copyFileSync(LOG, join(logs, 'bash_4.eval'));
  const listing = join(logs, 'logs.json');
  writeFileSync(listing, JSON.stringify({ 'bash_4.eval': header('control_arena/bash_task'), 'bash_5.eval': header('control_arena/bash_task') }, null, 2));
  const head = JSON.stringify({ 'bash_4.eval': header('t') }, null, 2).slice(0, 400);

  it('is not scored, and the reason names the logs it lists and the one beside it', () => {
    const decision = decideFile(listing, JSON.stringify({ 'bash_4.eval': header('control_arena/bash_task') }, null, 2).slice(0, 1024));
    expect('reason' in decision).toBe(true);
    const reason = (decision as { reason: string }).reason;
    expect(reason).toMatch(/^Inspect's log listing/);
    expect(reason).toContain('2 logs (bash_4.eval, bash_5.eval)');
    expect(reason).toContain('1 of them (bash_4.eval) is beside it');
    expect(reason).toContain(`eval-lens score ${join(logs, 'bash_4.eval')}`);
    expect(reason).not.toMatch(/prediction fields/);
  });

  it('a listing whose one log is beside it points at that log; a listing of a single log header is no log', () => {
    const alone = join(dir, 'single');
    mkdirSync(alone);
    copyFileSync(LOG, join(alone, 'Testing.eval'));
    writeFileSync(join(alone, 'logs.json'), JSON.stringify({ 'Testing.eval': header('bash_task') }, null, 2));
    const reason = (decideFile(join(alone, 'logs.json'), head) as { reason: string }).reason;
    expect(reason).toContain('1 log, Testing.eval, not their samples; that log is beside it and is scored on its own');
    // An Inspect log itself (its header at the top level) is still a log.
    expect(decideFile(join(alone, 'x.json'), JSON.stringify({ version: 2, status: 'success', eval: {} }))).toEqual({ format: 'inspect' });
  });

  it('`score logs.json` says so (exit 2); the folder scores the log and lists the listing as not scored', async () => {
    const res = await runCli(['score', listing]);
    expect(res.code).toBe(2);
    expect(res.stdout).toMatch(/not scored: Inspect's log listing/);
    const { reports } = scorePath(logs, { bootstrap: 0 });
    const byName = Object.fromEntries(reports.map((r) => [r.path.split('/').pop(), r]));
    expect(byName['bash_4.eval'].format).toBe('inspect');
    expect(byName['bash_4.eval'].notScored).toBeFalsy();
    expect(byName['logs.json'].notScored).toBe(true);
    expect(byName['logs.json'].fatal).toMatch(/^Inspect's log listing/);
  });
});
