// Import boundaries between the layers, checked by test/unit/architecture.test.ts (dependency-cruiser).
// Layers: src/common + src/protocol.ts (the bottom: pure code and the host-webview messages, which
// every layer may use; they import nothing but each other and, type-only, the core's types),
// src/core (scoring, no editor), src/documents (the Markdown, CSV and JSON documents the CLI prints
// and the panels export), src/cli, src/extension (VS Code host), webview (browser).
// "Type-only" means `import type` (erased at build time, so no code crosses).

const SHARED = '^src/(common/|protocol\\.ts$)';
const VSCODE = '^vscode$|node_modules/@types/vscode/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-stays-editor-free',
      comment: 'The core scores files for the CLI, the worker and the tests alike: no vscode, extension, CLI, webview code or host-webview messages (src/common code it may use).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: [VSCODE, '^src/(extension|cli)/', '^src/protocol\\.ts$', '^webview/'] },
    },
    {
      name: 'webview-no-host-code',
      comment: 'The webview runs in a browser: nothing from the extension host, the CLI or vscode.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { path: [VSCODE, '^src/(extension|cli)/'] },
    },
    {
      name: 'webview-core-types-only',
      comment: 'The webview may name the core\'s types (import type) but not run core code: what both need lives in src/common.',
      severity: 'error',
      from: { path: '^webview/' },
      to: { path: '^src/core/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'extension-no-webview',
      comment: 'The host never imports webview code; what both need lives in src/common.',
      severity: 'error',
      from: { path: '^src/extension/' },
      to: { path: '^webview/' },
    },
    {
      name: 'extension-no-cli',
      comment: 'The host uses the CLI\'s documents through src/documents, which both share and neither owns; never the CLI itself.',
      severity: 'error',
      from: { path: '^src/extension/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'documents-stand-between',
      comment: 'The documents are read by the CLI and the host alike: core results in, text out; no vscode, host, CLI or webview code.',
      severity: 'error',
      from: { path: '^src/documents/' },
      to: { path: [VSCODE, '^src/(extension|cli)/', '^webview/'] },
    },
    {
      name: 'cli-no-editor',
      comment: 'The CLI runs in plain Node: no vscode, extension or webview code.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: [VSCODE, '^src/extension/', '^webview/'] },
    },
    {
      name: 'common-stands-alone',
      comment: 'Shared code runs in the worker and in the browser: it imports only shared code, and the core\'s types (src/core/types.ts) type-only.',
      severity: 'error',
      from: { path: SHARED },
      to: { pathNot: [SHARED, '^src/core/types\\.ts$'] },
    },
    {
      name: 'common-core-types-only',
      comment: 'Shared code may name the core\'s types but not run core code.',
      severity: 'error',
      from: { path: SHARED },
      to: { path: '^src/core/types\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'charts-draw-only',
      comment: 'Chart definitions are drawn by the webview and by the CLI: Chart.js, shared code and the core\'s types only; the palette comes in as data, so no DOM reads, no Node, no host code.',
      severity: 'error',
      from: { path: '^src/charts/' },
      to: { pathNot: ['^src/charts/', SHARED, '^src/core/types\\.ts$', '^node_modules/chart\\.js/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Sees `import type` (which TypeScript erases), so type-only imports can be told apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)(dist|out|node_modules)/' },
  },
};
