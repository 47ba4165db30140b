import { Command, type CommanderError } from 'commander';
import { EXIT } from './exit.ts';
import { explain } from './session.ts';

/**
 * A command's action with the user commands' error handling: the message
 * on stderr as `vigil: …` and the exit code by outcome (src/cli/user/exit.ts).
 * process.exitCode, not process.exit: stdout drains first.
 */
export function act<A extends unknown[]>(body: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await body(...args);
    } catch (err) {
      const e = explain(err);
      process.stderr.write(`vigil: ${e.message}\n`);
      process.exitCode = e.exitCode;
    }
  };
}

/** A user command: `--json` on each, and a usage mistake exits EXIT.usage (commander's own default is 1). */
export function userCommand(name: string, description: string): Command {
  return new Command(name).description(description).option('--json', 'print one JSON document on stdout');
}

/** Usage errors of the whole tree exit EXIT.usage; help and --version still exit 0. */
export function usageExits(cmd: Command): Command {
  cmd.exitOverride((err: CommanderError) => process.exit(err.exitCode === 0 ? 0 : EXIT.usage));
  cmd.showHelpAfterError();
  for (const sub of cmd.commands) usageExits(sub);
  return cmd;
}
