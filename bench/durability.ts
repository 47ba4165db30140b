/**
 * Durability benchmark (issue 12, item 9): what `PRAGMA synchronous = FULL`
 * costs against NORMAL on this machine, for the writes users make. In WAL
 * mode NORMAL syncs the WAL only at checkpoints, so a power loss may drop
 * the last commits; FULL syncs the WAL on every commit (sqlite.org/pragma.html
 * #pragma_synchronous). Each round starts the whole service in this process
 * on loopback, sets the mode on its one SQLite connection, and adds A
 * records through the real HTTPS API (dnsAddA.php: a transaction with a
 * read, an insert and an update), one at a time and 16 at once. Then the
 * store alone: single-row commits on a WAL file, the cost without HTTP,
 * TLS or the event loop around it. Rounds alternate NORMAL and FULL so
 * drift of the machine hits both alike; the medians are printed last.
 *
 *   node --import tsx bench/durability.ts [--adds 1500] [--rounds 3] [--commits 3000]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { pino } from 'pino';
import { createAccount } from '../src/accounts/accounts.ts';
import { startApp } from '../src/app.ts';
import { VigilClient } from '../src/client/index.ts';
import { systemClock } from '../src/clock.ts';
import { buildConfig } from '../src/config.ts';
import { freePort, tempDir } from '../test/helpers/server.ts';

const arg = (name: string, dflt: number) => Number(process.argv[process.argv.indexOf(name) + 1]) || dflt;
const ADDS = arg('--adds', 1500);
const ROUNDS = arg('--rounds', 3);
const COMMITS = arg('--commits', 3000);
const PASSWORD = 'benchmark password';

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function round(mode: 'NORMAL' | 'FULL') {
  const dataDir = tempDir('vigil-bench-');
  const config = buildConfig({
    dataDir,
    httpsPort: await freePort(),
    httpPort: 0,
    dnsPort: 0,
    forwardPort: 0,
    domainHold: 'none',
  });
  const app = await startApp(config, { clock: systemClock, logger: pino({ level: 'silent' }) });
  try {
    await sql.raw(`PRAGMA synchronous = ${mode}`).execute(app.services.db);
    const set = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(app.services.db);
    const { apikey } = await createAccount(app.services.db, systemClock, 'bench', {
      password: PASSWORD,
      dnsCredits: 1,
    });
    const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const clients = Array.from(
      { length: 16 },
      () => new VigilClient({ baseUrl: `https://${app.listeners.https}`, ca }),
    );
    const token = await clients[0]!.login(apikey, 'bench', PASSWORD);
    for (const c of clients) [c.apikey, c.sessionToken] = [apikey, token];
    await clients[0]!.call('dnsAddDomain.php', { domain: 'bench.example', domaintype: 'master', aup: 'YES' });
    let n = 0;
    const add = async (c: VigilClient) => {
      const t = performance.now();
      await c.call('dnsAddA.php', { domain: 'bench.example', name: `h${n++}`, ip: '192.0.2.1' });
      return performance.now() - t;
    };
    const measure = async (concurrency: number) => {
      const latencies: number[] = [];
      const started = performance.now();
      await Promise.all(
        clients.slice(0, concurrency).map(async (c, i) => {
          for (let k = i; k < ADDS; k += concurrency) latencies.push(await add(c));
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      latencies.sort((a, b) => a - b);
      return {
        concurrency,
        addsPerSecond: Math.round(ADDS / seconds),
        p50ms: +pct(latencies, 50).toFixed(2),
        p99ms: +pct(latencies, 99).toFixed(2),
      };
    };
    const result = { mode, pragma: set.rows[0]?.synchronous, runs: [await measure(1), await measure(16)] };
    clients.forEach((c) => c.close());
    return result;
  } finally {
    await app.close();
  }
}

/** Single-row commits straight on a WAL file: what each mode costs per commit. */
function storeRound(mode: 'NORMAL' | 'FULL') {
  const db = new SqliteDatabase(join(tempDir('vigil-bench-'), 'store.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${mode}`);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, data TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (data) VALUES (?)');
  const commit = db.transaction((i: number) => insert.run(`{"name":"h${i}","data":"192.0.2.1"}`));
  const started = performance.now();
  for (let i = 0; i < COMMITS; i++) commit(i);
  const ms = performance.now() - started;
  db.close();
  return { mode, commitsPerSecond: Math.round((COMMITS * 1000) / ms), usPerCommit: Math.round((ms * 1000) / COMMITS) };
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const api: Awaited<ReturnType<typeof round>>[] = [];
const store: ReturnType<typeof storeRound>[] = [];
for (let r = 0; r < ROUNDS; r++) for (const mode of ['NORMAL', 'FULL'] as const) api.push(await round(mode));
for (let r = 0; r < ROUNDS; r++) for (const mode of ['NORMAL', 'FULL'] as const) store.push(storeRound(mode));
const summary = Object.fromEntries(
  (['NORMAL', 'FULL'] as const).map((mode) => {
    const runs = api.filter((a) => a.mode === mode).flatMap((a) => a.runs);
    const at = (c: number, k: 'addsPerSecond' | 'p50ms' | 'p99ms') =>
      median(runs.filter((x) => x.concurrency === c).map((x) => x[k]));
    const s = store.filter((x) => x.mode === mode);
    return [
      mode,
      {
        apiAddsPerSecond: { c1: at(1, 'addsPerSecond'), c16: at(16, 'addsPerSecond') },
        apiP50ms: { c1: at(1, 'p50ms'), c16: at(16, 'p50ms') },
        apiP99ms: { c1: at(1, 'p99ms'), c16: at(16, 'p99ms') },
        storeCommitsPerSecond: median(s.map((x) => x.commitsPerSecond)),
        storeUsPerCommit: median(s.map((x) => x.usPerCommit)),
      },
    ];
  }),
);
console.log(JSON.stringify({ adds: ADDS, rounds: ROUNDS, commits: COMMITS, api, store, summary }, null, 2));
