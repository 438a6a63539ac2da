// Mocha runner executed inside the VS Code extension host (the `extensionTestsPath` module, as for
// @vscode/test-electron). scripts/build.mjs bundles every .ts here to out/test/integration/ with
// `vscode` and `mocha` external; this loads every *.test.js found below its own folder.
//
// Both mocha UIs are available: `suite`/`test`/`suiteSetup` (tdd, the VS Code samples' style) and
// `describe`/`it`/`before` (bdd). Output: the spec reporter ("N passing", "N failing") and then one
// machine-readable line, `INTEGRATION-RESULT {"passed":N,"failed":M,"pending":P,...}`, which
// test/vscode/run-integration.mjs picks up.
//
// Environment (set on the runner's command line, inherited by the extension host):
//   EVAL_LENS_TEST_GREP     only tests whose full title matches this regular expression
//   EVAL_LENS_TEST_TIMEOUT  per-test timeout in ms (default 60000)
import Mocha from 'mocha';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const RESULT_PREFIX = 'INTEGRATION-RESULT ';

function findTestFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) return findTestFiles(full);
      return name.endsWith('.test.js') ? [full] : [];
    });
}

function report(result: Record<string, unknown>): void {
  console.log(RESULT_PREFIX + JSON.stringify(result));
}

export async function run(): Promise<void> {
  const started = Date.now();
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    color: false,
    timeout: Number(process.env.EVAL_LENS_TEST_TIMEOUT ?? 60_000),
    grep: process.env.EVAL_LENS_TEST_GREP || undefined,
  });
  // A second UI on the same root suite: each interface listens for 'pre-require' and puts its
  // globals in place, so test files may use either style.
  Mocha.interfaces.tdd(mocha.suite);

  const files = findTestFiles(__dirname);
  if (files.length === 0) {
    report({ passed: 0, failed: 1, pending: 0, total: 0, error: `no *.test.js under ${__dirname}` });
    throw new Error(`No *.test.js files under ${__dirname}: was the project built (node scripts/build.mjs)?`);
  }
  for (const f of files) mocha.addFile(f);

  await new Promise<void>((resolve, reject) => {
    let runner: Mocha.Runner;
    try {
      runner = mocha.run((failures) => {
        const s = runner.stats;
        report({
          passed: s?.passes ?? 0,
          failed: s?.failures ?? failures,
          pending: s?.pending ?? 0,
          total: runner.total,
          files: files.length,
          durationMs: Date.now() - started,
        });
        if (failures > 0) reject(new Error(`${failures} test(s) failed.`));
        else resolve();
      });
    } catch (err) {
      // A test file that throws while loading (syntax error, bad import) lands here.
      console.error(err);
      report({ passed: 0, failed: 1, pending: 0, total: 0, files: files.length, error: `load error: ${String(err)}` });
      reject(err);
    }
  });
}
