// Comparing runs and the leaderboard, driven through the commands in the real extension host. The
// posted comparison is checked against numbers recomputed here from the files themselves: which
// instances each run gets right, the 2×2 agreement, McNemar's exact p (scipy's binomtest, run with
// /usr/bin/python3), and each board cell's macro-F1 (evalLensSupport's reference).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, fixture, FOLKTEXTS, near, RAFT_RUN, raftMacroF1, until } from './evalLensSupport';

interface Row { id: string; score: number; label: number }

function readFolktexts(file: string): Row[] {
  return readFileSync(file, 'utf8').trim().split('\n').slice(1).map((line) => {
    const [id, score, label] = line.split(',');
    return { id, score: Number(score), label: Number(label) };
  });
}

function writeFolktexts(file: string, rows: Row[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, [',risk_score,label', ...rows.map((r) => `${r.id},${r.score},${r.label}`)].join('\n') + '\n');
}

const right = (r: Row) => ((r.score >= 0.5 ? 1 : 0) === r.label ? 1 : 0);

/** The 2×2 agreement over the IDs both runs have, by hand. */
function agreementOf(base: Row[], cand: Row[]) {
  const byId = new Map(cand.map((r) => [r.id, r]));
  const counts = { both_right: 0, baseline_only: 0, candidate_only: 0, both_wrong: 0 };
  for (const b of base) {
    const c = byId.get(b.id);
    if (!c) continue;
    const key = right(b) ? (right(c) ? 'both_right' : 'baseline_only') : right(c) ? 'candidate_only' : 'both_wrong';
    counts[key]++;
  }
  return counts;
}

/** Exact McNemar p from scipy (two-sided binomial test of b successes in b + c at 1/2). */
function scipyMcNemar(b: number, c: number): number {
  if (b + c === 0) return 1;
  const out = execFileSync('/usr/bin/python3', ['-c', `from scipy.stats import binomtest; print(repr(binomtest(${b}, ${b + c}, 0.5).pvalue))`], { encoding: 'utf8' });
  return Number(out.trim());
}

