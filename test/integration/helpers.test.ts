// The extension's small pure helpers, run in the extension host with the rest (they sit in modules
// that import vscode): glob matching for the exclude setting, the percent quick fix's arithmetic,
// Markdown escaping of file text, and the headline metric per kind.
import * as assert from 'node:assert/strict';
import { globsMatcher, globToRegExp } from '../../src/extension/discovery/glob';
import { lensMetrics, summaryLine } from '../../src/extension/editor/headline';
import { headlineMetric } from '../../src/common/metricTable';
import { escapeMarkdown, instanceAtLine } from '../../src/extension/editor/hover';
import { percentToDecimal } from '../../src/extension/editor/quickFixes';
import type { Report } from '../../src/core/types';

suite('helpers', () => {
  test('globs: **, *, ?, braces and classes, as VS Code reads them', () => {
    const excluded = globsMatcher(['**/node_modules/**', '**/.git/**', '**/{out,dist}/**']);
    assert.ok(excluded('node_modules/pkg/a.csv'));
    assert.ok(excluded('deep/down/node_modules/x.jsonl'));
    assert.ok(excluded('.git/objects/ab'));
    assert.ok(excluded('sub/out/x.csv') && excluded('dist/y.csv'));
    assert.ok(!excluded('runs/output.csv'));
    assert.ok(!excluded('my_node_modules_notes/a.csv'));
    assert.ok(globToRegExp('**/samples_*.jsonl').test('lm-eval/model/samples_arc_2025.jsonl'));
    assert.ok(globToRegExp('**/samples_*.jsonl').test('samples_arc.jsonl'));
    assert.ok(!globToRegExp('**/samples_*.jsonl').test('lm-eval/results_arc.json'));
    assert.ok(globToRegExp('data/file?.[ct]sv').test('data/file1.tsv'));
    assert.ok(!globToRegExp('data/*.csv').test('data/sub/x.csv'));
  });

  test('percent to decimal moves the point, with no floating-point noise', () => {
    const cases: [string, string][] = [['73', '0.73'], ['12.5', '0.125'], ['100', '1'], ['0.5', '0.005'], ['.5', '0.005'], ['250', '2.5'], ['5', '0.05'], ['0', '0'], ['33.3', '0.333'], ['-3', '-0.03'], ['007', '0.07']];
    for (const [pct, want] of cases) assert.equal(percentToDecimal(pct), want, pct);
  });

  test('file text in hovers and tooltips cannot become markup', () => {
    const hostile = '<img src=x onerror=alert(1)> [link](javascript:alert(1)) **bold** `code` | a\nnew line';
    const md = escapeMarkdown(hostile, 500);
    assert.ok(!/[^\\]</.test(` ${md}`), 'every < is escaped');
    assert.ok(!/[^\\][[\]()*`|]/.test(md.replace(/\\[[\]()*`|]/g, '')), 'link, emphasis, code and table syntax are escaped');
    assert.ok(!md.includes('\n'), 'one line');
    assert.ok(escapeMarkdown('x'.repeat(1000), 50).length <= 50);
  });

  test('instance lookup by line', () => {
    const lines = Uint32Array.from([2, 3, 5, 9, 10]);
    assert.equal(instanceAtLine(lines, 5), 2);
    assert.equal(instanceAtLine(lines, 10), 4);
    assert.equal(instanceAtLine(lines, 4), -1);
    assert.equal(instanceAtLine(Uint32Array.from([7, 3, 5]), 5), 2, 'unsorted lines still work');
  });

  test('headline metric: ECE for risk scores, macro-F1 for RAFT, MSE for ALMANACS, accuracy otherwise', () => {
    assert.equal(headlineMetric({ format: 'folktexts', kind: 'binary' }), 'ece');
    assert.equal(headlineMetric({ format: 'generic', kind: 'binary' }), 'ece');
    assert.equal(headlineMetric({ format: 'raft', kind: 'multiclass' }), 'macro_f1');
    assert.equal(headlineMetric({ format: 'almanacs', kind: 'probability' }), 'mse');
    assert.equal(headlineMetric({ format: 'lm-eval', kind: 'multiclass' }), 'accuracy');
    assert.equal(headlineMetric({ format: 'generic', kind: 'confidence' }), 'accuracy');
    // RAFT without confidences has no ECE to show.
    assert.deepEqual(lensMetrics({ format: 'raft', kind: 'multiclass', metrics: { macro_f1: 0.5, accuracy: 0.6 } }), ['macro_f1', 'accuracy']);
  });

  test('the CodeLens line: metrics, n and skipped/unlabeled counts; a file that cannot be scored says why', () => {
    const base = { format: 'folktexts', kind: 'binary', n: 1000, skipped: 3, unlabeled: 0, metrics: { ece: 0.0431, auc: 0.8712, brier: 0.162, accuracy: 0.81 } } as unknown as Report;
    assert.equal(summaryLine(base), 'ECE 0.043 · AUC 0.871 · Brier 0.162 · acc 0.810 · n=1000 (3 skipped)');
    const unscorable = { ...base, n: 0, metrics: {}, fatal: 'No row of this file\ncould be scored.' } as Report;
    assert.equal(summaryLine(unscorable), 'cannot score: No row of this file could be scored.');
    const raft = { ...base, format: 'raft', kind: 'multiclass', n: 20, skipped: 0, unlabeled: 3, metrics: { macro_f1: 0.7979, accuracy: 0.8 } } as unknown as Report;
    assert.equal(summaryLine(raft), 'macro-F1 0.798 · acc 0.800 · n=20 (3 unlabeled)');
  });
});
