import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { freePort } from './helpers/server.ts';

const PASSWORD = 'correct horse 32c';
const ZONE = 'switch.example';
const RECORDS = 2000;

/**
 * A large zone signed with NSEC, then switched to NSEC3 (issue 32). At
 * 100,000 records the switch once never finished: the distribution cycle's
 * timer fires again while a signing runs, every cycle's pass found the same
 * unsigned version, and each queued its own copy of the zone on the signing
 * thread (the serve passed 8 GB; docs/performance.md, "Signing off the main
 * thread"). A zone being signed is now skipped by the other passes of the
 * process. Here the suite's size: three cycles at once sign the version
 * once, and the NSEC3 version is served whole.
 */
describe('NSEC to NSEC3 on a 2,000-record zone', () => {
  let t: TestApp;
  let c: VigilClient;
  let port: number;
  const loop = () => t.app.services.dns.schedule as CycleLoop;
  const serial = async () =>
    ((await udpQuery(port, ZONE, 'SOA')).answers?.[0] as { data: { serial: number } } | undefined)?.data.serial;

  before(async () => {
    port = await freePort();
    t = await startTestApp({ dnsPort: port, domainHold: 'none', nsDomain: 'ns.vigil.test' });
    c = t.client();
    await c.login(await t.account('switch', PASSWORD, { dnsCredits: 1 }), 'switch', PASSWORD);
    await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
    const text = Array.from({ length: RECORDS }, (_, i) => `h${i} 3600 IN A 10.0.${i >> 8}.${i & 255}`).join('\n');
    const imported = await c.call('dnsImportZone.php', { domain: ZONE, zone: `$ORIGIN ${ZONE}.\n${text}\n` });
    assert.equal(imported.imported, RECORDS, JSON.stringify(imported.errors));
    await c.call('dnsSetDNSSEC.php', { domain: ZONE, enable: 'YES' });
    await c.call('dnsPublish.php', { domain: ZONE });
    await loop().cycle();
  });
  after(() => t?.close());

  test('signed with NSEC first', async () => {
    assert.ok(t.app.serving.find(ZONE)!.nsecChain!.length >= RECORDS, 'an NSEC for every name');
    assert.equal((await udpQuery(port, `nothere.${ZONE}`, 'A')).rcode, 'NXDOMAIN');
    assert.equal((await udpQuery(port, ZONE, 'NSEC3PARAM')).answers?.length ?? 0, 0);
    assert.equal((await udpQuery(port, `h${RECORDS - 1}.${ZONE}`, 'A')).answers?.length, 1);
  });

  test('three cycles at once sign the NSEC3 version once; it is served whole', async () => {
    const signer = loop().signer!;
    const before = { ...signer.stats };
    const was = await serial();
    await c.call('dnsSetDNSSEC.php', { domain: ZONE, enable: 'YES', nsec3: 'YES' });
    await c.call('dnsPublish.php', { domain: ZONE });
    await Promise.all([loop().cycle(), loop().cycle(), loop().cycle()]);
    assert.equal(signer.stats.signings - before.signings, 1, 'one signing of the version, not one per cycle');
    // Whichever cycle served it, the next one (if none did yet) serves what was signed.
    if ((await serial()) === was) await loop().cycle();
    assert.equal(signer.stats.signings - before.signings, 1);
    assert.equal((await udpQuery(port, ZONE, 'NSEC3PARAM')).answers?.length, 1);
    assert.equal((await udpQuery(port, `h${RECORDS - 1}.${ZONE}`, 'A')).answers?.length, 1);
    assert.ok(t.app.serving.find(ZONE)!.nsec3!.length >= RECORDS, 'an NSEC3 for every name');
    assert.equal(t.app.serving.find(ZONE)!.nsecChain, undefined);
  });
});
