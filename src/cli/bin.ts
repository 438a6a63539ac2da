// The `eval-lens` executable: run the CLI on this process's arguments.
import { runCli } from './main';

const out = runCli(process.argv.slice(2));
process.stdout.write(out.stdout);
process.stderr.write(out.stderr);
process.exitCode = out.code;
