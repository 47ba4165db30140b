import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { pino } from 'pino';
import { createAccount } from '../src/accounts/accounts.ts';
import { BossQueue } from '../src/audit/queue-boss.ts';
import type { AuditJob, AuditQueue } from '../src/audit/queue.ts';
import { Audits } from '../src/audit/service.ts';
import { AuditStore } from '../src/audit/store.ts';
import { systemClock } from '../src/clock.ts';
import { buildConfig } from '../src/config.ts';
import type { Db } from '../src/store/db.ts';
import { openStore } from '../src/store/open.ts';
import { TEST_DB, testDb } from './helpers/pgdb.ts';
import { tempDir } from './helpers/server.ts';
import { eventually } from './helpers/wait.ts';

// The queues alone, on real stores, with handlers that hold each audit until
// the test lets it go: two queues on two connection pools (as two processes
// have) race for 12 audits of two accounts, 6 slots each, limit 2 per account.
// PostgreSQL (pg-boss) only: two SQLite handles in one process block each
// other (better-sqlite3 waits synchronously, so the holder's async
// transaction cannot finish); SQLite's processes race in test/worker-lease.test.ts.

const quiet = pino({ level: 'silent' });

async function twoStores(): Promise<{ a: Db; b: Db; url: string; dataDir: string }> {
  const dataDir = tempDir();
  const url = (await testDb(dataDir))!;
  const config = buildConfig({ dataDir, db: url });
  return { a: await openStore(config), b: await openStore(config), url, dataDir };
}

function queueOn(db: Db, url: string): AuditQueue {
  return new BossQueue(db, systemClock, url, { concurrency: 6, perAccount: 2, pollMs: 100 }, quiet);
}

test('two pg-boss queues racing on one store: never more than the account limit running, every audit run exactly once', {
  skip: TEST_DB ? false : 'needs VIGIL_TEST_DB (pg-boss)',
}, async () => {
  const { a, b, url } = await twoStores();
  const queues = [queueOn(a, url), queueOn(b, url)];
  const running = new Map<number, number>(); // account id -> running now
  const ran: number[] = [];
  let most = 0;
  const accountOf = new Map<number, number>();
  const release: (() => void)[] = [];
  const handler = async (job: AuditJob) => {
    const account = accountOf.get(job.id)!;
    const now = (running.get(account) ?? 0) + 1;
    running.set(account, now);
    most = Math.max(most, now);
    ran.push(job.id);
    await new Promise<void>((r) => release.push(r));
    running.set(account, running.get(account)! - 1);
    // The runner's write of the result, as the real one makes it (only while the lease is held).
    assert.ok(
      await new AuditStore(a).finish(job.id, job.owner, {
        state: 'done',
        reason: null,
        ended_at: Date.now(),
        report: '{}',
      }),
    );
  };
  try {
    await Promise.all(queues.map((q) => q.start(handler)));
    const services = [a, b].map(
      (db, i) =>
        new Audits(
          db,
          systemClock,
          ['127.0.0.0/8'],
          () => queues[i]!.wake(),
          (trx, id) => queues[i]!.enqueue(trx, id),
        ),
    );
    const accounts = [];
    for (const userid of ['claims1', 'claims2'])
      accounts.push(
        (
          await createAccount(a, systemClock, userid, {
            password: 'pw pw pw 7',
            auditTypes: 'basic',
            allowIp: '127.0.0.0/24',
          })
        ).account,
      );
    for (let i = 0; i < 12; i++) {
      const account = accounts[i % 2]!;
      // Written through either store, as requests reach either process.
      const q = await services[i % 2]!.run(account, { ipaddr: '127.0.0.46', audittype: 'basic' }, '127.0.0.1');
      accountOf.set(q.scanuid, account.id);
    }
    // Let the queues fill what they may, then let one audit go at a time.
    for (let done = 0; done < 12; done++) {
      await eventually(async () => release.length > 0, `an audit running (${done} done)`);
      await new Promise((r) => setTimeout(r, 300)); // give both queues the chance to overfill
      assert.ok(
        [...running.values()].every((n) => n <= 2),
        JSON.stringify([...running]),
      );
      release.shift()!();
    }
    await eventually(async () => (await new AuditStore(a).ended()) === 12, 'all 12 ended');
    assert.equal(most, 2, 'the limit was reached, never passed');
    assert.deepEqual(
      [...ran].sort((x, y) => x - y),
      [...accountOf.keys()].sort((x, y) => x - y),
      'each audit ran once',
    );
  } finally {
    release.forEach((r) => r());
    await Promise.all(queues.map((q) => q.stop()));
    await b.destroy();
    await a.destroy();
  }
});

test('a claim waits for another process’s open claim of the same account, then sees the account at its limit', {
  skip: TEST_DB ? false : 'needs VIGIL_TEST_DB (row locks)',
}, async () => {
  const { a, b } = await twoStores();
  let letGo = () => {};
  let first: Promise<unknown> = Promise.resolve();
  try {
    const { account } = await createAccount(a, systemClock, 'claims3', {
      password: 'pw pw pw 7',
      auditTypes: 'basic',
      allowIp: '127.0.0.0/24',
    });
    const audits = new Audits(a, systemClock, ['127.0.0.0/8'], () => {});
    const [one, two] = [
      await audits.run(account, { ipaddr: '127.0.0.47', audittype: 'basic' }, '127.0.0.1'),
      await audits.run(account, { ipaddr: '127.0.0.47', audittype: 'basic' }, '127.0.0.1'),
    ];
    const lease = (owner: string) => ({ owner, until: Date.now() + 30_000 });
    const held = new Promise<void>((r) => (letGo = r));
    let claimedFirst!: () => void;
    const firstIn = new Promise<void>((r) => (claimedFirst = r));
    // Process A: claims audit one and keeps its transaction open.
    first = a.transaction().execute(async (trx) => {
      const out = await new AuditStore(trx).claim(trx, one.scanuid, lease('a/1/x'), 1, Date.now());
      claimedFirst();
      await held;
      return out;
    });
    await firstIn;
    // Process B: claims audit two of the same account meanwhile; limit 1.
    let settled = false;
    const second = b
      .transaction()
      .execute((trx) => new AuditStore(trx).claim(trx, two.scanuid, lease('b/2/y'), 1, Date.now()))
      .finally(() => (settled = true));
    // B seen waiting on a lock by PostgreSQL itself (was: a fixed 500 ms, after which B might not even have
    // asked yet on a loaded machine, and the check below passed for nothing).
    await eventually(async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(a);
      return rows[0]!.n > 0;
    }, "B's claim waiting on a lock");
    assert.equal(settled, false, 'B waits on the account row A locked (else both would see 0 running)');
    letGo();
    assert.equal(((await first) as { kind: string }).kind, 'claimed');
    assert.deepEqual(await second, { kind: 'busy', accountId: account.id });
  } finally {
    // A's transaction must end before its pool can close.
    letGo();
    await first.catch(() => {});
    await b.destroy();
    await a.destroy();
  }
});
