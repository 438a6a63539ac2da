// Activation: lazy, cheap, and it registers every command; discovery runs after activate() returns.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, EXTENSION_ID } from './evalLensSupport';

suite('activation', () => {
  test('activates without doing the work itself, and reports the figure', async () => {
    const a = await api();
    console.log(`    [eval-lens] activate(): ${a.activationMs.toFixed(1)} ms; module evaluation: ${a.moduleLoadMs.toFixed(1)} ms`);
    // The 50 ms budget is a figure of bench/extension-first-chart.mjs (which runs this test). Here
    // only a margin that discovery or scoring inside activate() would blow (they take seconds).
    assert.ok(a.activationMs + a.moduleLoadMs < 1000, `module evaluation + activate() took ${a.activationMs + a.moduleLoadMs} ms`);
  });

  test('registers every command of package.json', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const declared: string[] = ext.packageJSON.contributes.commands.map((c: { command: string }) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const c of declared) assert.ok(registered.has(c), `${c} is registered`);
    assert.ok(declared.includes('evalLens.scoreBenchmark'));
  });

  test('declares lazy activation events and limited restricted-mode support', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    assert.ok(!pkg.activationEvents.includes('*'), 'never activates on start-up');
    assert.ok(pkg.activationEvents.includes('workspaceContains:**/*.test_predictions.csv'));
    assert.ok(pkg.activationEvents.includes('onView:evalLens.files'));
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  });
});
