// A report made ahead (issue 28 point 11): once the tree has scored the workspace, the newest files
// a click opens as a report (large or binary) have their report's first pass made in the tree's
// worker (src/extension/report/prepareAhead.ts, preparedReports.ts). Opening one shows that pass,
// without scoring the file for it, and its intervals follow; a changed file is prepared again from
// its new content; a file that opens as text is never prepared. In the real extension host, on a
// real Parquet table copied into the workspace.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { api, fixture, until, workspaceRoot } from './evalLensSupport';

const REPORT_EDITOR = 'evalLens.reportEditor';

/** A Parquet table of `rows` scores and labels (id, score, label), labels following the scores. */
function writeLargeTable(file: string, rows: number): void {
  const id: string[] = [];
  const score: number[] = [];
  const label: number[] = [];
  for (let i = 0; i < rows; i++) {
    const s = ((i * 7919) % 100_003) / 100_003;
    id.push(`r${i}`);
    score.push(s);
    label.push(((i * 104_729) % 1000) / 1000 < s ? 1 : 0);
  }
  const columnData = [{ name: 'id', data: id, type: 'STRING' }, { name: 'score', data: score, type: 'DOUBLE' }, { name: 'label', data: label, type: 'INT32' }];
  writeFileSync(file, new Uint8Array(parquetWriteBuffer({ columnData: columnData as never, rowGroupSize: 50_000 })));
}
const repo = (rel: string) => resolve(workspaceRoot(), '../../..', rel);

