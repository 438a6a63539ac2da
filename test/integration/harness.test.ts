// Smoke test for the extension-host harness: runs in a real VS Code (code-server) with the
// project loaded as the extension under development. See test/vscode/README.md.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'eval-lens.eval-lens';

suite('harness', () => {
  test('runs inside a VS Code extension host', () => {
    assert.ok(vscode.version, 'vscode.version is set');
    assert.ok(vscode.workspace.workspaceFolders?.length, 'a workspace folder is open');
  });

  test(`extension ${EXTENSION_ID} is present, activates and registers evalLens.scoreBenchmark`, async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `extension ${EXTENSION_ID} is not loaded`);
    await extension.activate();
    assert.equal(extension.isActive, true);
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('evalLens.scoreBenchmark'), 'command evalLens.scoreBenchmark is not registered');
  });
});
