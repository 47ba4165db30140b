import { createInterface } from 'node:readline';
import { AccountInputError } from '../accounts/accounts.ts';

/**
 * Where `admin account add/update` get the password. `--password P` stays
 * for old scripts, but every user can read it in `ps` and it lands in the
 * shell's history; `--password-stdin` takes one line from standard input
 * (a pipe or a file), and on a terminal the password is asked for without
 * echo, twice, as passwd(1) does: a typo nobody saw would lock the account.
 */
export async function passwordOf(o: { password?: string; passwordStdin?: boolean }, required: boolean): Promise<string | undefined> {
  if (o.password !== undefined && o.passwordStdin) throw new AccountInputError('--password and --password-stdin exclude each other');
  if (o.password !== undefined) return o.password;
  if (!o.passwordStdin && !required) return undefined;
  if (process.stdin.isTTY) return askTwice();
  if (o.passwordStdin) return firstLine();
  throw new AccountInputError('a password is required: pipe it in with --password-stdin (or run in a terminal to be asked)');
}

async function askTwice(): Promise<string> {
  const first = await askHidden('Password: ');
  const again = await askHidden('Password again: ');
  if (first !== again) throw new AccountInputError('the two passwords differ; nothing changed');
  return first;
}

/** One line from a pipe; a trailing CR (a file from Windows) is not part of the password. */
function firstLine(): Promise<string> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  return new Promise((res, rej) => {
    let got = false;
    rl.once('line', (line) => {
      got = true;
      rl.close();
      // Nothing more is read: the rest of the input is not ours.
      process.stdin.destroy();
      res(line.replace(/\r$/, ''));
    });
    rl.once('close', () => got || rej(new AccountInputError('--password-stdin: standard input ended before a line')));
  });
}

/**
 * A prompt on stderr (stdout may carry --json) that reads the terminal in
 * raw mode, so nothing typed is echoed. Raw mode also turns Ctrl-C into a
 * byte instead of SIGINT: it is handled here, restoring the terminal.
 */
function askHidden(question: string): Promise<string> {
  const input = process.stdin;
  // Raw mode before the prompt: whatever is typed after seeing it is not echoed.
  input.setRawMode(true);
  process.stderr.write(question);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((res, rej) => {
    let text = '';
    const finish = (err?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      if (err) rej(err);
      else res(text);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || (ch === '\u0004' && text === '')) return finish(new AccountInputError('no password given; nothing changed'));
        if (ch === '\u007f' || ch === '\b') text = [...text].slice(0, -1).join('');
        else if (ch >= ' ') text += ch;
      }
    };
    input.on('data', onData);
  });
}
