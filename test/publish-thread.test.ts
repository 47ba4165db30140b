import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import type { Publisher } from '../src/dns/publish.ts';
import { THREAD_FROM } from '../src/dns/publish-thread.ts';
import { buildZone, nextSerial } from '../src/dns/zone.ts';
import { domainByName, ownDomain } from '../src/dns/zone-store/domains.ts';
import { zoneRecords } from '../src/dns/zone-store/records.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { freePort } from './helpers/server.ts';

const PASSWORD = 'correct horse 32c';
const ZONE = 'big.example';
const OTHER = 'other.example';
/** Enough that the checks are real work (a test load of 2,000 names); small enough for the suite's budget. */
const RECORDS = 2000;

/**
 * dnsPublish.php checks a version on the publish thread, outside any
 * transaction (issue 32; docs/performance.md, "Publish off the main
 * thread"): a 100,000-record zone's checks held the main thread, and with
 * it the API and the name server, for seconds. Event order, not time: the
 * check job is held on its thread (Publisher.hold) until calls made after
 * it started are answered. Checks on the main thread would finish before
 * those calls are even read (and the hold is not honoured there), and
 * checks inside the transaction would keep the write below waiting for
 * SQLite's one connection: either way `checked` comes first and the test
 * fails.
 */
describe('publish off the main thread', () => {
  let t: TestApp;
  let c: VigilClient;
  let port: number;
  let publisher: Publisher;
  const events: string[] = [];

  /** Holds the next check jobs until `release`; `whileHeld` runs on the main thread when one starts. */
  function holdChecks(whileHeld: () => Promise<void>) {
    const hold = new Int32Array(new SharedArrayBuffer(4));
    publisher.hold = hold;
    publisher.onChecking = () => {
      events.push('checking');
      // Only the first job of the publish is held (a retry's finds hold[0] set).
      if (Atomics.load(hold, 0) !== 0) return;
      void whileHeld().finally(() => {
        Atomics.store(hold, 0, 1);
        Atomics.notify(hold, 0);
      });
    };
    publisher.onChecked = () => events.push('checked');
  }

  before(async () => {
    port = await freePort();
    // No --resolver: the publish hint asks nothing of the world, so the checks are CPU and nothing else.
    t = await startTestApp({ dnsPort: port, domainHold: 'none', resolvers: [] });
    publisher = t.app.services.dns.publisher;
    c = t.client();
    await c.login(await t.account('pub', PASSWORD, { dnsCredits: 2 }), 'pub', PASSWORD);
    for (const domain of [ZONE, OTHER]) await c.call('dnsAddDomain.php', { domain, domaintype: 'master', aup: 'YES' });
    const text = Array.from({ length: RECORDS }, (_, i) => `h${i} 3600 IN A 10.0.${i >> 8}.${i & 255}`).join('\n');
    const imported = await c.call('dnsImportZone.php', { domain: ZONE, zone: `$ORIGIN ${ZONE}.\n${text}\n` });
    assert.equal(imported.imported, RECORDS, JSON.stringify(imported.errors));
  });
  afterEach(() => {
    publisher.hold = undefined;
    publisher.onChecking = undefined;
    publisher.onChecked = undefined;
    events.length = 0;
  });
  after(() => t?.close());

  test('a read and a write on another zone are answered while a publish is checked', async () => {
    holdChecks(async () => {
      const list = await c.call('dnsGetDomainList.php', {});
      assert.equal(Object.keys(list.domains as object).length, 2);
      await c.call('dnsAddA.php', { domain: OTHER, name: 'www', ip: '192.0.2.1' });
      events.push('answered');
    });
    const published = await c.call('dnsPublish.php', { domain: ZONE });
    assert.equal(published.errors, undefined, JSON.stringify(published.errors));
    assert.deepEqual(events, ['checking', 'answered', 'checked']);
  });

  test('a record added while the version is checked is in what the publish stores', async () => {
    holdChecks(async () => {
      await c.call('dnsAddA.php', { domain: ZONE, name: 'late', ip: '192.0.2.2' });
    });
    const published = await c.call('dnsPublish.php', { domain: ZONE });
    assert.equal(published.errors, undefined, JSON.stringify(published.errors));
    // The first check's version was stale at its write: checked again, with the record.
    assert.deepEqual(events, ['checking', 'checked', 'checking', 'checked']);
    await (t.app.services.dns.schedule as CycleLoop).cycle();
    assert.equal((await udpQuery(port, `late.${ZONE}`, 'A')).answers?.length, 1);
    assert.equal((await udpQuery(port, `h${RECORDS - 1}.${ZONE}`, 'A')).answers?.length, 1);
  });

  test('dnsBuildZone.php writes a large zone on the thread: the same text as zone.ts writes here', async () => {
    assert.ok(RECORDS >= THREAD_FROM);
    const db = t.app.services.db;
    const row = (await ownDomain(db, (await domainByName(db, ZONE))!.account_id, ZONE))!;
    const serial = nextSerial(Number(row.serial) || null, new Date(t.clock.now()));
    const expected = buildZone({ zone: ZONE, serial, records: await zoneRecords(db, row.id) });
    assert.equal((await c.call('dnsBuildZone.php', { domain: ZONE })).zone, expected);
  });

  test('a version with errors is refused with the same errors as before', async () => {
    await c.call('dnsAddCNAME.php', { domain: OTHER, alias: 'loop', name: 'loop' });
    const published = await c.call('dnsPublish.php', { domain: OTHER });
    assert.deepEqual(published.errors, [`CNAME at loop.${OTHER} points at itself`]);
  });
});