suite('a report made ahead for the newest large or binary file', () => {
  let dir: string;
  let path: string;
  suiteSetup(() => {
    dir = fixture('prepared-ahead');
    mkdirSync(dir, { recursive: true });
    path = join(dir, 'scores.parquet');
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
    const a = await api();
    await until(() => a.files.get(vscode.Uri.file(path)), (e) => e === undefined, 'the copied table gone from the tree', 30_000);
  });

  async function closeAll(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const a = await api();
    await until(() => a.panel(), (p) => p === undefined, 'the report tab closed');
  }

  /** The file's pass is made and waits for a click, from the file as it is now. */
  async function preparedNow(): Promise<void> {
    const a = await api();
    const mtime = statSync(path).mtimeMs;
    await until(() => a.scoring.prepared.readyPaths().includes(path) && a.files.get(vscode.Uri.file(path))?.result !== undefined, (ok) => ok, `the report of ${path} made ahead`, 60_000);
    assert.ok(statSync(path).mtimeMs === mtime);
  }

  async function open() {
    const a = await api();
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(path), REPORT_EDITOR);
    const panel = await until(() => a.panel(), (p) => p?.path === path && !!p.reports, 'the report editor', 60_000);
    await panel!.whenRendered(path, 60_000);
    return panel!;
  }

  /** The file scored now, without intervals: the numbers the report must show. */
  async function scoredNow() {
    const a = await api();
    const result = await a.scoring.score(path, { ...a.scoring.optionsFor(path), bootstrap: 0 }, undefined, undefined, undefined, 'summary');
    return result.reports[0];
  }

  test('the report and its intervals come from the preparation; the numbers are the file\'s', async () => {
    copyFileSync(repo('test/fixtures/parquet/generic_predictions.parquet'), path);
    await preparedNow();
    const a = await api();
    // Then its intervals, in the idle worker.
    await until(() => a.scoring.prepared.withIntervals(path), (ok) => ok, 'the intervals made ahead', 60_000);
    const passesBefore = { ...a.scoring.firstPasses };
    const intervalsBefore = a.scoring.intervalsPasses;
    const panel = await open();
    assert.equal(a.scoring.firstPasses.prepared, passesBefore.prepared + 1, 'the prepared pass was shown');
    assert.equal(a.scoring.firstPasses.scored, passesBefore.scored, 'the file was not scored again for the first chart');
    assert.equal(a.scoring.intervalsPasses, intervalsBefore, 'no intervals pass ran for this open');
    assert.deepEqual(a.scoring.prepared.readyPaths().includes(path), false, 'used once: the panel holds it');
    const reference = await scoredNow();
    const shown = panel.reports![0];
    assert.equal(shown.n, reference.n);
    assert.ok(shown.n > 0);
    assert.deepEqual(shown.metrics, reference.metrics);
    // The intervals with the first chart are the ones a pass run now gives (the same resamples).
    const withBootstrap = (await a.scoring.score(path, a.scoring.optionsFor(path), undefined, undefined, undefined, 'summary')).reports[0];
    assert.ok(Object.keys(withBootstrap.intervals ?? {}).length > 0, 'the reference has intervals');
    assert.deepEqual(shown.intervals, withBootstrap.intervals);
    assert.equal(shown.options.bootstrap, withBootstrap.options.bootstrap);
    // The table's rows come from the prepared instance pages.
    const table = await panel.whenInstancesReady(path, 60_000);
    assert.equal(table.rows, reference.n);
    await closeAll();
  });

  test('a click while the intervals are being made ahead keeps the parts made and makes the rest: the intervals are the single pass\'s (issue 28.11)', async function () {
    this.timeout(300_000);
    const a = await api();
    const config = vscode.workspace.getConfiguration('evalLens');
    // A set large enough for its intervals to be made in parts (150,000 rows), well calibrated (its
    // smoothed ECE asks for the finest grid: ~25 ms a resample), and enough resamples for a part to
    // last a while (100 resamples, ~2.5 s on an idle core): the click comes between two parts.
    writeLargeTable(path, 150_000);
    try {
      await config.update('bootstrap', 400, vscode.ConfigurationTarget.Global);
      await until(() => a.scoring.optionsFor(path).bootstrap, (b) => b === 400, 'the setting read');
      await preparedNow();
      await until(() => a.scoring.prepared.partsMade(path), (k) => k >= 1, 'a part of the intervals made ahead', 120_000);
      const intervalsBefore = a.scoring.intervalsPasses;
      const panel = await open();
      const kept = a.scoring.partsKept;
      assert.ok(kept >= 1 && kept < a.scoring.partsAhead, `the click came between two parts: ${kept} of ${a.scoring.partsAhead} kept`);
      assert.equal(a.scoring.intervalsPasses, intervalsBefore + 1, 'the click made the rest');
      const shown = await until(() => panel.reports?.[0], (r) => Object.keys(r?.intervals ?? {}).length > 0, 'the intervals', 120_000);
      // The same resamples as one pass run now, so the same intervals to the last digit.
      const single = (await a.scoring.score(path, a.scoring.optionsFor(path), undefined, undefined, undefined, 'summary')).reports[0];
      assert.ok(Object.keys(single.intervals).length > 10, 'the reference has intervals');
      assert.deepEqual(shown!.intervals, single.intervals);
      assert.deepEqual(shown!.smoothReliability?.lower, single.smoothReliability?.lower);
      assert.equal(shown!.options.bootstrap, 400);
      await closeAll();
    } finally {
      await config.update('bootstrap', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('the file changed: prepared again from its new content, and that is what opens', async () => {
    // Another table at the same path (its closed tab's report no longer stands for it).
    copyFileSync(repo('test/fixtures/parquet/pyarrow_generic.parquet'), path);
    const a = await api();
    await until(() => a.files.get(vscode.Uri.file(path))?.result?.reports[0]?.n, (n) => n !== undefined, 'the tree scored the new table', 60_000);
    await preparedNow();
    const before = { ...a.scoring.firstPasses };
    const panel = await open();
    assert.equal(panel.keptState, undefined, 'the closed tab\'s report of the old table is not shown');
    assert.equal(a.scoring.firstPasses.prepared, before.prepared + 1);
    const reference = await scoredNow();
    assert.equal(panel.reports![0].n, reference.n);
    assert.deepEqual(panel.reports![0].metrics, reference.metrics);
    await closeAll();
  });

  test('evalLens.bootstrap changed after the intervals were made ahead: the report shows intervals of the new count, never the old', async () => {
    const a = await api();
    const config = vscode.workspace.getConfiguration('evalLens');
    copyFileSync(repo('test/fixtures/parquet/generic_predictions.parquet'), path);
    await preparedNow();
    await until(() => a.scoring.prepared.withIntervals(path), (ok) => ok, 'the intervals made ahead', 60_000);
    const before = config.get<number>('bootstrap') ?? 200;
    const changed = before === 50 ? 60 : 50;
    try {
      await config.update('bootstrap', changed, vscode.ConfigurationTarget.Global);
      const panel = await open();
      const shown = await until(() => panel.reports?.[0], (r) => (r?.options.bootstrap ?? 0) > 0 && Object.keys(r?.intervals ?? {}).length > 0, 'the intervals', 60_000);
      assert.equal(shown!.options.bootstrap, changed);
      await closeAll();
    } finally {
      await config.update('bootstrap', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('evalLens.prepareReports off: nothing is made ahead, and what was is dropped', async () => {
    const a = await api();
    const config = vscode.workspace.getConfiguration('evalLens');
    copyFileSync(repo('test/fixtures/parquet/generic_predictions.parquet'), path);
    await preparedNow();
    try {
      await config.update('prepareReports', false, vscode.ConfigurationTarget.Global);
      await until(() => a.scoring.prepared.paths(), (p) => p.length === 0, 'the prepared reports dropped', 30_000);
      copyFileSync(repo('test/fixtures/parquet/pyarrow_generic.parquet'), path);
      await until(() => a.files.get(vscode.Uri.file(path))?.result?.reports[0]?.n, (n) => n !== undefined, 'the tree scored the new table', 60_000);
      await a.whenIdle();
      assert.deepEqual(a.scoring.prepared.paths(), []);
      const before = { ...a.scoring.firstPasses };
      await open();
      assert.equal(a.scoring.firstPasses.scored, before.scored + 1, 'scored when opened');
      await closeAll();
    } finally {
      await config.update('prepareReports', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('evalLens.openLargeFilesAsReport off: a click opens no report, so none is made ahead', async () => {
    const a = await api();
    const config = vscode.workspace.getConfiguration('evalLens');
    copyFileSync(repo('test/fixtures/parquet/generic_predictions.parquet'), path);
    await preparedNow();
    try {
      await config.update('openLargeFilesAsReport', false, vscode.ConfigurationTarget.Global);
      await until(() => a.scoring.prepared.paths(), (p) => p.length === 0, 'the prepared reports dropped', 30_000);
    } finally {
      await config.update('openLargeFilesAsReport', undefined, vscode.ConfigurationTarget.Global);
    }
    // On again: the newest binary file is made ahead again.
    await until(() => a.scoring.prepared.paths(), (p) => p.includes(path), 'made ahead again', 30_000);
  });

  test('with a joined data file nothing is made ahead (its groups could change while the file\'s stamp does not)', async () => {
    const a = await api();
    const config = vscode.workspace.getConfiguration('evalLens');
    copyFileSync(repo('test/fixtures/parquet/generic_predictions.parquet'), path);
    await preparedNow();
    const data = join(dir, 'people.csv');
    writeFileSync(data, 'id,region\n0,north\n1,south\n');
    try {
      await config.update('dataFiles', { '**/prepared-ahead/scores.parquet': data }, vscode.ConfigurationTarget.Global);
      await until(() => a.scoring.optionsFor(path).listColumns?.dataPath, (d) => d === data, 'the data file joined', 30_000);
      // Settings changed: the tree scores again, and the choice is made again without it.
      await until(() => a.scoring.prepared.paths(), (p) => !p.includes(path), 'the made-ahead report dropped', 30_000);
      await a.whenIdle();
      assert.equal(a.scoring.prepared.paths().includes(path), false);
    } finally {
      await config.update('dataFiles', undefined, vscode.ConfigurationTarget.Global);
      rmSync(data, { force: true });
    }
  });

  test('a file that opens as text (a small CSV) is not prepared', async () => {
    const a = await api();
    await a.whenIdle();
    const csv = fixture('folktexts/ACSIncome/Mistral-7B.ACSIncome.test_predictions.csv');
    assert.ok(a.files.get(vscode.Uri.file(csv))?.result, 'the tree scored the CSV');
    assert.equal(a.scoring.prepared.paths().includes(csv), false);
  });
});
