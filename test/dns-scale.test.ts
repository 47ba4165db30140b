import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { freePort } from './helpers/server.ts';

const PASSWORD = 'correct horse 32b';
const ZONES = Array.from({ length: 30 }, (_, i) => `z${i}.scale.example`);
const CATALOG = 'catalog.vigil.invalid';

/**
 * Provider scale (issue 32): a distribution cycle after a change in one
 * zone reads and indexes that zone alone (ServingSet.reads counts the
 * snapshots read from the store), whatever the number of zones
 * (ServingSet.builds counts the zone versions indexed), and leaves the
 * catalog as it was; a zone leaving changes the catalog and nothing else.
 */
describe('a one-zone change touches one zone', () => {
  let t: TestApp;
  let c: VigilClient;
  let port: number;
  const cycle = () => (t.app.services.dns.schedule as CycleLoop).cycle();
  const catalogSerial = () => t.app.serving.find(CATALOG)?.serial;

  before(async () => {
    port = await freePort();
    t = await startTestApp({ dnsPort: port, domainHold: 'none', nsDomain: 'ns.vigil.test' });
    c = t.client();
    await c.login(await t.account('scale', PASSWORD, { dnsCredits: ZONES.length }), 'scale', PASSWORD);
    for (const [i, domain] of ZONES.entries()) {
      await c.call('dnsAddDomain.php', { domain, domaintype: 'master', aup: 'YES' });
      await c.call('dnsAddA.php', { domain, name: 'www', ip: `192.0.2.${i + 1}` });
      await c.call('dnsPublish.php', { domain });
    }
    await cycle();
  });
  after(() => t?.close());

  test('every zone is indexed once at the first cycle; a cycle with no change indexes none', async () => {
    assert.equal(t.app.serving.size, ZONES.length);
    assert.equal(t.app.serving.builds, ZONES.length);
    assert.equal(t.app.serving.reads, ZONES.length);
    await cycle();
    assert.equal(t.app.serving.builds, ZONES.length);
    assert.equal(t.app.serving.reads, ZONES.length);
  });

  test('a change in one zone: that zone alone is read and indexed, the catalog stays, the others keep serving', async () => {
    const [builds, reads] = [t.app.serving.builds, t.app.serving.reads];
    const catalog = catalogSerial();
    const others = ZONES.filter((z) => z !== ZONES[7]).map((z) => t.app.serving.find(z));
    await c.call('dnsAddA.php', { domain: ZONES[7]!, name: 'new', ip: '192.0.2.200' });
    await c.call('dnsPublish.php', { domain: ZONES[7]! });
    await cycle();
    assert.equal(t.app.serving.builds - builds, 1);
    assert.equal(t.app.serving.reads - reads, 1, 'one snapshot read from the store');
    assert.equal(catalogSerial(), catalog);
    // The very same index objects: not rebuilt, not re-read.
    assert.deepEqual(
      ZONES.filter((z) => z !== ZONES[7]).map((z) => t.app.serving.find(z)),
      others,
    );
    assert.equal((await udpQuery(port, `new.${ZONES[7]}`, 'A')).answers?.[0]?.data, '192.0.2.200');
    assert.equal((await udpQuery(port, `www.${ZONES[3]}`, 'A')).answers?.[0]?.data, '192.0.2.4');
  });

  test('a zone deleted: the catalog changes, no other zone is indexed', async () => {
    const [builds, reads, full] = [t.app.serving.builds, t.app.serving.reads, t.app.serving.stats.fullReads];
    const catalog = catalogSerial()!;
    await c.call('dnsDeleteDomain.php', { domain: ZONES[29]! });
    await cycle();
    assert.equal(t.app.serving.builds, builds);
    assert.equal(t.app.serving.reads, reads);
    // A zone gone is the one change that reads every zone's serial (to learn which left): no snapshot.
    assert.equal(t.app.serving.stats.fullReads, full + 1);
    assert.equal(t.app.serving.size, ZONES.length - 1);
    assert.ok(catalogSerial()! > catalog);
    assert.equal((await udpQuery(port, `www.${ZONES[29]}`, 'A')).rcode, 'REFUSED');
  });

  test('the zone served last is deleted, then another changes: the change is served (served_seq never goes back)', async () => {
    // ZONES[7] holds the highest served_seq (its change above). Before migration 013 its deletion let the next
    // version take that number again, and the reload, which had seen it, skipped that version.
    await c.call('dnsDeleteDomain.php', { domain: ZONES[7]! });
    await cycle();
    await c.call('dnsAddA.php', { domain: ZONES[3]!, name: 'after', ip: '192.0.2.201' });
    await c.call('dnsPublish.php', { domain: ZONES[3]! });
    await cycle();
    assert.equal((await udpQuery(port, `after.${ZONES[3]}`, 'A')).answers?.[0]?.data, '192.0.2.201');
    assert.equal(t.app.serving.size, ZONES.length - 2);
  });
});
