/**
 * A DNS hierarchy on loopback for zone-health tests (issue 30): Knot DNS
 * serving the root and parent zones on port 53 of their own 127.0.30.x
 * addresses, and a recursive BIND whose only hint is that root, so no
 * question can leave the machine.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Bind, daemon } from './bind.ts';
import { loAlias } from './daemons-net.ts';
import { tempDir } from './server.ts';
import { eventually } from './wait.ts';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Knot, authoritative for `zones` (name -> master-file text) on addr:53. */
export async function knotAuthority(addr: string, zones: Record<string, string>): Promise<Bind> {
  const dir = tempDir('vigil-knot-auth-');
  const list = Object.entries(zones).map(([name, text], i) => {
    const file = join(dir, `zone${i}.zone`);
    writeFileSync(file, text);
    return `  - domain: "${name}"\n    file: "${file}"\n    storage: "${dir}"\n    zonefile-sync: -1\n    journal-content: none\n`;
  });
  const conf = join(dir, 'knot.conf');
  writeFileSync(
    conf,
    `server:\n  rundir: "${dir}"\n  listen: ${addr}@53\n` +
      `database:\n  storage: "${dir}"\n` +
      `log:\n  - target: stderr\n    any: info\n` +
      `zone:\n${list.join('')}`,
  );
  const knot = await daemon('knotd', ['-c', conf], /server started/, 53, dir);
  const first = Object.keys(zones)[0]!;
  await eventually(
    async () => (await digAt(addr, [first, 'SOA'])).length > 0,
    `knotd serving ${first} on ${addr}: ${knot.log()}`,
  );
  return knot;
}

/** A recursive BIND on addr:53 that knows only the root at rootAddr and sends from addr alone. */
export async function recursor(addr: string, rootAddr: string): Promise<Bind> {
  loAlias(addr); // named listens only on interface addresses
  const dir = tempDir('vigil-recursor-');
  writeFileSync(join(dir, 'root.hints'), `. 3600000 NS a.root.test.\na.root.test. 3600000 A ${rootAddr}\n`);
  const conf = join(dir, 'named.conf');
  writeFileSync(
    conf,
    `options {
  directory "${dir}"; pid-file "${dir}/named.pid"; session-keyfile "${dir}/session.key"; managed-keys-directory "${dir}";
  listen-on port 53 { ${addr}; }; listen-on-v6 { none; };
  query-source address ${addr};
  recursion yes; allow-recursion { 127.0.0.0/8; }; allow-query { 127.0.0.0/8; }; allow-query-cache { 127.0.0.0/8; };
  dnssec-validation no; qname-minimization off; notify no;
  // Seconds, not days: a test changes zones and asks again.
  max-cache-ttl 2; max-ncache-ttl 2;
};
controls { };
zone "." { type hint; file "${dir}/root.hints"; };
`,
  );
  const named = await daemon('named', ['-g', '-4', '-n', '1', '-c', conf], /running/, 53, dir);
  await eventually(
    async () => (await digAt(addr, ['.', 'NS'], true)).length > 0,
    `named recursing on ${addr}: ${named.log()}`,
  );
  return named;
}

/** dig at addr:53 (recursion on when asked): the answer lines. */
export async function digAt(addr: string, args: string[], recurse = false): Promise<string[]> {
  const { stdout } = await run('dig', [
    `@${addr}`,
    recurse ? '+recurse' : '+norecurse',
    '+nocookie',
    '+short',
    ...args,
  ]);
  return stdout.split('\n').filter(Boolean);
}
