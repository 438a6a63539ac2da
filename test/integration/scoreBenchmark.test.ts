// "Eval Lens: Score Benchmark" called with arguments (no UI) for every format, checked against
// numbers computed from the fixtures by hand; cancellation stops a long run; and a file rewritten
// while being scored ends with the score of its latest content.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ScoreResult } from '../../src/extension/worker/workerProtocol';
import {
  ALMANACS, api, binaryReference, FOLKTEXTS, fixture, GENERIC, genericAccuracy, LM_EVAL, lmEvalAccuracy, almanacsMse, near,
  RAFT_DATA, RAFT_RUN, raftMacroF1, until,
} from './evalLensSupport';

function score(args: Record<string, unknown>): Thenable<ScoreResult | undefined> {
  return vscode.commands.executeCommand<ScoreResult | undefined>('evalLens.scoreBenchmark', { show: false, ...args });
}

function reportTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('evalLens.report'));
}

/** A folktexts-style file big enough that scoring it takes a while. */
function bigFolktexts(file: string, rows: number): void {
  const parts = [',risk_score,label\n'];
  for (let i = 0; i < rows; i++) parts.push(`${i},${((i * 7919) % 10007) / 10007},${i % 3 === 0 ? 1 : 0}\n`);
  writeFileSync(file, parts.join(''));
}

