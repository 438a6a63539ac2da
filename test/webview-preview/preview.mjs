#!/usr/bin/env node
// Launcher for the webview preview harness (server.ts): bundles it for Node with esbuild and runs it.
// Usage: node test/webview-preview/preview.mjs serve|shoot|perf [--samples a,b] [--rows N] [--port P]
import * as esbuild from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outfile = join(root, 'out', 'webview-preview', 'server.cjs');
await esbuild.build({
  entryPoints: [join(root, 'test', 'webview-preview', 'server.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['esbuild', 'playwright-core'],
  logLevel: 'warning',
});
await import(pathToFileURL(outfile).href);
