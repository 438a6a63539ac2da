// The `eval-lens` command line: one module per command, the metric core underneath, for CI.
// Exit status: 0 when something was scored, 2 when nothing could be, 1 on a usage error, 3 when a
// --fail-on gate fails.
import { UsageError, type CliOutput } from './args';
import { SCORE_USAGE, scoreCommand } from './score';
import { COMPARE_USAGE, compareCommand } from './compare';
import { BOARD_USAGE, boardCommand } from './board';
import { PLOT_USAGE, plotCommand } from './plot';
import { CONVERT_USAGE, convertCommand } from './convert';

export type { CliOutput } from './args';
export { toJson } from '../documents/json';

interface Command {
  usage: string;
  run(args: string[]): Promise<CliOutput>;
}

/** Every command; a new command is one entry here and one module beside this one. */
const COMMANDS: Record<string, Command> = {
  score: { usage: SCORE_USAGE, run: scoreCommand },
  compare: { usage: COMPARE_USAGE, run: compareCommand },
  board: { usage: BOARD_USAGE, run: boardCommand },
  plot: { usage: PLOT_USAGE, run: plotCommand },
  convert: { usage: CONVERT_USAGE, run: convertCommand },
};

const USAGE = `Usage: eval-lens COMMAND ...\n\nCommands: ${Object.keys(COMMANDS).join(', ')}\n\n${SCORE_USAGE}`;

/** Run the CLI on argv (without node and script) and return what it would print: testable in-process. */
export async function runCli(argv: string[]): Promise<CliOutput> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    return name === undefined ? usageError(new UsageError('no command given.'), USAGE) : { code: 0, stdout: USAGE + '\n', stderr: '' };
  }
  const command = COMMANDS[name];
  if (!command) return usageError(new UsageError(`unknown command '${name}'.`), USAGE);
  try {
    return await command.run(rest);
  } catch (e) {
    // parseArgs reports unknown or malformed options as TypeErrors with a code.
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e)) return usageError(e, command.usage);
    throw e;
  }
}

function usageError(e: Error, usage: string): CliOutput {
  return { code: 1, stdout: '', stderr: `eval-lens: ${e.message}\n\n${usage}\n` };
}
