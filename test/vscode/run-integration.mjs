#!/usr/bin/env node
// Runs the extension-host integration tests (test/integration, bundled to out/test/integration) in
// a real VS Code: code-server + Debian's Chromium. Usage:
//
//   node test/vscode/run-integration.mjs [workspace] [--workspace DIR] [--extension DIR]
//        [--tests FILE] [--timeout SECONDS] [--grep PATTERN] [--no-build] [--keep-scratch]
//
// Defaults: workspace = $EVAL_LENS_WORKSPACE or test/fixtures/workspace; extension = the project
// root; tests = out/test/integration/index.js. With the default extension and tests it first runs
// scripts/build.mjs (skip with --no-build). Exit code: 0 when every test passed, 1 otherwise.
// The last line of stdout is always `INTEGRATION-RESULT {"passed":N,"failed":M,...}`.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TESTS_PATH, DEFAULT_WORKSPACE, PROJECT_ROOT, RESULT_PREFIX, buildProject, runAndReport } from './codeserver.mjs';

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      extension: { type: 'string' },
      tests: { type: 'string' },
      timeout: { type: 'string' },
      grep: { type: 'string' },
      'no-build': { type: 'boolean' },
      'keep-scratch': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write('usage: node test/vscode/run-integration.mjs [workspace] [--extension DIR] [--tests FILE] [--timeout SECONDS] [--grep PATTERN] [--no-build] [--keep-scratch]\n');
    return 0;
  }
  const extension = resolve(values.extension ?? process.env.EVAL_LENS_EXTENSION ?? PROJECT_ROOT);
  const tests = resolve(values.tests ?? process.env.EVAL_LENS_TESTS ?? DEFAULT_TESTS_PATH);
  const workspaceArg = values.workspace ?? positionals[0] ?? process.env.EVAL_LENS_WORKSPACE;
  const workspace = resolve(workspaceArg ?? DEFAULT_WORKSPACE);
  if (!workspaceArg && !existsSync(workspace)) {
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, '.gitkeep'), '');
  }
  const timeoutMs = Number(values.timeout ?? process.env.EVAL_LENS_TIMEOUT ?? 600) * 1000;
  if (values['keep-scratch']) process.env.EVAL_LENS_KEEP_SCRATCH = '1';

  if (!values['no-build'] && extension === PROJECT_ROOT && tests === DEFAULT_TESTS_PATH) {
    try {
      buildProject((s) => process.stderr.write(s + '\n'));
    } catch (e) {
      process.stderr.write(`[vscode] ERROR: ${e.message}\n`);
      process.stdout.write(`${RESULT_PREFIX}${JSON.stringify({ passed: 0, failed: 0, pending: 0, exitCode: 1, error: 'build failed' })}\n`);
      return 1;
    }
  }
  const env = {};
  if (values.grep) env.EVAL_LENS_TEST_GREP = values.grep;
  return runAndReport({ extensionDevelopmentPath: extension, extensionTestsPath: tests, workspace, timeoutMs, env });
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`${e?.stack ?? e}\n`);
    process.exit(1);
  },
);
