/**
 * From detection to findings, on real daemons at their usual ports: what
 * detectServices names is what the checks of a `standard` audit pick up.
 * Weak daemons on one address, their hardened twins on another: every
 * missing-authentication check fires on the first and none on the second.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mariadb, pgBin, postgres, rsyncd, slapd, sshd, xvfb } from '../../../test/helpers/daemons-auth.ts';
import { listening, which } from '../../../test/helpers/daemons-kit.ts';
import { detectServices } from '../engine/detect.ts';
import { Fence } from '../engine/fence.ts';
import { checksFor } from '../engine/profiles.ts';
import type { HostFacts } from '../engine/types.ts';

const WEAK = '127.0.41.30';
const HARD = '127.0.41.31';
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);
const IDS = [
  'vigil.rsync.open-module',
  'vigil.ldap.anonymous',
  'vigil.postgresql.trust',
  'vigil.mysql.empty-root',
  'vigil.ssh.password-auth',
  'vigil.x11.open',
];

async function audit(address: string, weak: boolean): Promise<{ names: string[]; found: string[] }> {
  const ports = await Promise.all([
    rsyncd(address, weak, 873),
    slapd(address, weak, 389),
    postgres(address, weak, 5432),
    mariadb(address, weak, 3306),
    sshd(address, weak, 22),
    xvfb(address, weak),
  ]);
  const net = fence.net(address);
  const services = await detectServices(net, ports);
  const host: HostFacts = { address, openPorts: ports, services };
  const found: string[] = [];
  for (const check of checksFor('standard', false).filter((c) => IDS.includes(c.id)))
    if ((await check.runOn(host, net)).length) found.push(check.id);
  return { names: services.map((s) => s.name), found: found.sort() };
}

const missing =
  ['rsync', 'slapd', 'mariadbd', '/usr/sbin/sshd', 'Xvfb'].find((c) => !which(c)) ?? (pgBin() ? null : 'postgresql');
// The usual ports on our two addresses: a machine's own daemon listening on 0.0.0.0 (sshd on
// :22, a packaged slapd or Samba started by apt-get where no policy-rc.d stops it) holds them there too.
const USUAL = [22, 389, 873, 3306, 5432];
const held = [];
for (const a of [WEAK, HARD]) for (const p of USUAL) if (await listening(a, p)) held.push(`${a}:${p}`);
const busy = held.length ? `held by a daemon of this machine: ${held.join(', ')}` : null;

test('weak daemons: detected by name and each flagged by its check; hardened twins: none', {
  skip: missing ? `${missing} missing` : (busy ?? false),
}, async () => {
  const weak = await audit(WEAK, true);
  // Ports ascending: 22, 389, 873, 3306, 5432, 6000+n.
  assert.deepEqual(weak.names, ['ssh', 'ldap', 'rsync', 'mysql', 'postgresql', 'X11']);
  assert.deepEqual(weak.found, [...IDS].sort());
  const hard = await audit(HARD, false);
  assert.deepEqual(hard.found, []);
});
