/**
 * SIP on a real Debian Kamailio, started once for the file: the open proxy
 * (Debian's policy without WITH_AUTH: a request for another domain is
 * relayed when From names a local domain, and nobody is asked who they
 * are; REGISTER saved without a challenge) with its Server header, and the
 * hardened twin (403 to any other domain, every REGISTER challenged,
 * server_signature=no), which no check reports.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { kamailioArgs } from '../../../../test/helpers/voip-configs.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const KAMAILIO = which('kamailio');
const [OPEN, HARD] = ['127.0.164.11', '127.0.164.12'];
const PORT = 5060; // the checks ask UDP 5060 on every host

const started = new Map<string, Promise<number>>();
function kamailio(address: string, open: boolean): Promise<number> {
  if (!started.has(address)) {
    const dir = tempDir('kamailio');
    const args = kamailioArgs(dir, address, PORT, open);
    started.set(
      address,
      daemon(address, KAMAILIO!, () => args, { port: PORT }),
    );
  }
  return started.get(address)!;
}

const skip = KAMAILIO ? false : 'kamailio is not installed (apt-get install kamailio)';
const run = (id: string, address: string) =>
  checkById(id).runOn(hostOf(address, [service(PORT, 'sip')]), netFor(address));

test('OPTIONS discloses the product over UDP and TCP (a LOG); the twin without Server header says nothing', {
  skip,
}, async () => {
  await Promise.all([kamailio(OPEN, true), kamailio(HARD, false)]);
  const found = await run('vigil.sip.server-version', OPEN);
  assert.equal(found.length, 2, 'TCP and UDP');
  for (const f of found)
    assert.match(
      f.detail,
      /^OPTIONS sip:127\.0\.164\.11:5060 over (UDP|TCP) was answered "SIP\/2\.0 200 Keepalive" with Server: kamailio/,
    );
  assert.deepEqual(await run('vigil.sip.server-version', HARD), []);
});

test('an open proxy is proven by the relayed OPTIONS reaching our listener; the twin answers 403 and relays nothing', {
  skip,
}, async () => {
  await Promise.all([kamailio(OPEN, true), kamailio(HARD, false)]);
  const found = await run('vigil.sip.open-proxy', OPEN);
  assert.ok(found.length >= 1);
  assert.match(
    found[0]!.detail,
    /arrived at that listener from 127\.0\.164\.11 with [2-9] Via headers .* the target answered "SIP\/2\.0 200 OK"/,
  );
  assert.deepEqual(await run('vigil.sip.open-proxy', HARD), []);
});

test('an unauthenticated REGISTER (a removal of nothing) is accepted by the open registrar; the twin challenges it', {
  skip,
}, async () => {
  await Promise.all([kamailio(OPEN, true), kamailio(HARD, false)]);
  const found = await run('vigil.sip.open-registrar', OPEN);
  assert.equal(found.length, 2, 'TCP and UDP');
  for (const f of found)
    assert.match(
      f.detail,
      /^REGISTER sip:127\.0\.164\.11 for sip:vigil-[0-9a-f]+@127\.0\.164\.11 .* was answered "SIP\/2\.0 200 OK" with no challenge/,
    );
  assert.deepEqual(await run('vigil.sip.open-registrar', HARD), []);
});

test('detection names SIP on TCP 5060', { skip }, async () => {
  await kamailio(OPEN, true);
  const s = await detectOne(netFor(OPEN), PORT, { nmapProbes: false });
  assert.deepEqual([s.name, s.product], ['sip', 'kamailio']);
});
