import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createAccount } from '../accounts/accounts.ts';
import { accountByUserid } from '../accounts/account-store.ts';
import { LoginThrottle, POLICY } from '../accounts/throttle.ts';
import { Audits } from '../audit/service.ts';
import { ManualClock } from '../clock.ts';
import { buildConfig } from '../config.ts';
import { distributionCycle } from '../dns/distribute.ts';
import { Domains } from '../dns/domains.ts';
import { DnssecSettings } from '../dns/dnssec-settings.ts';
import { ZoneSigner } from '../dns/sign-pass.ts';
import { Publisher } from '../dns/publish.ts';
import { DnsEgress } from '../dns/egress.ts';
import { ZoneEdits } from '../dns/zone-edits.ts';
import { ApiError } from '../errors.ts';
import { freshDatabase, TEST_DB } from '../../test/helpers/pgdb.ts';
import { tempDir } from '../../test/helpers/server.ts';
import { type Db, openSqlite } from './db.ts';
import { isPostgresUrl, openPostgres } from './postgres.ts';

/**
 * Issue 13: the read-then-write checks hold across processes, not just
 * inside one. Each race runs in two worker threads, each with its own
 * connection to the store (PostgreSQL: its own pool; SQLite: its own
 * connection to the one file), released together by a barrier; each worker
 * also sends its attempts at once. A worker thread blocks on SQLite's busy
 * wait alone, as a process would, so the two really interleave.
 */
const T = Date.UTC(2026, 10, 23, 12);
const DAY = 86_400_000;
const KEK = Buffer.alloc(32, 7);
const open = (store: string): Promise<Db> => (isPostgresUrl(store) ? openPostgres(store) : openSqlite(store));
const settings = (dataDir: string) => buildConfig({ dataDir, maxZoneRecords: 25 });

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    const r = await work;
    return r && typeof r === 'object' && 'allowed' in r ? (r.allowed ? 'ok' : 'throttled') : 'ok';
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    return `error: ${(err as Error).message}`;
  }
}

/** The attempts one worker makes, by race; `w` is the worker's number. */
type Race = 'credits' | 'forwarding' | 'name' | 'norisk' | 'throttle' | 'records' | 'publish' | 'signing';
async function attempts(race: Race, db: Db, w: number): Promise<Promise<unknown>[]> {
  const clock = new ManualClock(T);
  const domains = new Domains(db, clock, settings(tempDir()));
  const edits = new ZoneEdits(domains);
  const account = async (userid: string) => (await accountByUserid(db, userid))!;
  const [one, two] = [await account('one'), await account('two')];
  const n = [0, 1, 2];
  switch (race) {
    case 'credits':
      return n.map((i) => domains.add(one, { domain: `c${w}${i}.example`, domaintype: 'master', aup: 'YES' }));
    case 'forwarding': {
      // Each worker adds web forwarding to its own domain; the first one of a domain takes a credit.
      const fw = await account('fw');
      return [0, 1].map((i) =>
        edits.add(fw, 'WebForwarding', { domain: `f${w}.example`, host: `h${i}`, target: 'https://example.org/' }),
      );
    }
    case 'name':
      // `one` spent its credit above: with more credits here, only the name can refuse.
      return n.map((i) =>
        domains.add(i % 2 ? { ...one, dns_credits: 5 } : two, {
          domain: 'same.example',
          domaintype: 'master',
          aup: 'YES',
        }),
      );
    case 'norisk': {
      const audits = new Audits(db, clock, ['127.0.0.0/8'], () => {});
      return n.map(() => audits.run(one, { audittype: 'norisk', ipaddr: '127.0.0.1' }, '127.0.0.1'));
    }
    case 'throttle': {
      const throttle = new LoginThrottle(db, clock);
      return [...n, ...n].map(() => throttle.reserve('victim', '192.0.2.7'));
    }
    case 'records':
      // 5 records come with the domain, the cap is 25: 20 of the 24 adds fit.
      return Array.from({ length: 12 }, (_, i) =>
        edits.add(two, 'A', { domain: 'zone.example', name: `w${w}h${i}`, ip: '192.0.2.1' }),
      );
    case 'publish': {
      const publisher = new Publisher(domains, new DnsEgress([], []));
      const steps = async (i: number) => {
        await edits.add(two, 'TXT', { domain: 'pub.example', name: `w${w}t${i}`, txtdata: 'v' });
        const out = await publisher.publish(two, 'pub.example');
        if (out.reply.errors) throw new Error(out.reply.errors.join('; '));
        if (i % 2) await distributionCycle(db, clock);
        return out.serial;
      };
      return n.map(steps);
    }
    case 'signing': {
      // Two signers (a cycle and `admin distribute`) meet a zone that has no keys yet.
      const signer = new ZoneSigner(db, clock, { kek: () => KEK, forwardAddress: null, intervalMs: 0 });
      return n.map(() => signer.pass());
    }
  }
}