suite('compare runs', () => {
  let scratch: string;
  suiteSetup(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'eval-lens-compare-'));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(scratch, { recursive: true, force: true });
  });

  test('Compare Runs on two selected folktexts files posts the agreement and McNemar test of the files', async () => {
    const a = await api();
    const baseline = fixture(FOLKTEXTS);
    const base = readFolktexts(baseline);
    // The candidate: every fifth score mirrored (1 - s flips its answer), rows in reverse order.
    const cand = base.map((r, k) => ({ ...r, score: k % 5 === 0 ? Number((1 - r.score).toFixed(4)) : r.score })).reverse();
    const candidate = path.join(scratch, 'cand', 'Cand-7B.ACSIncome.test_predictions.csv');
    writeFolktexts(candidate, cand);

    // As the view passes a multi-selection: (clicked item, every selected item).
    const base_ = vscode.Uri.file(baseline);
    await vscode.commands.executeCommand('evalLens.compare', base_, [base_, vscode.Uri.file(candidate)]);
    const panel = await until(() => a.comparePanel(), (p) => !!p?.comparison, 'a comparison', 60_000);
    const view = panel!.comparison!;
    await panel!.whenRendered(30_000);

    const expected = agreementOf(base, cand);
    const c = view.comparison;
    assert.equal(c.kind, 'binary');
    assert.deepEqual(c.runs.map((r) => r.path), [baseline, candidate]);
    assert.equal(c.aligned, base.length);
    assert.deepEqual(c.unmatched, [0, 0]);
    assert.equal(c.agreement[0], null);
    assert.deepEqual(c.agreement[1], expected);
    assert.ok(expected.baseline_only > 0 && expected.candidate_only > 0, 'the fixture has discordant pairs both ways');

    const acc = c.metrics.accuracy!;
    assert.equal(acc.test, 'mcnemar');
    near(acc.values[0], base.reduce((s, r) => s + right(r), 0) / base.length, 'baseline accuracy');
    near(acc.values[1], cand.reduce((s, r) => s + right(r), 0) / cand.length, 'candidate accuracy');
    near(acc.deltas[1], (acc.values[1] as number) - (acc.values[0] as number), 'accuracy delta');
    const p = scipyMcNemar(expected.baseline_only, expected.candidate_only);
    assert.ok(Math.abs((acc.p_values[1] as number) - p) <= 1e-9 * Math.max(p, 1e-300), `McNemar p ${acc.p_values[1]} vs scipy ${p}`);
    assert.equal(c.metrics.auc?.test, 'delong');

    // The panel's instance rows: as many per cell as the counts (below the cap), IDs from the files.
    const pairs = view.pairs[0];
    assert.deepEqual(pairs.counts, expected);
    const ids = new Set(base.map((r) => r.id));
    assert.equal(pairs.rows.length, base.length);
    assert.ok(pairs.rows.every((r) => ids.has(r.id)));
    assert.equal(pairs.rows.filter((r) => r.cell === 'baseline_only').length, expected.baseline_only);
    assert.ok(panel!.progress.length > 0, 'the notification showed progress');
  });

  test('runs with missing and extra IDs are compared on the instances both have', async () => {
    const a = await api();
    const baseline = fixture(FOLKTEXTS);
    const base = readFolktexts(baseline);
    // Drop the first 10 rows, flip every third answer, and add 4 IDs the baseline does not have.
    const kept = base.slice(10).map((r, k) => ({ ...r, score: k % 3 === 0 ? Number((1 - r.score).toFixed(4)) : r.score }));
    const extra = [1, 2, 3, 4].map((k) => ({ id: String(900000 + k), score: 0.9, label: 1 }));
    const cand = [...extra, ...kept];
    const candidate = path.join(scratch, 'partial', 'Partial.ACSIncome.test_predictions.csv');
    writeFolktexts(candidate, cand);
    await vscode.commands.executeCommand('evalLens.compare', vscode.Uri.file(baseline), [vscode.Uri.file(baseline), vscode.Uri.file(candidate)]);
    const panel = await until(() => a.comparePanel(), (p) => p?.comparison?.comparison.runs[1]?.path === candidate, 'the second comparison', 60_000);
    const c = panel!.comparison!.comparison;
    assert.equal(c.aligned, base.length - 10);
    assert.deepEqual(c.unmatched, [10, 4]);
    assert.deepEqual(c.agreement[1], agreementOf(base, cand));
    assert.ok(c.problems.some((p) => /left out/.test(p.message)), 'the left-out instances are reported');
    // The overlaid charts are drawn from the same instances as the table: the candidate's four extra
    // IDs and the baseline's ten dropped rows are in no bin. Its equal-width bins, counted here.
    const views = panel!.comparison!.runs;
    for (const v of views) assert.equal(v.bins!.equalWidth.reduce((n, b) => n + b.count, 0), c.aligned, `${v.label}: binned instances`);
    const counts = new Array(10).fill(0);
    for (const r of kept) counts[Math.min(Math.floor(r.score * 10), 9)]++;
    assert.deepEqual(views[1].bins!.equalWidth.map((b) => b.count), counts);
    assert.equal(views[1].histogram!.correct.reduce((n, x) => n + x, 0) + views[1].histogram!.incorrect.reduce((n, x) => n + x, 0), c.aligned);
  });

  test('runs of different kinds are refused with a clear error', async () => {
    const a = await api();
    const raft = fixture(`${RAFT_RUN}/beta_tickets/predictions.csv`);
    await vscode.commands.executeCommand('evalLens.compare', vscode.Uri.file(raft), [vscode.Uri.file(raft), vscode.Uri.file(fixture(FOLKTEXTS))]);
    const panel = await until(() => a.comparePanel(), (p) => p?.view?.type === 'error', 'an error', 60_000);
    const view = panel!.view as { type: 'error'; message: string };
    assert.match(view.message, /different kinds/);
    assert.match(view.message, /multiclass/);
    assert.match(view.message, /binary/);
  });

  test('a folder and a file inside it, selected together: a clear error, not the file against itself (issue 21, point 6)', async () => {
    const a = await api();
    const file = fixture(FOLKTEXTS);
    const folder = path.dirname(file);
    await vscode.commands.executeCommand('evalLens.compare', vscode.Uri.file(folder), [vscode.Uri.file(folder), vscode.Uri.file(file)]);
    const panel = await until(() => a.comparePanel(), (p) => p?.view?.type === 'error' || p?.view?.type === 'comparison', 'an answer', 60_000);
    assert.equal(panel!.view!.type, 'error', 'no comparison of the file with itself');
    const view = panel!.view as { type: 'error'; message: string };
    assert.match(view.message, /inside the folder/);
    assert.match(view.message, /against itself/);
    assert.ok(view.message.includes(file), view.message);
  });

  test('tabs name RAFT runs by task and run: "Eval Lens: alpha_reviews · run-a", "Compare alpha_reviews: run-a vs run-b" (issue 21, point 12)', async () => {
    const a = await api();
    const folder = path.join(scratch, 'tabs');
    cpSync(fixture(RAFT_RUN), path.join(folder, 'run-a'), { recursive: true });
    cpSync(fixture(RAFT_RUN), path.join(folder, 'run-b'), { recursive: true });
    const fileA = path.join(folder, 'run-a', 'alpha_reviews', 'predictions.csv');
    const fileB = path.join(folder, 'run-b', 'alpha_reviews', 'predictions.csv');
    await vscode.commands.executeCommand('evalLens.compare', vscode.Uri.file(fileA), [vscode.Uri.file(fileA), vscode.Uri.file(fileB)]);
    const panel = await until(() => a.comparePanel(), (p) => p?.view?.type === 'comparison', 'a comparison', 60_000);
    assert.equal(panel!.panel.title, 'Compare alpha_reviews: run-a vs run-b');
    await vscode.commands.executeCommand('evalLens.openReport', vscode.Uri.file(fileB));
    const report = await until(() => a.panel(), (p) => !!p?.reports && p.path === fileB, 'the report', 60_000);
    assert.equal(report!.panel.title, 'Eval Lens: alpha_reviews · run-b');
  });

  test('Show Leaderboard on a folder of RAFT runs posts a runs × tasks board of macro-F1, and exports it as eval-lens board does', async () => {
    const a = await api();
    const folder = path.join(scratch, 'runs');
    cpSync(fixture(RAFT_RUN), path.join(folder, 'run-a'), { recursive: true });
    // run-b answered one task only.
    cpSync(fixture(`${RAFT_RUN}/alpha_reviews`), path.join(folder, 'run-b', 'alpha_reviews'), { recursive: true });
    await vscode.commands.executeCommand('evalLens.showLeaderboard', vscode.Uri.file(folder));
    const panel = await until(() => a.boardPanel(), (p) => !!p?.boardView, 'a leaderboard', 60_000);
    await panel!.whenRendered(30_000);
    const { board, paths, higherIsBetter } = panel!.boardView!;
    assert.equal(board.metric, 'macro_f1');
    assert.equal(higherIsBetter, true);
    assert.deepEqual(board.columns, ['alpha_reviews', 'beta_tickets']);
    // Rows come best first by mean: run-b (one task) may lead; find each by name.
    assert.deepEqual(board.rows.map((r) => r.run).sort(), ['run-a', 'run-b']);
    const runA = board.rows.find((r) => r.run === 'run-a')!;
    const runB = board.rows.find((r) => r.run === 'run-b')!;
    assert.ok(board.rows[0].mean! >= board.rows[1].mean!, 'ranked by mean, best first');
    near(runA.values.alpha_reviews, raftMacroF1('alpha_reviews'), 'run-a alpha_reviews');
    near(runA.values.beta_tickets, raftMacroF1('beta_tickets'), 'run-a beta_tickets');
    near(runA.mean, (raftMacroF1('alpha_reviews') + raftMacroF1('beta_tickets')) / 2, 'run-a mean');
    near(runB.values.alpha_reviews, raftMacroF1('alpha_reviews'), 'run-b alpha_reviews');
    assert.equal(runB.values.beta_tickets ?? null, null);
    assert.equal(paths['run-b'].alpha_reviews, path.join(folder, 'run-b', 'alpha_reviews', 'predictions.csv'));

    // Export: the CSV (one row per run and task, as `eval-lens board --csv`) carries the macro-F1
    // counted here; the Markdown to the clipboard ranks the runs as the board does.
    const csv = vscode.Uri.file(path.join(scratch, 'leaderboard.csv'));
    assert.equal((await panel!.export({ format: 'csv' }, csv) as vscode.Uri | undefined)?.fsPath, csv.fsPath);
    const [head, ...rows] = readFileSync(csv.fsPath, 'utf8').trim().split(/\r?\n/).map((l) => l.split(','));
    assert.deepEqual(head, ['metric', 'rank', 'run', 'task', 'value', 'ci_low', 'ci_high', 'row_mean', 'path', 'rank_low', 'rank_high', 'tier']);
    assert.equal(rows.length, 4, 'two runs × two tasks');
    const cell = (run: string, task: string) => rows.find((r) => r[2] === run && r[3] === task)!;
    near(Number(cell('run-a', 'beta_tickets')[4]), raftMacroF1('beta_tickets'), 'CSV run-a beta_tickets');
    assert.equal(cell('run-b', 'beta_tickets')[4], '', 'a task a run did not answer is empty');
    await vscode.env.clipboard.writeText('');
    assert.equal(await panel!.export({ format: 'markdown', to: 'clipboard' }), 'clipboard');
    const markdown = await vscode.env.clipboard.readText();
    assert.match(markdown, /^## Eval Lens board: `macro_f1` \(higher is better\)/);
    const ranked = markdown.split('\n').filter((l) => /^\| \d+ \|/.test(l)).map((l) => /`([^`]+)`/.exec(l)![1]);
    assert.deepEqual(ranked, board.rows.map((r) => r.run));
  });
});

/** Two folktexts files of `n` rows on the same IDs (the second in reverse order), written fast. */
function writeLargePair(dir: string, n: number): [string, string] {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const a: string[] = new Array(n + 1);
  const b: string[] = new Array(n + 1);
  a[0] = b[0] = ',risk_score,label';
  for (let i = 0; i < n; i++) {
    const y = rand() < 0.4 ? 1 : 0;
    a[i + 1] = `${i},${Math.min(0.999999, Math.max(0, (y ? 0.62 : 0.38) + (rand() - 0.5) * 0.7)).toFixed(6)},${y}`;
    b[n - i] = `${i},${Math.min(0.999999, Math.max(0, (y ? 0.6 : 0.4) + (rand() - 0.5) * 0.6)).toFixed(6)},${y}`;
  }
  const pa = path.join(dir, 'a', 'A.ACSIncome.test_predictions.csv');
  const pb = path.join(dir, 'b', 'B.ACSIncome.test_predictions.csv');
  mkdirSync(path.dirname(pa), { recursive: true });
  mkdirSync(path.dirname(pb), { recursive: true });
  writeFileSync(pa, a.join('\n') + '\n');
  writeFileSync(pb, b.join('\n') + '\n');
  return [pa, pb];
}

suite('compare runs: two 1,000,000-row files', () => {
  let scratch: string;
  let files: [string, string];
  const config = () => vscode.workspace.getConfiguration('evalLens');
  suiteSetup(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'eval-lens-compare-large-'));
    files = writeLargePair(scratch, 1_000_000);
    // Few resamples keep the test short; the bootstrap's speed is measured in bench/.
    await config().update('bootstrap', 20, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    await config().update('bootstrap', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(scratch, { recursive: true, force: true });
  });

  test('compare in the worker with progress, and the extension host stays responsive', async function () {
    this.timeout(240_000);
    const a = await api();
    // The extension host's event loop: the longest gap between ticks of a 20 ms timer.
    let worst = 0;
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 20);
    const t0 = Date.now();
    try {
      await vscode.commands.executeCommand('evalLens.compare', vscode.Uri.file(files[0]), [vscode.Uri.file(files[0]), vscode.Uri.file(files[1])]);
      const panel = await until(() => a.comparePanel(), (p) => p?.view?.type === 'comparison' || p?.view?.type === 'error', 'the large comparison', 200_000);
      assert.equal(panel!.view!.type, 'comparison', JSON.stringify(panel!.view).slice(0, 300));
      await panel!.whenRendered(60_000);
      const c = panel!.comparison!.comparison;
      console.log(`    two 1,000,000-row files compared in ${Date.now() - t0} ms; longest event-loop gap ${worst} ms; progress ${panel!.progress.length} steps`);
      assert.equal(c.aligned, 1_000_000);
      assert.deepEqual(c.unmatched, [0, 0]);
      const counts = c.agreement[1] as Record<string, number>;
      assert.equal(counts.both_right + counts.baseline_only + counts.candidate_only + counts.both_wrong, 1_000_000);
      assert.ok(panel!.progress.length >= 5, `progress shown in steps (${panel!.progress.join(', ')})`);
      assert.ok(worst < 1000, `the host's event loop never stalled for a second (longest gap ${worst} ms)`);
    } finally {
      clearInterval(timer);
    }
  });

  test('cancelling stops the worker and says so', async function () {
    this.timeout(240_000);
    const a = await api();
    await config().update('bootstrap', 2000, vscode.ConfigurationTarget.Global); // long enough to cancel mid-way
    void vscode.commands.executeCommand('evalLens.compare', vscode.Uri.file(files[1]), [vscode.Uri.file(files[1]), vscode.Uri.file(files[0])]);
    const panel = await until(() => a.comparePanel(), (p) => !!p && p.view?.type === 'loading' && p.progress.length > 0, 'a comparison under way', 60_000);
    panel!.cancel();
    await until(() => panel!.view?.type, (t) => t === 'error', 'the cancelled view', 20_000);
    assert.match((panel!.view as { message: string }).message, /cancelled/);
    await until(() => a.workerJobs(), (n) => n === 0, 'no job left in the workers', 20_000);
    await config().update('bootstrap', 20, vscode.ConfigurationTarget.Global);
  });
});
