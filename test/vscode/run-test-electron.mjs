#!/usr/bin/env node
// The same integration suite through @vscode/test-electron's runTests(), the standard launcher.
//
//   node test/vscode/run-test-electron.mjs [--code-server | --vscode EXE] [--extension DIR]
//        [--tests FILE] [--workspace DIR] [--no-build]
//
// Without --code-server/--vscode, runTests downloads VS Code from Microsoft's update server (fails
// on machines without internet: ENOTFOUND). --code-server (or EVAL_LENS_USE_CODE_SERVER=1) passes
// test/vscode/code-server-as-vscode.mjs as `vscodeExecutablePath`, so runTests drives code-server
// + Chromium instead; --vscode EXE uses any local VS Code executable.
import { runTests } from '@vscode/test-electron';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TESTS_PATH, DEFAULT_WORKSPACE, PROJECT_ROOT, buildProject } from './codeserver.mjs';

const { values } = parseArgs({
  options: {
    'code-server': { type: 'boolean' },
    vscode: { type: 'string' },
    extension: { type: 'string' },
    tests: { type: 'string' },
    workspace: { type: 'string' },
    version: { type: 'string' },
    'no-build': { type: 'boolean' },
  },
});
const extensionDevelopmentPath = resolve(values.extension ?? PROJECT_ROOT);
const extensionTestsPath = resolve(values.tests ?? DEFAULT_TESTS_PATH);
const workspace = resolve(values.workspace ?? process.env.EVAL_LENS_WORKSPACE ?? DEFAULT_WORKSPACE);
if (!existsSync(workspace)) throw new Error(`workspace folder not found: ${workspace}`);

if (!values['no-build'] && extensionDevelopmentPath === PROJECT_ROOT && extensionTestsPath === DEFAULT_TESTS_PATH) {
  buildProject((s) => process.stderr.write(s + '\n'));
}

const useCodeServer = values['code-server'] || process.env.EVAL_LENS_USE_CODE_SERVER === '1';
const vscodeExecutablePath = values.vscode ?? (useCodeServer ? join(PROJECT_ROOT, 'test', 'vscode', 'code-server-as-vscode.mjs') : undefined);

try {
  const code = await runTests({
    ...(vscodeExecutablePath ? { vscodeExecutablePath } : { version: values.version ?? 'stable' }),
    extensionDevelopmentPath,
    extensionTestsPath,
    launchArgs: [workspace, '--disable-extensions'],
  });
  process.exit(code);
} catch (e) {
  process.stderr.write(`[test-electron] ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(typeof e?.code === 'number' ? e.code : 1);
}
