// Restricted mode in a real VS Code: the integration tests of test/integration/restricted.test.ts
// run in code-server with workspace trust ENABLED and the folder untrusted. The usual harness
// passes --disable-workspace-trust to code-server; here a small entry script drops that switch
// before code-server reads its arguments, and the user settings turn trust on without a start-up
// prompt (security.workspace.trust.startupPrompt: never), so the folder opens in Restricted Mode.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TESTS_PATH, DEFAULT_WORKSPACE, findRuntime, PROJECT_ROOT, runExtensionTests } from '../vscode/codeserver.mjs';

describe('restricted mode', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'eval-lens-restricted-'));
  const saved = process.env.EVAL_LENS_CODE_SERVER_ENTRY;

  afterAll(() => {
    if (saved === undefined) delete process.env.EVAL_LENS_CODE_SERVER_ENTRY;
    else process.env.EVAL_LENS_CODE_SERVER_ENTRY = saved;
    rmSync(scratch, { recursive: true, force: true });
  });

  it('scores in an untrusted workspace, offers no quick fixes, ignores restricted settings', async () => {
    const entry = findRuntime().entry;
    const wrapper = join(scratch, 'code-server-with-trust.cjs');
    writeFileSync(wrapper, `// code-server with workspace trust: drop --disable-workspace-trust, then start as usual.
process.argv = process.argv.filter((a) => a !== '--disable-workspace-trust');
require(${JSON.stringify(entry)});
`);
    process.env.EVAL_LENS_CODE_SERVER_ENTRY = wrapper;
    const workspace = join(scratch, 'workspace');
    cpSync(DEFAULT_WORKSPACE, workspace, { recursive: true });
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'evalLens.maxFileSizeMB': 0.001, 'evalLens.raftDataFolder': 'no-such-folder' }));
    const lines: string[] = [];
    const { exitCode, result } = await runExtensionTests({
      extensionDevelopmentPath: PROJECT_ROOT,
      extensionTestsPath: DEFAULT_TESTS_PATH,
      workspace,
      timeoutMs: 170_000,
      settings: {
        'security.workspace.trust.enabled': true,
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.emptyWindow': false,
      },
      env: { EVAL_LENS_TEST_GREP: 'restricted mode', EVAL_LENS_EXPECT_UNTRUSTED: '1' },
      out: (line: string) => lines.push(line),
      log: () => undefined,
    });
    console.log(lines.filter((l) => /✔|✗|\d+\) |passing|failing|pending|Error/.test(l)).join('\n'));
    expect(result?.failed, lines.join('\n')).toBe(0);
    expect(result?.passed).toBe(4);
    expect(exitCode).toBe(0);
  });
});
