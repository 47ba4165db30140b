/**
 * RPC services on real Debian daemons: rpcbind (foreground) with
 * rpc.rusersd registered, each in a network namespace of its own (rpcbind
 * binds TCP 0.0.0.0:111 whatever -h says) relayed to 127.0.83.x, against
 * the same pair behind TCP wrappers ("rpcbind: ALL" in hosts.deny: DUMP and
 * GETPORT answered MSG_DENIED). Root only (namespaces).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { rpcPlan } from '../../../../test/helpers/legacy-daemons.ts';
import { nsDaemon, type Relay } from '../../../../test/helpers/ns-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';
import { pmapDump } from '../../proto/rpc.ts';
import { detectOne } from '../../engine/detect.ts';

const OPEN = '127.0.83.1';
const SHUT = '127.0.83.2';
const READY =
  process.getuid?.() === 0 && ['rpcbind', 'rpc.rusersd', 'rpcinfo', 'socat', 'unshare'].every((b) => which(b));

const portmapper = (addr: string): Relay[] => [
  { proto: 'tcp', addr, port: 111, socket: 'tcp-111' },
  { proto: 'udp', addr, port: 111, socket: 'udp-111' },
];

test('rpcbind DUMP and rusersd NAMES are found when open; behind TCP wrappers both are silent', {
  skip: READY ? false : 'needs root, rpcbind, rpc.rusersd (rusersd), rpcinfo, socat and unshare',
}, async () => {
  let rusersPort = 0;
  await Promise.all([
    nsDaemon(
      'rpc-open',
      (dir) => rpcPlan(dir, false),
      (dir) => {
        rusersPort = Number(readFileSync(join(dir, 'rusers-port'), 'utf8'));
        return [...portmapper(OPEN), { proto: 'udp', addr: OPEN, port: rusersPort, socket: 'udp-rusers' }];
      },
    ),
    nsDaemon('rpc-shut', (dir) => rpcPlan(dir, true), portmapper(SHUT)),
  ]);
  const host = (addr: string) => hostOf(addr, [service(111, 'rpcbind')]);

  const dump = await checkById('vigil.rpcbind.dump').runOn(host(OPEN), netFor(OPEN));
  assert.equal(dump.length, 2);
  assert.match(
    dump[0]!.detail,
    new RegExp(
      `^PMAPPROC_DUMP \\(program 100000 v2, procedure 4\\) over TCP answered \\d+ registrations: rusersd v2,3 udp/${rusersPort}, portmapper v2,3,4 tcp/111`,
    ),
  );
  assert.match(
    dump[1]!.detail,
    /^PMAPPROC_DUMP .* over UDP answered \d+ registrations \(\d+ bytes for a 40-byte call, factor \d+\.\d\): rusersd v2,3/,
  );

  const [users] = await checkById('vigil.rusers.users').runOn(host(OPEN), netFor(OPEN));
  assert.equal(users!.port, 111);
  assert.match(
    users!.detail,
    new RegExp(
      `^rusersd \\(program 100002 v3, udp/${rusersPort}, found through the portmapper on 111\\) answered RUSERSPROC_NAMES: 1 logged in: alice@pts/7 from 192\\.0\\.2\\.50\\.$`,
    ),
  );

  // Detection names the portmapper by its own NULL call (without nmap's database), refused or not.
  for (const a of [OPEN, SHUT]) assert.equal((await detectOne(netFor(a), 111, { nmapProbes: false })).name, 'rpcbind');

  // Behind TCP wrappers the portmapper answers, but with a refusal (MSG_DENIED), which proves nothing.
  assert.equal((await pmapDump(netFor(SHUT), 111, 'tcp'))?.status, 'denied');
  assert.deepEqual(await checkById('vigil.rpcbind.dump').runOn(host(SHUT), netFor(SHUT)), []);
  assert.deepEqual(await checkById('vigil.rusers.users').runOn(host(SHUT), netFor(SHUT)), []);
});
