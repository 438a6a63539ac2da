// The `eval-lens` executable: run the CLI on this process's arguments (or, in a worker thread this
// same file started, score the files it is sent: src/core/parallel.ts).
import { runCli } from './main';
import { isScoreWorker, serveScoreWorker, setWorkerEntry } from '../core/parallel';

if (isScoreWorker()) serveScoreWorker();
else setWorkerEntry(__filename);

if (!isScoreWorker()) runCli(process.argv.slice(2)).then(
  (out) => {
    process.stdout.write(out.stdout);
    process.stderr.write(out.stderr);
    process.exitCode = out.code;
  },
  (e: unknown) => {
    // A failure of the tool, not of the command line: no usage text, and not the usage status 1.
    process.stderr.write(`eval-lens: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
