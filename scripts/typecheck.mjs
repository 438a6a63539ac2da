#!/usr/bin/env node
// Type-checks the whole repository (tsconfig.json) and then each layer with only the ambient types
// it may use: the core without DOM or vscode, shared code and the webview without Node, and so on
// (see each tsconfig.json). Exit status 1 when any project has an error.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const PROJECTS = ['.', 'src/core', 'src/common', 'src/charts', 'src/documents', 'src/cli', 'src/extension', 'webview'];

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
let failed = 0;
for (const project of PROJECTS) {
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', project], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`type-check failed: ${project === '.' ? 'tsconfig.json' : `${project}/tsconfig.json`}`);
  }
}
process.exit(failed ? 1 : 0);
