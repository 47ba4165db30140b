/**
 * Audits finished per minute by `bin/vigil worker` processes sharing one
 * PostgreSQL queue (pg-boss), 1 worker vs 2 side by side in the same run,
 * on a fixed loopback target set: 8 addresses 127.0.0.50-57, each with a
 * small HTTP server on port 8000, `basic` audits (nmap's top-100 ports,
 * detection, the checks of what answers). 8 accounts share the queue so
 * that the per-account limit (2) never is what holds the workers back;
 * each worker runs --audit-workers 2 (a third set-up: one worker with 4).
 *   node --import tsx bench/scale-audits.ts [--seconds 60]
 * VIGIL_BENCH_DB: a PostgreSQL server URL whose role may CREATE DATABASE;
 * without it a throwaway cluster is started (.ci/pg-cluster).
 * bench/scale.ts imports auditsPerMinute() for its own table.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { createAccount } from '../src/accounts/accounts.ts';
import { BossQueue } from '../src/audit/queue-boss.ts';
import { Audits } from '../src/audit/service.ts';
import { AuditStore } from '../src/audit/store.ts';
import { systemClock } from '../src/clock.ts';
import { buildConfig } from '../src/config.ts';
import { openStore } from '../src/store/open.ts';
import { tempDir } from '../test/helpers/server.ts';
import { startWorker, type Worker } from '../test/helpers/workers.ts';

const run = promisify(execFile);
const CLUSTER = resolve(import.meta.dirname, '../.ci/pg-cluster');
const TARGETS = Array.from({ length: 8 }, (_, i) => `127.0.0.${50 + i}`);
const ACCOUNTS = 8;
const PER_WORKER = 2;

/** One HTTP server per target address (port 8000 is among the basic audit's ports). */
async function targets(): Promise<Server[]> {
  return Promise.all(
    TARGETS.map(
      (address) =>
        new Promise<Server>((res, rej) => {
          const s = createServer((_q, r) => r.end('<html><body>bench</body></html>\n'));
          s.once('error', rej).listen(8000, address, () => res(s));
        }),
    ),
  );
}

/**
 * Fills the queue of the empty database `db` with `count` audits through
 * the same service the API calls (pg-boss jobs included), round-robin over
 * accounts and targets.
 */
async function fill(db: string, dataDir: string, count: number): Promise<void> {
  const config = buildConfig({ dataDir, db });
  const store = await openStore(config);
  const queue = new BossQueue(store, systemClock, db, { concurrency: 0, perAccount: 2 }, pino({ level: 'silent' }));
  await queue.start(async () => {});
  try {
    const audits = new Audits(
      store,
      systemClock,
      ['127.0.0.0/8'],
      () => {},
      (trx, id) => queue.enqueue(trx, id),
    );
    const accounts = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      accounts.push(
        (
          await createAccount(store, systemClock, `bench${i}`, {
            password: 'benchmark password',
            auditTypes: 'basic',
            allowIp: '127.0.0.0/24',
          })
        ).account,
      );
    }
    for (let i = 0; i < count; i++)
      await audits.run(
        accounts[i % ACCOUNTS]!,
        { ipaddr: TARGETS[i % TARGETS.length]!, audittype: 'basic' },
        '127.0.0.1',
      );
  } finally {
    await queue.stop();
    await store.destroy();
  }
}

/**
 * Audits finished per minute by `workers` worker processes on the empty
 * database `db`, counted over `seconds` once they are all ready (the queue
 * is kept longer than they can drain).
 */
export async function auditsPerMinute(opts: {
  db: string;
  workers: number;
  seconds: number;
  perWorker?: number;
}): Promise<number> {
  const perWorker = opts.perWorker ?? PER_WORKER;
  const dataDir = tempDir('vigil-bench-audits-');
  const servers = await targets();
  // More than can finish (a basic audit of one of these targets takes ~0.8 s): the queue must not run dry in
  // the window.
  await fill(opts.db, dataDir, Math.max(40, opts.workers * perWorker * opts.seconds * 2));
  const store = await openStore(buildConfig({ dataDir, db: opts.db }));
  const counter = new AuditStore(store);
  const running: Worker[] = [];
  try {
    running.push(
      ...(await Promise.all(
        Array.from({ length: opts.workers }, () =>
          startWorker(dataDir, ['--db', opts.db, '--audit-workers', String(perWorker)], { VIGIL_LOG_LEVEL: 'warn' }),
        ),
      )),
    );
    const before = await counter.ended();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, opts.seconds * 1000));
    const after = await counter.ended();
    const minutes = (performance.now() - t0) / 60_000;
    if ((await counter.depth()).queued === 0)
      throw new Error('the queue ran dry during the window: the figure would be the queue length');
    return Math.round(((after - before) / minutes) * 10) / 10;
  } finally {
    await Promise.all(running.map((w) => w.stop()));
    await store.destroy();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

async function database(server: string, name: string): Promise<string> {
  const c = new pg.Client({ connectionString: server });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return Object.assign(new URL(server), { pathname: `/${name}` }).toString();
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 60;
  let server = process.env.VIGIL_BENCH_DB || null;
  const cluster = server ? null : tempDir('vigil-bench-pg-');
  if (cluster) server = (await run(CLUSTER, ['start', cluster])).stdout.trim();
  try {
    // The third row tells a second process from a second pair of slots: the same 4 audits at once in one process.
    const setups = [
      { workers: 1, perWorker: PER_WORKER },
      { workers: 2, perWorker: PER_WORKER },
      { workers: 1, perWorker: 2 * PER_WORKER },
    ];
    const rows: [string, number][] = [];
    for (const [i, s] of setups.entries()) {
      const n = await auditsPerMinute({ db: await database(server!, `vigil_bench_audits_${i}`), seconds, ...s });
      rows.push([`${s.workers} × --audit-workers ${s.perWorker}`, n]);
    }
    console.log(
      `\nbasic audits of 8 loopback HTTP targets, ${seconds} s each:\n\n| worker processes | audits/min | vs the first |\n|---|---|---|`,
    );
    for (const [w, n] of rows) console.log(`| ${w} | ${n} | ${(n / rows[0]![1]).toFixed(2)} |`);
  } finally {
    if (cluster) await run(CLUSTER, ['stop', cluster]).catch(() => {});
  }
}