suite('Score Benchmark', () => {
  const scratch = () => fixture('scratch-score');
  suiteSetup(() => {
    rmSync(scratch(), { recursive: true, force: true });
    mkdirSync(scratch(), { recursive: true });
  });
  suiteTeardown(async () => {
    rmSync(scratch(), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('folktexts: a file', async () => {
    await api();
    const ref = binaryReference(FOLKTEXTS);
    const r = await score({ path: fixture(FOLKTEXTS), format: 'folktexts' });
    assert.ok(r);
    assert.equal(r.reports.length, 1);
    const rep = r.reports[0];
    assert.equal(rep.format, 'folktexts');
    assert.equal(rep.kind, 'binary');
    assert.equal(rep.n, ref.n);
    near(rep.metrics.ece, ref.ece, 'ece');
    near(rep.metrics.auc, ref.auc, 'auc');
    near(rep.metrics.brier, ref.brier, 'brier');
    near(rep.metrics.accuracy, ref.accuracy, 'accuracy');
    // First pass without bootstrap (charts at once), then the intervals (evalLens.bootstrap, default 200).
    assert.equal(rep.options.bootstrap, 0);
    const full = await (await api()).scoring.whenIntervals();
    assert.ok(full, 'an intervals pass ran');
    assert.equal(full.reports[0].options.bootstrap, 200);
    const ece = full.reports[0].intervals.ece;
    assert.ok(ece && 0 <= ece[0] && ece[0] <= ece[1] && ece[1] <= 1, `an interval for ece: ${ece}`);
    near(full.reports[0].metrics.ece, ref.ece, 'ece of the intervals pass');
  });

  test('RAFT: a run folder with the data folder from the setting', async () => {
    const r = await score({ path: fixture(RAFT_RUN), format: 'raft' });
    assert.ok(r);
    assert.deepEqual(r.reports.map((x) => x.task ?? x.path.split('/').at(-2)).sort(), ['alpha_reviews', 'beta_tickets']);
    const alpha = raftMacroF1('alpha_reviews');
    const beta = raftMacroF1('beta_tickets');
    for (const rep of r.reports) {
      assert.equal(rep.format, 'raft');
      assert.equal(rep.unlabeled, 3);
      near(rep.metrics.macro_f1, rep.path.includes('alpha_reviews') ? alpha : beta, `macro_f1 of ${rep.path}`);
    }
    near(r.summary.raft_score, (alpha + beta) / 2, 'raft_score');
  });

  test('RAFT: one task folder, with the data folder passed as an argument', async () => {
    const r = await score({ uri: vscode.Uri.file(fixture(`${RAFT_RUN}/alpha_reviews`)), format: 'raft', raftData: fixture(RAFT_DATA) });
    assert.ok(r);
    near(r.reports[0].metrics.macro_f1, raftMacroF1('alpha_reviews'), 'macro_f1');
    // The instance texts from train.csv for the stepper travel with the panel's per-instance pages.
    const scheme = r.panel?.[0].instances?.scheme;
    assert.deepEqual(scheme?.textFields, ['Review']);
    assert.ok(r.panel?.[0].instances?.pages.every((p) => p.texts?.every((t) => t.length === 1 && t[0].length > 0)), 'texts in every page');
  });

  test('ALMANACS', async () => {
    const r = await score({ path: fixture(ALMANACS), format: 'almanacs' });
    assert.ok(r);
    assert.equal(r.reports[0].format, 'almanacs');
    assert.equal(r.reports[0].kind, 'probability');
    near(r.reports[0].metrics.mse, almanacsMse(), 'mse');
  });

  test('lm-eval', async () => {
    const r = await score({ path: fixture(LM_EVAL), format: 'lm-eval' });
    assert.ok(r);
    assert.equal(r.reports[0].format, 'lm-eval');
    near(r.reports[0].metrics.accuracy, lmEvalAccuracy(), 'accuracy');
  });

  test('generic', async () => {
    const r = await score({ path: fixture(GENERIC), format: 'generic' });
    assert.ok(r);
    assert.equal(r.reports[0].format, 'generic');
    near(r.reports[0].metrics.accuracy, genericAccuracy(), 'accuracy');
  });

  test('opens the report panel with the result (positional uri + format)', async () => {
    const a = await api();
    const r = await vscode.commands.executeCommand<ScoreResult>('evalLens.scoreBenchmark', vscode.Uri.file(fixture(FOLKTEXTS)), 'folktexts');
    assert.ok(r);
    assert.equal(a.lastScore, r);
    await until(() => reportTabs().length, (n) => n >= 1, 'a report panel tab');
  });

  test('cancelling stops the work at once', async () => {
    const a = await api();
    const big = `${scratch()}/big.test_predictions.csv`;
    bigFolktexts(big, 300_000);
    await a.whenIdle();
    // With the panel's 200 bootstrap resamples this run takes many seconds: cancel it early.
    const source = new vscode.CancellationTokenSource();
    const run = a.scoring.score(big, { bootstrap: 200 }, source.token);
    await until(() => a.workerJobs(), (n) => n === 1, 'the run is in a worker');
    const t0 = Date.now();
    source.cancel();
    await assert.rejects(run, (e: Error) => e.name === 'CancelledError');
    const cancelMs = Date.now() - t0;
    console.log(`    [eval-lens] cancelled a 300,000-row scoring run in ${cancelMs} ms`);
    // Scoring goes on for many seconds; a cancellation that waited for it would take that long. The
    // margin is wide for a loaded 2-core machine (typical: tens of ms).
    assert.ok(cancelMs < 5000, `cancellation took ${cancelMs} ms`);
    assert.equal(a.workerJobs(), 0, 'no job left running');
    // The pool starts a fresh worker for the next request.
    const t1 = Date.now();
    const again = await a.scoring.score(fixture(FOLKTEXTS), {});
    assert.equal(again.reports[0].n, 200);
    assert.ok(Date.now() - t1 < 10_000);
    rmSync(big, { force: true });
  });

  test('a file rewritten while it is scored ends with its latest content', async () => {
    const a = await api();
    const file = `${scratch()}/moving.test_predictions.csv`;
    bigFolktexts(file, 800_000);
    const uri = vscode.Uri.file(file);
    await until(() => a.files.get(uri)?.pending !== undefined || a.files.get(uri)?.result !== undefined, (v) => v, 'the new file is being scored', 30_000);
    writeFileSync(file, ',risk_score,label\n0,0.9,1\n1,0.2,0\n2,0.6,0\n');
    await until(() => a.files.get(uri)?.result?.reports[0]?.n, (n) => n === 3, 'the latest content\'s score', 30_000);
    await a.whenIdle();
    assert.equal(a.files.get(uri)?.result?.reports[0]?.n, 3, 'no stale result replaced it');
    rmSync(file, { force: true });
  });
});
