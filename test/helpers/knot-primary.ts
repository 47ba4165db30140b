import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Bind, daemon } from './bind.ts';
import { freePort, tempDir } from './server.ts';
import { eventually } from './wait.ts';

const run = promisify(execFile);

/** Stock Knot DNS as the primary of one zone file, on loopback, transfers allowed from 127/8. */
export async function startKnotPrimary(zone: string, text: string): Promise<Bind> {
  const dir = tempDir('vigil-knotp-');
  const port = await freePort();
  const file = join(dir, `${zone}.zone`);
  writeFileSync(file, text);
  const conf = join(dir, 'knot.conf');
  writeFileSync(
    conf,
    `server:\n  rundir: "${dir}"\n  listen: 127.0.0.1@${port}\n` +
      `database:\n  storage: "${dir}"\n` +
      `log:\n  - target: stderr\n    any: info\n` +
      `acl:\n  - id: xfr\n    address: 127.0.0.0/8\n    action: transfer\n` +
      `zone:\n  - domain: ${zone}\n    file: "${file}"\n    storage: "${dir}"\n    zonefile-sync: -1\n` +
      `    journal-content: none\n    acl: xfr\n`,
  );
  const knot = await daemon('knotd', ['-c', conf], /server started/, port, dir);
  await eventually(
    async () => / SOA /.test((await dig(port, [zone, 'SOA'])).answer.join('\n')),
    `knotd serving ${zone}: ${knot.log()}`,
  );
  return knot;
}

/** What dig printed of one reply: status, header flags, the answer lines (whitespace normalized) and its size. */
export interface Dug {
  status: string;
  flags: string;
  answer: string[];
  /** "MSG SIZE rcvd": the reply's bytes on the wire. */
  size: number;
}

/** One dig at a loopback server. */
export async function dig(port: number, args: string[]): Promise<Dug> {
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '+norecurse', '+nocookie', ...args]);
  const section = stdout.split(';; ANSWER SECTION:\n')[1]?.split('\n\n')[0] ?? '';
  return {
    status: /status: (\w+)/.exec(stdout)?.[1] ?? '',
    flags: (/;; flags: ([^;]*);/.exec(stdout)?.[1] ?? '').split(' ').sort().join(' '),
    answer: section
      .split('\n')
      .filter((l) => l && !l.startsWith(';'))
      .map((l) => l.trim().split(/\s+/).join(' '))
      .sort(),
    size: Number(/MSG SIZE\s+rcvd: (\d+)/.exec(stdout)?.[1] ?? Number.NaN),
  };
}