if (!isMainThread) {
  const { store, race, w, barrier } = workerData as {
    store: string;
    race: Race;
    w: number;
    barrier: SharedArrayBuffer;
  };
  const db = await open(store);
  try {
    const gate = new Int32Array(barrier);
    Atomics.add(gate, 0, 1);
    Atomics.notify(gate, 0);
    while (Atomics.load(gate, 0) < 2) Atomics.wait(gate, 0, Atomics.load(gate, 0), 50);
    const work = await attempts(race, db, w);
    const results = await Promise.all(
      work.map(async (p) => ({
        code: await codeOf(p),
        value: await p.then(
          (v) => (typeof v === 'number' ? v : null),
          () => null,
        ),
      })),
    );
    parentPort!.postMessage(results);
  } finally {
    await db.destroy();
  }
}

/** Runs a race in two workers; every attempt's code (and numeric result), both workers' together. */
async function race(store: string, name: Race): Promise<{ code: string; value: number | null }[]> {
  const barrier = new SharedArrayBuffer(4);
  const runs = [0, 1].map(
    (w) =>
      new Promise<{ code: string; value: number | null }[]>((res, rej) => {
        // The worker runs this file through tsx, as bin/vigil runs the sources.
        const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`;
        const worker = new Worker(boot, { eval: true, workerData: { store, race: name, w, barrier } });
        worker.once('message', res);
        worker.once('error', rej);
        worker.once('exit', (code) => code !== 0 && rej(new Error(`worker exited ${code}`)));
      }),
  );
  return (await Promise.all(runs)).flat();
}

const count = (results: { code: string }[], code: string) => results.filter((r) => r.code === code).length;
const codes = (results: { code: string }[]) => results.map((r) => r.code).join();

// Each engine on its own pass of the suite: with VIGIL_TEST_DB set (the PostgreSQL pass of .ci/run) the SQLite
// races have run already on the SQLite pass, and ran a second time for nothing (13 s; issue 32).
const engines = [
  {
    name: 'SQLite',
    store: async () => join(tempDir(), 'vigil.sqlite'),
    skip: TEST_DB ? 'run on the SQLite pass (VIGIL_TEST_DB is set)' : (false as const),
  },
  { name: 'PostgreSQL', store: () => freshDatabase(), skip: TEST_DB ? (false as const) : 'VIGIL_TEST_DB is not set' },
];

if (isMainThread) {
  for (const engine of engines) {
    describe(`two processes racing on ${engine.name}`, { skip: engine.skip }, () => {
      let store: string;
      let db: Db;
      const clock = new ManualClock(T);

      test('set up: the store and its accounts', async () => {
        store = await engine.store();
        db = await open(store);
        const expiry = T + DAY;
        await createAccount(db, clock, 'one', {
          password: 'long enough',
          dnsCredits: 1,
          dnsExpiry: expiry,
          auditTypes: 'norisk',
          allowIp: '127.0.0.1',
        });
        const { account: two } = await createAccount(db, clock, 'two', {
          password: 'long enough',
          dnsCredits: 10,
          dnsExpiry: expiry,
        });
        const domains = new Domains(db, clock, { ...settings(tempDir()), domainHold: 'none' });
        for (const domain of ['zone.example', 'pub.example', 'sig.example'])
          await domains.add(two, { domain, domaintype: 'master', aup: 'YES' });
        await new DnssecSettings(domains, () => KEK).set(two, 'sig.example', 'YES');
        const published = await new Publisher(domains, new DnsEgress([], [])).publish(two, 'sig.example');
        assert.equal(published.reply.errors, undefined);
        const { account: fw } = await createAccount(db, clock, 'fw', {
          password: 'long enough',
          dnsCredits: 3,
          dnsExpiry: expiry,
        });
        for (const domain of ['f0.example', 'f1.example'])
          await domains.add(fw, { domain, domaintype: 'master', aup: 'YES' });
      });

      test('credits: one credit buys one domain', async () => {
        const r = await race(store, 'credits');
        assert.equal(count(r, 'ok'), 1, codes(r));
        assert.equal(count(r, 'dnsEntitlementsOrCreditsMissing'), r.length - 1, codes(r));
      });

      test('credits: the one spare credit goes to the first web forwarding of one domain', async () => {
        const r = await race(store, 'forwarding');
        // Worker 0's two adds, then worker 1's: one domain gets both, the other none.
        assert.equal(count(r, 'ok'), 2, codes(r));
        assert.equal(count(r, 'dnsEntitlementsOrCreditsMissing'), 2, codes(r));
        assert.equal(r[0]!.code, r[1]!.code, codes(r));
      });

      test('one name goes to one account', async () => {
        const r = await race(store, 'name');
        assert.equal(count(r, 'ok'), 1, codes(r));
        assert.equal(count(r, 'unableToAddDuplicate'), r.length - 1, codes(r));
      });

      test('norisk: one audit per address and month, whoever asks', async () => {
        const r = await race(store, 'norisk');
        assert.equal(count(r, 'ok'), 1, codes(r));
        assert.equal(count(r, 'noriskAlreadyRun'), r.length - 1, codes(r));
      });

      test('login throttle: a burst from two processes gets exactly the free attempts', async () => {
        const r = await race(store, 'throttle');
        assert.equal(count(r, 'ok'), POLICY.pair.free, codes(r));
        assert.equal(count(r, 'throttled'), r.length - POLICY.pair.free, codes(r));
      });

      test('record writes: the zone cap holds, and every write raised the records version once', async () => {
        const r = await race(store, 'records');
        assert.equal(count(r, 'ok'), 20, codes(r));
        assert.equal(count(r, 'unspecifiedError'), 4, codes(r));
        const row = await db
          .selectFrom('domains')
          .select(['id', 'records_version'])
          .where('name', '=', 'zone.example')
          .executeTakeFirstOrThrow();
        const { n } = await db
          .selectFrom('records')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('domain_id', '=', row.id)
          .executeTakeFirstOrThrow();
        assert.equal(Number(n), 25);
        assert.equal(Number(row.records_version), 1 + 20); // the domain's first five in one write, then one per add
      });

      test('publishes and cycles: every publish a new serial, the last one pending or served whole', async () => {
        const r = await race(store, 'publish');
        assert.equal(count(r, 'ok'), 6, codes(r));
        const serials = r.map((x) => x.value!);
        assert.equal(new Set(serials).size, 6, `serials ${serials.join()}`);
        await distributionCycle(db, clock);
        const domain = await db
          .selectFrom('domains')
          .select(['id', 'serial', 'state'])
          .where('name', '=', 'pub.example')
          .executeTakeFirstOrThrow();
        const pub = await db
          .selectFrom('zone_publications')
          .selectAll()
          .where('zone', '=', 'pub.example')
          .executeTakeFirstOrThrow();
        assert.equal(Number(domain.serial), Math.max(...serials));
        assert.equal(Number(pub.served_serial), Math.max(...serials));
        assert.equal(pub.pending_snapshot, null);
        // The last publish (in either process) came after the last add of its own process;
        // the served version holds at least every record that publish saw, and is a whole zone.
        const served = JSON.parse(pub.served_snapshot!);
        assert.equal(served.serial, Math.max(...serials));
        assert.ok(served.records.filter((x: { type: string }) => x.type === 'TXT').length >= 3);
        assert.equal(served.records.filter((x: { type: string }) => x.type === 'SOA').length, 1);
      });

      test('signing: two signers at once give a zone one KSK and one ZSK', async () => {
        const r = await race(store, 'signing');
        assert.equal(count(r, 'ok'), 6, codes(r));
        const domain = await db
          .selectFrom('domains')
          .select('id')
          .where('name', '=', 'sig.example')
          .executeTakeFirstOrThrow();
        const keys = await db
          .selectFrom('dnssec_keys')
          .select('role')
          .where('domain_id', '=', domain.id)
          .orderBy('role')
          .execute();
        assert.deepEqual(
          keys.map((k) => k.role),
          ['ksk', 'zsk'],
        );
        const pub = await db
          .selectFrom('zone_publications')
          .select(['pending_resign_at', 'pending_snapshot'])
          .where('zone', '=', 'sig.example')
          .executeTakeFirstOrThrow();
        assert.ok(
          pub.pending_resign_at !== null && JSON.parse(pub.pending_snapshot!).dnssec,
          'the pending version is signed',
        );
      });

      test('a records reply cached in one process is not served after a write in another', async () => {
        const other = await open(store);
        try {
          const two = (await accountByUserid(db, 'two'))!;
          const here = new ZoneEdits(new Domains(db, clock, settings(tempDir())));
          const there = new ZoneEdits(new Domains(other, clock, settings(tempDir())));
          const before = await here.records(two, 'pub.example');
          assert.equal(
            await here.records(two, 'pub.example').then((x) => x.records),
            before.records,
            'the second read is the cached reply',
          );
          await there.add(two, 'A', { domain: 'pub.example', name: 'fresh', ip: '192.0.2.9' });
          const after = await here.records(two, 'pub.example');
          assert.equal(Object.keys(after.records).length, Object.keys(before.records).length + 1);
          assert.ok(Object.values(after.records).some((x) => x.data.name === 'fresh'));
          const seq = Object.values(after.records).find((x) => x.data.name === 'fresh')!.seq;
          await there.deleteRecord(two, seq);
          assert.equal(
            Object.keys((await here.records(two, 'pub.example')).records).length,
            Object.keys(before.records).length,
          );
        } finally {
          await other.destroy();
          await db.destroy();
        }
      });
    });
  }
}
