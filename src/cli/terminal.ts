import { createInterface } from 'node:readline';

/*
 * Reading a secret from standard input: one line from a pipe, or a prompt
 * on a terminal without echo. Shared by the operator's `admin account`
 * (src/cli/password.ts) and the user's `vigil login` (src/cli/user/prompt.ts);
 * it imports nothing else, so the user commands stay free of the store's
 * drivers. Each caller says which error a refusal is (its own exit code).
 */

/** One line from a pipe; a trailing CR (a file from Windows) is not part of the password. */
export function firstLine(ended: () => Error): Promise<string> {
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
    rl.once('close', () => got || rej(ended()));
  });
}

/**
 * A prompt on stderr (stdout may carry --json) that reads the terminal in
 * raw mode, so nothing typed is echoed. Raw mode also turns Ctrl-C into a
 * byte instead of SIGINT: it is handled here, restoring the terminal.
 */
export function askHidden(question: string, cancelled: () => Error): Promise<string> {
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
        if (ch === '\u0003' || (ch === '\u0004' && text === '')) return finish(cancelled());
        if (ch === '\u007f' || ch === '\b') text = [...text].slice(0, -1).join('');
        else if (ch >= ' ') text += ch;
      }
    };
    input.on('data', onData);
  });
}
