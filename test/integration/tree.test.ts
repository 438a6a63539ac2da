// The Eval Lens tree on the fixture workspace: benchmark groups, headline metrics computed
// independently from the files, problem counts, RAFT runs with raft_score, and files that must not
// be there (RAFT data, a CSV that is not predictions).
import * as assert from 'node:assert/strict';
import { rmSync, mkdirSync, copyFileSync, writeFileSync } from 'node:fs';
import type { TreeSnapshot } from '../../src/extension/activate';
import {
  api, BAD_ROWS, binaryReference, FOLKTEXTS, fixture, genericAccuracy, lmEvalAccuracy, almanacsMse, raftMacroF1, until,
} from './evalLensSupport';

function find(nodes: TreeSnapshot[], label: string): TreeSnapshot {
  const n = nodes.find((x) => x.label === label);
  assert.ok(n, `tree has "${label}" among ${JSON.stringify(nodes.map((x) => x.label))}`);
  return n;
}

/** A tooltip's text without Markdown's backslash escapes. */
const plain = (md: string | undefined) => (md ?? '').replace(/\\(.)/g, '$1');

function allLabels(nodes: TreeSnapshot[]): string[] {
  return nodes.flatMap((n) => [n.label, ...allLabels(n.children)]);
}

suite('tree', () => {
  test('groups the fixture files by benchmark, in a fixed order', async () => {
    const a = await api();
    const tree = a.treeSnapshot();
    // The folktexts run's results.bench-*.json is a summary of results (issue 26.1), listed as one.
    assert.deepEqual(tree.map((g) => g.label), ['folktexts', 'RAFT', 'ALMANACS', 'lm-eval', 'generic', 'summaries', 'Not scored']);
    // Labels leave out what the group says (.test_predictions.csv, samples_..._<time>.jsonl).
    assert.deepEqual(find(tree, 'folktexts').children.map((c) => c.label).sort(), ['Mistral-7B.ACSIncome', 'bad_rows']);
    assert.equal(find(tree, 'folktexts').description, '2 files');
  });

  test('shows each file\'s headline metric and problem count', async () => {
    const tree = (await api()).treeSnapshot();
    const folk = find(tree, 'folktexts').children;
    assert.equal(find(folk, 'Mistral-7B.ACSIncome').description, `ECE ${binaryReference(FOLKTEXTS).ece.toFixed(3)}`);
    const bad = find(folk, 'bad_rows').description ?? '';
    assert.match(bad, /^ECE \d\.\d{3} · 8 problems$/);
    assert.equal(find(find(tree, 'ALMANACS').children, 'advanced_ai_risk').description, `MSE ${almanacsMse().toFixed(3)}`);
    assert.equal(find(find(tree, 'lm-eval').children, 'toy_colours').description, `acc ${lmEvalAccuracy().toFixed(3)}`);
    assert.equal(find(find(tree, 'generic').children, 'qa_confidence.csv').description, `acc ${genericAccuracy().toFixed(3)}`);
  });

  test('groups RAFT tasks under their run folder with raft_score', async () => {
    const tree = (await api()).treeSnapshot();
    const runs = find(tree, 'RAFT').children;
    assert.deepEqual(runs.map((r) => r.label), ['raft-run']);
    const alpha = raftMacroF1('alpha_reviews');
    const beta = raftMacroF1('beta_tickets');
    assert.equal(runs[0].description, `raft_score ${((alpha + beta) / 2).toFixed(3)} · 2 tasks`);
    assert.deepEqual(runs[0].children.map((t) => [t.label, t.description]), [
      ['alpha_reviews', `macro-F1 ${alpha.toFixed(3)}`],
      ['beta_tickets', `macro-F1 ${beta.toFixed(3)}`],
    ]);
  });

  test('keeps files that are not predictions out of the benchmark groups', async () => {
    const groups = (await api()).treeSnapshot().filter((g) => g.label !== 'Not scored');
    const labels = allLabels(groups);
    assert.ok(!labels.includes('cities.csv'), 'a CSV of cities is not predictions');
    assert.ok(!labels.includes('train.csv'), 'RAFT data is not predictions');
    assert.ok(!labels.includes('task.json'));
  });

  test('lists the data files it looked at and did not score under "Not scored", with the reason', async () => {
    const a = await api();
    const group = find(a.treeSnapshot(), 'Not scored');
    // The include globs pick CSVs and JSON: cities.csv and the two RAFT tasks' train.csv and task.json were looked at.
    assert.deepEqual(group.children.map((c) => [c.label, c.description]), [
      ['cities.csv', 'not scored'], ['task.json', 'not scored'], ['train.csv', 'not scored'], ['task.json', 'not scored'], ['train.csv', 'not scored'],
    ]);
    assert.equal(group.description, '5 data files');
    const cities = find(group.children, 'cities.csv');
    assert.match(plain(cities.tooltip), /No prediction columns: city, country, population/);
    assert.match(plain(find(group.children, 'train.csv').tooltip), /task data/);
    // A new file that is not predictions appears there, and leaves when it is deleted.
    const dir = fixture('scratch-unscored');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(`${dir}/notes.csv`, 'city,country\nParis,France\n');
      const child = () => a.treeSnapshot().find((g) => g.label === 'Not scored')?.children.find((c) => c.label === 'notes.csv');
      const node = await until(child, (c) => c !== undefined, 'the new data file is listed as not scored');
      assert.match(plain(node!.tooltip), /No prediction columns: city, country/);
      // A one-row table of metric columns is a results summary (issue 26.1): listed as one, with its figures.
      writeFileSync(`${dir}/leaderboard.csv`, 'model,accuracy,f1\nA,0.5,0.4\n');
      const summary = () => a.treeSnapshot().find((g) => g.label === 'summaries')?.children.find((c) => c.label === 'leaderboard.csv');
      const listed = await until(summary, (c) => c !== undefined && /2 figures/.test(c.description ?? ''), 'the summary is listed with its figures');
      assert.match(plain(listed!.tooltip), /a table of metrics per model: 2 figures/);
      rmSync(dir, { recursive: true, force: true });
      await until(child, (c) => c === undefined, 'the deleted file leaves the list');
      await until(summary, (c) => c === undefined, 'the deleted summary leaves the list');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('two files of the same name in different folders say their folder (issue 28, point 12)', async () => {
    const a = await api();
    const dir = fixture('scratch-twins');
    rmSync(dir, { recursive: true, force: true });
    try {
      for (const run of ['baseline', 'candidate']) {
        mkdirSync(`${dir}/${run}`, { recursive: true });
        copyFileSync(fixture(BAD_ROWS), `${dir}/${run}/regressed.test_predictions.csv`);
      }
      const twins = () => find(a.treeSnapshot(), 'folktexts').children.filter((c) => c.label.startsWith('regressed'));
      const shown = await until(twins, (t) => t.length === 2 && t.every((c) => /ECE/.test(c.description ?? '')), 'both files scored in the tree');
      const descriptions = shown.map((c) => c.description ?? '').sort();
      assert.match(descriptions[0], /^scratch-twins\/baseline · ECE /);
      assert.match(descriptions[1], /^scratch-twins\/candidate · ECE /);
      // A name no other file has keeps its description as it was.
      assert.equal(find(find(a.treeSnapshot(), 'folktexts').children, 'Mistral-7B.ACSIncome').description, `ECE ${binaryReference(FOLKTEXTS).ece.toFixed(3)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await until(() => allLabels(a.treeSnapshot()), (l) => !l.some((x) => x.startsWith('regressed')), 'the twins gone');
    }
  });

  test('follows files being created and deleted', async () => {
    const a = await api();
    const dir = fixture('scratch-tree');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      copyFileSync(fixture(BAD_ROWS), `${dir}/copy.test_predictions.csv`);
      await until(() => allLabels(a.treeSnapshot()), (l) => l.includes('copy'), 'the created file appears');
      rmSync(dir, { recursive: true, force: true });
      await until(() => allLabels(a.treeSnapshot()), (l) => !l.includes('copy'), 'the deleted folder\'s file disappears');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
