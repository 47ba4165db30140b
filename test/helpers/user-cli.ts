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

  /** A bash script, `set -euo pipefail`, in this shell's directory. */
  bash(script: string): Promise<Ran> {
    return this.exec('bash', ['-euo', 'pipefail', '-c', script], '', {});
  }

  /** `vigil login` with the password on stdin. */
  login(...extra: string[]): Promise<Ran> {
    const e = this.env;
    return this.vigil(['login', '--url', e.VIGIL_URL!, '--apikey', e.VIGIL_APIKEY!, '--userid', e.VIGIL_USERID!, '--cacert', e.VIGIL_CACERT!, '--password-stdin', ...extra], `${e.VIGIL_PASSWORD}\n`);
  }

  /** `vigil ARGS… --json`, which must exit 0: its stdout parsed. */
  async json(...args: string[]): Promise<any> {
    const r = await this.vigil([...args, '--json']);
    if (r.code !== 0) throw new Error(`vigil ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  private exec(file: string, args: string[], input: string, env: Record<string, string>): Promise<Ran> {
    return new Promise((resolve) => {
      const child = execFile(file, args, { cwd: this.dir, env: { ...this.env, ...env }, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
      child.stdin!.end(input);
    });
  }
}
