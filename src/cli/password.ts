import { AccountInputError } from '../accounts/accounts.ts';
import { askHidden as ask, firstLine as line } from './terminal.ts';

/**
 * Where `admin account add/update` get the password. `--password P` stays
 * for old scripts, but every user can read it in `ps` and it lands in the
 * shell's history; `--password-stdin` takes one line from standard input
 * (a pipe or a file), and on a terminal the password is asked for without
 * echo, twice, as passwd(1) does: a typo nobody saw would lock the account.
 */
export async function passwordOf(
  o: { password?: string; passwordStdin?: boolean },
  required: boolean,
): Promise<string | undefined> {
  if (o.password !== undefined && o.passwordStdin)
    throw new AccountInputError('--password and --password-stdin exclude each other');
  if (o.password !== undefined) return o.password;
  if (!o.passwordStdin && !required) return undefined;
  if (process.stdin.isTTY) return askTwice();
  if (o.passwordStdin) return firstLine();
  throw new AccountInputError(
    'a password is required: pipe it in with --password-stdin (or run in a terminal to be asked)',
  );
}

const askHidden = (question: string) =>
  ask(question, () => new AccountInputError('no password given; nothing changed'));
const firstLine = () => line(() => new AccountInputError('--password-stdin: standard input ended before a line'));

async function askTwice(): Promise<string> {
  const first = await askHidden('Password: ');
  const again = await askHidden('Password again: ');
  if (first !== again) throw new AccountInputError('the two passwords differ; nothing changed');
  return first;
}
