import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addAccount, type Served, tempDir, VIGIL } from './server.ts';

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A user's shell for the user CLI: a home of its own (config under
 * VIGIL_CONFIG), `vigil` on PATH, the server's certificate as a file, and
 * the account's values in the variables docs/client.md's examples use.
 */
export class UserShell {
  readonly dir = tempDir('vigil-user-');
  readonly env: Record<string, string>;

  constructor(s: Served, apikey: string, userid: string, password: string) {
    const bin = join(this.dir, 'bin');
    mkdirSync(bin);
    symlinkSync(VIGIL, join(bin, 'vigil'));
    writeFileSync(join(this.dir, 'vigil-cert.pem'), s.ca);
    this.env = {
      ...(process.env as Record<string, string>),
      PATH: `${bin}:${process.env.PATH}`,
      HOME: this.dir,
      XDG_CONFIG_HOME: '',
      VIGIL_CONFIG: join(this.dir, 'config', 'config.json'),
      VIGIL_URL: s.httpsUrl,
      VIGIL_APIKEY: apikey,
      VIGIL_USERID: userid,
      VIGIL_PASSWORD: password,
      VIGIL_CACERT: join(this.dir, 'vigil-cert.pem'),
    };
  }

  static async create(s: Served, userid: string, password: string, ...accountArgs: string[]): Promise<UserShell> {
    return new UserShell(s, await addAccount(s.dataDir, userid, password, ...accountArgs), userid, password);
  }

  /** `vigil ARGS…` with `input` on stdin; resolves with the exit code whatever it is. */
  vigil(args: string[], input = '', env: Record<string, string> = {}): Promise<Ran> {
    return this.exec(VIGIL, args, input, env);
  }

  /** `vigil ARGS…` left running: its stderr so far, and its end. */
  start(args: string[]): { stderr: () => string; done: Promise<Ran> } {
    let err = '';
    const done = new Promise<Ran>((resolve) => {
      const child = execFile(
        VIGIL,
        args,
        { cwd: this.dir, env: this.env, maxBuffer: 16 << 20 },
        (e, stdout, stderr) => {
          resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr });
        },
      );
      child.stderr!.on('data', (d) => (err += d));
      child.stdin!.end();
    });
    return { stderr: () => err, done };
  }

  /**
   * A bash script, `set -euo pipefail`, in this shell's directory. --norc:
   * bash that finds a socket on stdin takes itself for a remote shell and
   * reads /etc/bash.bashrc, whose `$PS1` then fails under -u (seen once in
   * a run; Node's stdio to a child may be a socketpair).
   */
  bash(script: string): Promise<Ran> {
    return this.exec('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], '', {});
  }

  /**
   * `vigil ARGS…` on a terminal (a pty, through Python's pty module: Node
   * has none): when the output shows `prompt`, types `answer` and Enter.
   * Resolves with the exit code and everything the terminal showed.
   */
  onTerminal(args: string[], prompt: string, answer: string): Promise<{ code: number; screen: string }> {
    const py = [
      'import os, pty, sys',
      'prompt, answer, argv = sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3:]',
      'pid, fd = pty.fork()',
      'if pid == 0:',
      '    os.execv(argv[0], argv)',
      "screen, typed = b'', False",
      'while True:',
      '    try:',
      '        chunk = os.read(fd, 4096)',
      '    except OSError:',
      '        break',
      '    if not chunk:',
      '        break',
      '    screen += chunk',
      '    if not typed and prompt in screen:',
      "        os.write(fd, answer + b'\\r')",
      '        typed = True',
      'sys.stdout.buffer.write(screen)',
      'sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))',
    ].join('\n');
    return this.exec('python3', ['-c', py, prompt, answer, VIGIL, ...args], '', {}).then((r) => ({
      code: r.code,
      screen: r.stdout,
    }));
  }

  /** `vigil login` with the password on stdin. */
  login(...extra: string[]): Promise<Ran> {
    const e = this.env;
    return this.vigil(
      [
        'login',
        '--url',
        e.VIGIL_URL!,
        '--apikey',
        e.VIGIL_APIKEY!,
        '--userid',
        e.VIGIL_USERID!,
        '--cacert',
        e.VIGIL_CACERT!,
        '--password-stdin',
        ...extra,
      ],
      `${e.VIGIL_PASSWORD}\n`,
    );
  }

  /** `vigil ARGS… --json`, which must exit 0: its stdout parsed. */
  async json(...args: string[]): Promise<any> {
    const r = await this.vigil([...args, '--json']);
    if (r.code !== 0) throw new Error(`vigil ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  private exec(file: string, args: string[], input: string, env: Record<string, string>): Promise<Ran> {
    return new Promise((resolve) => {
      const child = execFile(
        file,
        args,
        { cwd: this.dir, env: { ...this.env, ...env }, maxBuffer: 16 << 20 },
        (err, stdout, stderr) => {
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
        },
      );
      child.stdin!.end(input);
    });
  }
}
