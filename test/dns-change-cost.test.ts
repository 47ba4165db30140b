import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import dnsPacket from 'dns-packet';
import { pino } from 'pino';
import { distributionCycle } from '../src/dns/distribute.ts';
import { defaultSoa, parseRecord } from '../src/dns/records.ts';
import { NameServer } from '../src/dns/server/name-server.ts';
import { answerMessage } from '../src/dns/server/server.ts';
import { ServingSet } from '../src/dns/server/serving-set.ts';
import { fastUdpAvailable } from '../src/dns/server/udp-fast.ts';
import type { ZoneModel, ZoneRecord } from '../src/dns/zone.ts';
import type { Db } from '../src/store/db.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { queryPacket, udpQuery } from './helpers/dns-client.ts';

/**
 * Provider scale (issue 32): one change in one zone costs the same work
 * whatever the number of zones served. Counted, not timed: the rows of
 * (zone, serial) the reload reads from the store, the snapshots it reads,
 * the zone versions it indexes, and the native reply cache's entries it
 * removes (every other zone's cached replies stay and keep being answered
 * in C). The same change, with 10 zones and with 1,000, must count the
 * same. Rows go in through the store (domain-less zones, as a slave's
 * copy is served) and out through the real distribution cycle, which
 * numbers each served version (served_seq) as a publish's would be.
 */
const model = (zone: string, serial: number, extra: string[] = []): ZoneModel => {
  let seq = 0;
  const rec = (type: ZoneRecord['type'], data: ZoneRecord['data']): ZoneRecord => ({ seq: ++seq, type, data });
  return {
    zone,
    serial,
    records: [
      rec('SOA', defaultSoa(zone, 'ns.vigil.test')),
      rec('NS', parseRecord('NS', { subdomain: '', nameserver: 'ns1.ns.vigil.test.' }, zone)),
      ...['www', ...extra].map((name) => rec('A', { name, data: '192.0.2.1' })),
    ],
  };
};

/** Queues a version of each zone, as a publish does, for the next cycle. */
async function queue(db: Db, models: ZoneModel[], now: number): Promise<void> {
  for (let i = 0; i < models.length; i += 200) {
    const rows = models.slice(i, i + 200).map((m) => ({
      zone: m.zone,
      domain_id: null,
      served_serial: null,
      served_snapshot: null,
      pending_serial: m.serial,
      pending_snapshot: JSON.stringify(m),
      removing: 0,
      changed_at: now,
    }));
    await db
      .insertInto('zone_publications')
      .values(rows)
      .onConflict((oc) =>
        oc.column('zone').doUpdateSet((eb) => ({
          pending_serial: eb.ref('excluded.pending_serial'),
          pending_snapshot: eb.ref('excluded.pending_snapshot'),
          changed_at: eb.ref('excluded.changed_at'),
        })),
      )
      .execute();
  }
}

interface Cost {
  serials: number;
  reads: number;
  builds: number;
  fullReads: number;
  /** Native cache entries removed, and entries left. */
  cleared: number;
  entries: number;
}

/** Serves `n` zones, caches one answer of each, changes one zone: what that change cost. */
async function changeCost(t: TestApp, n: number): Promise<Cost> {
  const db = t.app.services.db;
  const zones = Array.from({ length: n }, (_, i) => `z${i}.n${n}.cost.example`);
  await queue(
    db,
    zones.map((z) => model(z, 1)),
    t.clock.now(),
  );
  await distributionCycle(db, t.clock);
  const serving = new ServingSet();
  const server = new NameServer(serving, pino({ level: 'silent' }), { dnsRrlRate: 0 });
  const port = await server.listen('127.0.0.1', 0);
  try {
    await serving.load(db);
    for (const z of zones) assert.ok(serving.find(z));
    // One reply of each zone in the reply caches: stored as the reply went out, before the client had it.
    for (const z of zones) assert.equal((await udpQuery(port, `www.${z}`, 'A')).answers?.length, 1);
    const native = () => server.counters.native?.() ?? null;
    const counts = () => ({ cleared: native()?.cleared ?? 0, entries: native()?.entries ?? 0 });
    const before = { ...serving.stats, ...counts() };
    const target = zones[3]!;
    await queue(db, [model(target, 2, ['new'])], t.clock.now());
    await distributionCycle(db, t.clock);
    await serving.load(db);
    const afterStats = { ...serving.stats, ...counts() };
    // The changed zone answers its new version; another zone's cached reply is still answered in C.
    assert.equal((await udpQuery(port, `new.${target}`, 'A')).answers?.length, 1);
    const hits = native()?.hits ?? 0;
    assert.equal((await udpQuery(port, `www.${zones[7]}`, 'A')).answers?.length, 1);
    if (fastUdpAvailable()) assert.equal(native()!.hits, hits + 1, 'a cached reply of another zone survived');
    return {
      serials: afterStats.serials - before.serials,
      reads: afterStats.reads - before.reads,
      builds: afterStats.builds - before.builds,
      fullReads: afterStats.fullReads - before.fullReads,
      cleared: afterStats.cleared - before.cleared,
      entries: afterStats.entries,
    };
  } finally {
    await server.close();
  }
}

describe('one change in one zone costs the same with 10 zones and with 1,000', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ domainHold: 'none' });
  });
  after(() => t?.close());

  test('serials read, snapshots read, zones indexed and native entries removed: 1 each, at either size', async () => {
    const small = await changeCost(t, 10);
    const large = await changeCost(t, 1000);
    const work = (c: Cost) => ({ serials: c.serials, reads: c.reads, builds: c.builds, fullReads: c.fullReads });
    assert.deepEqual(work(small), { serials: 1, reads: 1, builds: 1, fullReads: 0 });
    assert.deepEqual(work(large), work(small));
    if (fastUdpAvailable()) {
      assert.equal(small.cleared, 1, "the changed zone's one cached reply");
      assert.equal(large.cleared, 1);
      assert.equal(small.entries, 10 - 1, "every other zone's reply stays");
      assert.equal(large.entries, 1000 - 1);
    }
  });

  test('a large version is indexed in slices: the old version answers until the new one is whole', async () => {
    const db = t.app.services.db;
    const zone = 'big.cost.example';
    const names = Array.from({ length: 3000 }, (_, i) => `h${i}`);
    await queue(db, [model(zone, 1)], t.clock.now());
    await distributionCycle(db, t.clock);
    const serving = new ServingSet({ sliceMs: 0 });
    await serving.load(db);
    await queue(db, [model(zone, 2, names)], t.clock.now());
    await distributionCycle(db, t.clock);
    const serialSeen: number[] = [];
    let done = false;
    const loading = serving.load(db).then(() => (done = true));
    // Between slices the event loop turns: each turn here asks the set what it serves.
    while (!done) {
      const [reply] = answerMessage(serving, queryPacket(zone, 'SOA'), 'udp');
      serialSeen.push((dnsPacket.decode(reply!).answers![0] as { data: { serial: number } }).data.serial);
      await new Promise((r) => setImmediate(r));
    }
    await loading;
    assert.ok(serialSeen.length > 10, `the load gave the event loop turns (${serialSeen.length})`);
    assert.ok(
      serialSeen.slice(0, -1).every((s) => s === 1),
      'the old version answered while the new one was indexed',
    );
    assert.equal(serving.find(zone)!.serial, 2);
    assert.equal(serving.find(zone)!.nodes.size, 3000 + 2, 'the apex, www and the 3,000 new names');
  });
});
