import { createInterface } from 'node:readline';
import { CliError, EXIT } from './exit.ts';

/*
 * The password for `vigil login` and for a fresh login on an expired
 * session. These mirror src/cli/password.ts (the operator's prompt) rather
 * than import it: that module brings the accounts module and with it the
 * store's drivers, about 1 s of loading measured on every user command,
 * which touches no store. Errors here are usage errors (exit 2).
 */

/** One line from a pipe; a trailing CR (a file from Windows) is not part of the password. */
export function firstLine(): Promise<string> {
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
    rl.once('close', () => got || rej(new CliError(EXIT.usage, '--password-stdin: standard input ended before a line')));
  });
}

/**
 * A prompt on stderr (stdout may carry --json) that reads the terminal in
 * raw mode, so nothing typed is echoed. Raw mode also turns Ctrl-C into a
 * byte instead of SIGINT: it is handled here, restoring the terminal.
 */
export function askHidden(question: string): Promise<string> {
  const input = process.stdin;
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
        if (ch === '\u0003' || (ch === '\u0004' && text === '')) return finish(new CliError(EXIT.usage, 'no password given'));
        if (ch === '\u007f' || ch === '\b') text = [...text].slice(0, -1).join('');
        else if (ch >= ' ') text += ch;
      }
    };
    input.on('data', onData);
  });
}
