#!/usr/bin/env node
// `npm test`: type-check, build, unit tests (vitest), then integration tests in a real VS Code
// (code-server's extension host) and end-to-end tests (the real workbench in Chromium). Sets up
// code-server and Chromium when missing. Ends with one summary line: "total: N passed, M failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const only = process.argv.slice(2); // e.g. `node scripts/test.mjs unit`
const want = (stage) => !only.length || only.includes(stage);
const scratch = mkdtempSync(join(tmpdir(), 'eval-lens-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(title, cmd, args, opts = {}) {
  console.log(`\n=== ${title}: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (opts.capture) process.stdout.write(r.stdout ?? '');
  return r;
}

/** Counts from vitest's JSON report. */
function vitestCounts(file) {
  if (!existsSync(file)) return undefined;
  const j = JSON.parse(readFileSync(file, 'utf8'));
  // A file that fails to load fails no single test but fails the run: count it as one failure.
  const failed = j.numFailedTests || (j.success ? 0 : 1);
  return { passed: j.numPassedTests, failed, skipped: j.numPendingTests + j.numTodoTests };
}

function add(stage, counts, status) {
  if (!counts) {
    failures.push(`${stage}: no results (exit ${status})`);
    totals.failed += 1;
    return;
  }
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped ?? 0;
  if (counts.failed || status !== 0) failures.push(`${stage}: ${counts.failed} failed (exit ${status})`);
  console.log(`--- ${stage}: ${counts.passed} passed, ${counts.failed} failed`);
}

const npx = 'npx';
if (run('type-check (whole repository, then each layer)', 'node', ['scripts/typecheck.mjs']).status !== 0) failures.push('type-check failed');
if (run('build', 'node', ['scripts/build.mjs']).status !== 0) failures.push('build failed');

if (want('unit')) {
  // Debian's numpy, pandas, scikit-learn and scipy compute the reference values of many unit tests.
  const python = run('set up the reference Python (numpy, pandas, scikit-learn, scipy)', 'bash', ['scripts/setup-python.sh']);
  if (python.status !== 0) failures.push('setup of the reference Python failed (the reason is printed above; run it alone: bash scripts/setup-python.sh)');
  const out = join(scratch, 'unit.json');
  const r = run('unit tests', npx, ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  add('unit', vitestCounts(out), r.status);
}

if (want('integration') || want('e2e')) {
  const setup = run('set up code-server and Chromium', 'bash', ['scripts/setup-vscode.sh']);
  // The script itself names the failed step and prints the end of its log above.
  if (setup.status !== 0) failures.push('setup of code-server/Chromium failed (the reason is printed above; run it alone: bash scripts/setup-vscode.sh)');
}

if (want('integration')) {
  const r = run('integration tests (real VS Code extension host)', 'node', ['test/vscode/run-integration.mjs'], { capture: true });
  const m = /INTEGRATION-RESULT (\{.*\})/.exec(r.stdout ?? '');
  add('integration', m ? JSON.parse(m[1]) : undefined, r.status);
}

if (want('e2e')) {
  const out = join(scratch, 'e2e.json');
  const r = run('end-to-end tests (workbench in Chromium)', npx, ['vitest', 'run', '-c', 'vitest.e2e.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  add('e2e', vitestCounts(out), r.status);
}

console.log('');
for (const f of failures) console.log(`FAILED ${f}`);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`total: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(failures.length || totals.failed ? 1 : 0);
