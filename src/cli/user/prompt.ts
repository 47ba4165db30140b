import { askHidden as ask, firstLine as line } from '../terminal.ts';
import { CliError, EXIT } from './exit.ts';

/* The password for `vigil login` and for a fresh login on an expired session; refusals are usage errors (exit 2). */

export const firstLine = (): Promise<string> =>
  line(() => new CliError(EXIT.usage, '--password-stdin: standard input ended before a line'));

export const askHidden = (question: string): Promise<string> =>
  ask(question, () => new CliError(EXIT.usage, 'no password given'));
