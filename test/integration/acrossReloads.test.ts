// What a window reload no longer throws away (issue 28, point 11), in the real extension host:
// - a report's bootstrap intervals (report/savedIntervals.ts): the report scored again shows them
//   with its first pass and makes no resample, the same intervals a pass run now gives; a file
//   rewritten, or other options, compute them anew;
// - a large report itself (report/storedReports.ts): once its intervals are in, it is written to the
//   extension's storage, and opened again when nothing is kept in memory (as after a reload) it is
//   shown from there, intervals and table, without scoring the file for it, then checked against
//   the file; a file rewritten is scored anew.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ReportPanel } from '../../src/extension/report/reportPanel';
import { api, until } from './evalLensSupport';
import { writeFolktexts } from './largeSupport';

const REPORT_EDITOR = 'evalLens.reportEditor';

suite('reports and intervals kept across window reloads', () => {
  let dir: string;
  suiteSetup(() => {
    dir = mkdtempSync(join(tmpdir(), 'eval-lens-reloads-'));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(path: string): Promise<ReportPanel> {
    const a = await api();
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(path), REPORT_EDITOR);
    const panel = await until(() => a.panel(), (p) => p?.path === path && !!p.reports, 'the report editor', 60_000);
    await panel!.whenRendered(path, 60_000);
    return panel!;
  }

  async function closeAll(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const a = await api();
    await until(() => a.panel(), (p) => p === undefined, 'the report tab closed');
  }

  const withIntervals = (p: ReportPanel) => (p.reports?.[0]?.options.bootstrap ?? 0) > 0 && Object.keys(p.reports![0].intervals ?? {}).length > 0;

  test('intervals: the report scored again shows the ones made before, no resample made; a rewritten file computes them anew', async () => {
    const a = await api();
    const path = join(dir, 'saved.test_predictions.csv');
    await writeFolktexts(path, 30_000, 3);
    const saved = a.scoring.saved;
    assert.ok(saved, 'intervals are saved in this window');
    const savedBefore = saved.counts.saved;
    const first = await a.scoring.scoreForReport(path);
    assert.equal(first.intervalsPending, 200, 'the first time, an intervals pass is started');
    const made = await a.scoring.whenIntervals();
    assert.ok(made && Object.keys(made.reports[0].intervals).length > 10);
    // Saved as the pass settled (before whenIntervals resolves).
    assert.equal(saved.counts.saved, savedBefore + 1, 'the intervals saved');

    const passes = a.scoring.intervalsPasses;
    const used = saved.counts.used;
    const again = await a.scoring.scoreForReport(path);
    assert.equal(again.intervalsPending, undefined, 'nothing pending: the intervals came with the first pass');
    assert.equal(a.scoring.intervalsPasses, passes, 'no intervals pass started');
    assert.equal(saved.counts.used, used + 1);
    // The same intervals as a pass run now (the same resamples), to the last digit.
    const reference = (await a.scoring.score(path, a.scoring.optionsFor(path), undefined, undefined, undefined, 'summary')).reports[0];
    assert.deepEqual(again.reports[0].intervals, reference.intervals);
    assert.deepEqual(again.reports[0].smoothReliability?.lower, reference.smoothReliability?.lower);
    assert.equal(again.reports[0].options.bootstrap, 200);

    // The file rewritten (other rows, the same count): its intervals are computed anew.
    await writeFolktexts(path, 30_000, 4);
    const rewritten = await a.scoring.scoreForReport(path);
    assert.equal(rewritten.intervalsPending, 200);
    assert.equal(a.scoring.intervalsPasses, passes + 1);
    await a.scoring.whenIntervals();
  });

  test('a large report: stored once complete, shown from disk when nothing is kept in memory, then checked; a rewritten file is scored', async function () {
    this.timeout(240_000);
    const a = await api();
    const stored = a.storedReports();
    assert.ok(stored, 'large reports are stored in this window');
    const big = join(dir, 'big.test_predictions.csv');
    const small = join(dir, 'small.test_predictions.csv');
    await writeFolktexts(big, 250_000, 5);
    await writeFolktexts(small, 2_000, 6);

    const savedBefore = stored.counts.saved;
    const first = await open(big);
    assert.equal(first.keptState, undefined, 'the first open scores the file');
    await until(() => first, withIntervals, 'the intervals', 120_000);
    await until(() => stored.counts.saved, (n) => n === savedBefore + 1, 'the report stored on disk', 60_000);
    const before = first.reports![0];
    await closeAll();
    // Another tab closed after it, complete: the report kept in memory is that one's, as after a
    // reload none is.
    const other = await open(small);
    await until(() => other, withIntervals, 'the other file\'s intervals', 60_000);
    await closeAll();

    const scored = a.scoring.firstPasses.scored;
    const loaded = stored.counts.loaded;
    const again = await open(big);
    assert.equal(stored.counts.loaded, loaded + 1, 'read from disk');
    assert.equal(a.scoring.firstPasses.scored, scored, 'the file was not scored for the first chart');
    assert.ok(withIntervals(again), 'intervals with the first chart');
    assert.deepEqual(again.reports![0].metrics, before.metrics);
    assert.deepEqual(again.reports![0].intervals, before.intervals);
    const table = await again.whenInstancesReady(big, 60_000);
    assert.equal(table.rows, 250_000);
    await until(() => again.keptState, (s) => s === 'confirmed', 'the stored report checked against the file', 60_000);
    await closeAll();
    const otherAgain = await open(small);
    await until(() => otherAgain, withIntervals, 'the other file\'s intervals', 60_000);
    await closeAll();

    // Rewritten: the stored report no longer stands for it.
    await writeFolktexts(big, 250_000, 8);
    const rescored = a.scoring.firstPasses.scored;
    const loadedNow = stored.counts.loaded;
    const fresh = await open(big);
    assert.equal(fresh.keptState, undefined);
    assert.equal(stored.counts.loaded, loadedNow);
    assert.equal(a.scoring.firstPasses.scored, rescored + 1, 'scored for this open');
    assert.notDeepEqual(fresh.reports![0].metrics, before.metrics);
    await closeAll();
  });
});
