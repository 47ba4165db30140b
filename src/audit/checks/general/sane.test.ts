/**
 * SANE on Debian's saned (sane-utils) with sane-backends' `test` device,
 * each instance in a namespace of its own relayed from its 127.14.93.x
 * address (saned admits every 127/8 client whatever saned.conf says;
 * test/helpers/sharing-daemons.ts), started once for the file: saned.conf
 * `+` (any host), whose scanner is listed; and the hardened twin, which
 * admits only 192.0.2.99 and closes the connection on SANE_NET_INIT
 * without a word (saned 1.2: "init: access by host … denied", then exit):
 * nothing is reported. Root only (namespaces).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { nsDaemon } from '../../../../test/helpers/ns-daemons.ts';
import { SANE_PORT, SANED_BINARIES, sanedPlan } from '../../../../test/helpers/sharing-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { initRequest } from '../../proto/sane.ts';
import { talk } from '../../proto/talk.ts';
import { checkById } from '../catalogue.ts';

const [OPEN, HARD] = ['127.14.93.201', '127.14.93.202'];
const READY = process.getuid?.() === 0 && SANED_BINARIES.every((b) => which(b));
const skip = READY ? false : `needs root and ${SANED_BINARIES.join(', ')} (Debian sane-utils socat)`;

let started: Promise<unknown> | null = null;
const both = () =>
  (started ??= Promise.all(
    (
      [
        [OPEN, true],
        [HARD, false],
      ] as const
    ).map(([addr, open]) =>
      nsDaemon(`saned-${open ? 'open' : 'hard'}`, (dir) => sanedPlan(dir, open), [
        { proto: 'tcp', addr, port: SANE_PORT, socket: 'tcp-6566' },
      ]),
    ),
  ));
const run = (addr: string) =>
  checkById('vigil.sane.open').runOn(hostOf(addr, [service(SANE_PORT, 'sane-port')]), netFor(addr));

test('saned open to any host: its scanner is listed; the twin closes on INIT and is not reported', {
  skip,
}, async () => {
  await both();
  const [f, ...more] = await run(OPEN);
  assert.equal(more.length, 0);
  assert.match(
    f!.detail,
    /^SANE_NET_INIT \(user "vigil"\) was answered SANE_STATUS_GOOD \(server version code 1\.\d+\.3\), and SANE_NET_GET_DEVICES listed 1 scanner: test:0 \(Noname frontend-tester, virtual device\)\.$/,
  );
  assert.deepEqual(await run(HARD), []);
  // Hardened, not dead: saned took the connection and closed it on INIT, without a reply.
  const refused = await talk(netFor(HARD), SANE_PORT, async (c) => ({
    reply: await c.ask(initRequest('vigil'), 3000),
    closed: c.closed,
  }));
  assert.deepEqual(refused, { reply: Buffer.alloc(0), closed: true });
});

test('detection names sane-port from the INIT reply', { skip }, async () => {
  await both();
  const s = await detectOne(netFor(OPEN), SANE_PORT, { nmapProbes: false });
  assert.equal(s.name, 'sane-port');
  assert.match(s.extra.saneInit!, /^SANE_NET_INIT answered GOOD, version code 1\.\d+\.3$/);
});
