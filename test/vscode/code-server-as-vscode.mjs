#!/usr/bin/env node
// A stand-in for the VS Code executable that @vscode/test-electron's runTests() launches: pass
// this file as `vscodeExecutablePath`. It takes the arguments runTests builds
//   --extensionDevelopmentPath=DIR (repeatable)  --extensionTestsPath=MODULE  [FOLDER]
//   --user-data-dir=… --extensions-dir=… --no-sandbox --disable-updates --skip-welcome … (ignored)
// and runs the tests in code-server + Chromium instead (test/vscode/codeserver.mjs). Its exit code
// is the tests' (0 = all passed); stdout ends with `INTEGRATION-RESULT {...}`.
// A scratch user-data/extensions dir is always used: runTests' --user-data-dir/--extensions-dir
// (./.vscode-test/...) are ignored so nothing is written into the project.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_WORKSPACE, runAndReport } from './codeserver.mjs';

const devPaths = [];
let testsPath;
let folder;
const ignored = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  const eq = arg.indexOf('=');
  const [name, inlineValue] = arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
  const value = () => inlineValue ?? argv[++i];
  if (name === '--extensionDevelopmentPath') devPaths.push(resolve(value()));
  else if (name === '--extensionTestsPath') testsPath = resolve(value());
  else if (name === '--folder-uri') folder = new URL(value()).pathname;
  else if (!arg.startsWith('-') && !folder && existsSync(arg) && statSync(arg).isDirectory()) folder = resolve(arg);
  else ignored.push(arg);
}
if (process.env.EVAL_LENS_VERBOSE === '1') process.stderr.write(`[code-server-as-vscode] ignoring: ${ignored.join(' ')}\n`);
if (!testsPath || devPaths.length === 0) {
  process.stderr.write('code-server-as-vscode: needs --extensionDevelopmentPath=DIR and --extensionTestsPath=MODULE\n');
  process.exit(2);
}
const timeoutMs = Number(process.env.EVAL_LENS_TIMEOUT ?? 600) * 1000;
const workspace = folder ?? process.env.EVAL_LENS_WORKSPACE ?? DEFAULT_WORKSPACE;
process.exit(await runAndReport({ extensionDevelopmentPath: devPaths, extensionTestsPath: testsPath, workspace, timeoutMs }));
