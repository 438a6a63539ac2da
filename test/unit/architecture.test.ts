// Import boundaries between the layers (.dependency-cruiser.cjs): the repository obeys them, and each
// rule fires on a small tree that breaks it, so a rule that matches nothing cannot pass unnoticed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const config = join(root, '.dependency-cruiser.cjs');
const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation { from: string; to: string; rule: { name: string } }
interface Cruise { summary: { violations: Violation[]; totalCruised: number }; modules: { source: string }[] }

function cruise(cwd: string, paths: string[]): Cruise {
  const r = spawnSync(process.execPath, [bin, '--config', config, '--output-type', 'json', ...paths], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  // Exit status is the number of errors; the JSON report comes either way.
  if (!r.stdout) throw new Error(`dependency-cruiser printed nothing (exit ${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Cruise;
}

const ruleNames = (): string[] => {
  const { forbidden } = require(config) as { forbidden: { name: string }[] };
  return forbidden.map((r) => r.name).sort();
};

describe('layer boundaries', () => {
  it('no import in src/ or webview/ crosses a boundary', () => {
    const result = cruise(root, ['src', 'webview']);
    const sources = result.modules.map((m) => m.source);
    // Not vacuous: every layer was seen.
    for (const layer of ['src/core/', 'src/common/', 'src/charts/', 'src/documents/', 'src/extension/', 'src/cli/', 'webview/']) {
      expect(sources.some((s) => s.startsWith(layer)), layer).toBe(true);
    }
    expect(result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  it('each rule fires on an import that crosses its boundary, and a type-only import of core types passes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-lens-layers-'));
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }),
      'src/core/types.ts': 'export type Kind = string;\nexport const KINDS = [];\n',
      // core -> vscode, core -> extension
      'src/core/score.ts': "import * as vscode from 'vscode';\nimport { host } from '../extension/host';\nexport const score = [vscode, host];\n",
      // extension -> webview, extension -> cli
      'src/extension/host.ts': "import { view } from '../../webview/view';\nimport { main } from '../cli/main';\nexport const host = [view, main];\n",
      // documents -> cli
      'src/documents/json.ts': "import { main } from '../cli/main';\nexport const json = main;\n",
      // webview -> extension (host code), webview -> core at run time; the type-only import is allowed
      'webview/view.ts': "import type { Kind } from '../src/core/types';\nimport { score } from '../src/core/score';\nimport { other } from '../src/extension/other';\nexport const view: Kind[] = [String(score), String(other)];\n",
      'src/extension/other.ts': 'export const other = 1;\n',
      // cli -> extension
      'src/cli/main.ts': "import { other } from '../extension/other';\nexport const main = other;\n",
      // shared -> Node, shared -> core runtime code, shared -> core types at run time
      'src/common/chart.ts': "import { readFileSync } from 'node:fs';\nimport { score } from '../core/score';\nimport { KINDS } from '../core/types';\nexport const chart = [readFileSync, score, KINDS];\n",
      // charts -> Node, charts -> core runtime code
      'src/charts/roc.ts': "import { writeFileSync } from 'node:fs';\nimport { score } from '../core/score';\nexport const roc = [writeFileSync, score];\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    let violations: Violation[];
    try {
      violations = cruise(dir, ['src', 'webview']).summary.violations;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const fired = [...new Set(violations.map((v) => v.rule.name))].sort();
    expect(fired).toEqual(ruleNames());
    expect(violations.filter((v) => v.from === 'webview/view.ts' && v.to === 'src/core/types.ts')).toEqual([]);
    expect(violations.some((v) => v.from === 'src/core/score.ts' && v.rule.name === 'core-stays-editor-free' && /vscode/.test(v.to))).toBe(true);
  });
});
