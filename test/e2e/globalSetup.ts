// Runs once before the e2e files: fails fast with a clear message when code-server/Chromium are
// missing (scripts/setup-vscode.sh), and builds the bundles the dev extension loads
// (dist/extension.js, dist/webview.js) unless EVAL_LENS_NO_BUILD=1.
import { buildProject, findRuntime } from '../vscode/codeserver.mjs';

export default function setup(): void {
  findRuntime();
  if (process.env.EVAL_LENS_NO_BUILD !== '1') buildProject((line) => console.log(line));
}
