/**
 * Read paths at scale (issue 13), with PowerDNS 4.7's API as the peer, all
 * in ONE run so that the ratios compare like with like on this shared
 * machine:
 *
 * (a) dnsGetDomainRecords.php of a zone of 1,000 A records at c=8, against
 *     `bin/vigil serve` on SQLite (and on PostgreSQL: VIGIL_BENCH_DB, or a
 *     throwaway .ci/pg-cluster), next to PowerDNS's
 *     `GET /api/v1/servers/localhost/zones/<zone>` on the same records;
 * (b) the authenticated cheap call (dnsGetDomainList.php, no domains) at
 *     c=32, next to a bare Fastify HTTPS handler with Vigil's certificate
 *     (the ceiling) and PowerDNS's cheapest authenticated GET
 *     (`/api/v1/servers/localhost`).
 *
 *   node --import tsx bench/reads.ts [--seconds 10] [--rounds 1] [--no-pg] [--profile DIR]
 *
 * --profile runs the SQLite serve under `node --cpu-prof` and prints the
 * self time of the cheap call's load window (bench/reads-profile.ts).
 * Servers run in processes of their own; autocannon runs in this one.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { encodeForm, VigilClient } from '../src/client/index.ts';
import { VIGIL } from '../test/helpers/server.ts';
import {
  cpuOf,
  freshPgDatabase,
  PDNS_API_KEY,
  pdnsSchema,
  startBareFastify,
  startPdns,
  startVigil,
  type Started,
  type Vigil,
} from './reads-peers.ts';
import { mainProfile, nowMicros, printSummary, summarize } from './reads-profile.ts';

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const seconds = Number(arg('--seconds')) || 10;
const rounds = Number(arg('--rounds')) || 1;
const profileDir = arg('--profile') ? resolve(arg('--profile')!) : null;
const RECORDS = 1000;
const ZONE = 'vigil-bench.org';
const PASSWORD = 'benchmark password';
// Kept after the run (not a test temporary directory): the servers' logs, to look at errors.
const logs = mkdtempSync(join(tmpdir(), 'vigil-bench-logs-'));

interface Target {
  label: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  expectBody: string;
  connections: number;
  /** The server closes each connection after its reply (PowerDNS): see closingLoad. */
  closes?: boolean;
  /** The server's process, for its CPU time. */
  pid: number | undefined;
  /** Rows with the same group are compared with the group's first row. */
  group: string;
}

interface Row {
  target: Target;
  /** The server process's CPU time (user + system, all threads) per request, from /proc. */
  cpuMicros: number | null;
  errorKinds: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  window: [number, number];
}

/**
 * The load of a server that closes every connection after one reply
 * (PowerDNS's webserver answers `connection: close`): autocannon counts
 * each close as an error and its latencies go wrong, and its reconnectRate
 * stalls. Here: `connections` loops, each request on a new connection, as
 * PowerDNS's API clients must do.
 */
async function closingLoad(t: Target): Promise<
  Pick<autocannon.Result, 'errors' | 'timeouts' | 'non2xx' | 'mismatches'> & {
    rps: number;
    p50: number;
    p99: number;
    total: number;
  }
> {
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  let mismatches = 0;
  const until = performance.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((done) => {
      const started = performance.now();
      const req = httpRequest(t.url, { method: t.method, headers: t.headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          latencies.push(performance.now() - started);
          if ((res.statusCode ?? 0) >= 300) non2xx++;
          else if (Buffer.concat(chunks).toString() !== t.expectBody) mismatches++;
          done();
        });
      });
      req.on('error', () => {
        errors++;
        done();
      });
      req.end(t.body);
    });
  await Promise.all(
    Array.from({ length: t.connections }, async () => {
      while (performance.now() < until) await one();
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    rps: Math.round(latencies.length / seconds),
    p50: at(0.5),
    p99: at(0.99),
    total: latencies.length,
    errors,
    timeouts: 0,
    non2xx,
    mismatches,
  };
}

async function load(t: Target): Promise<Row> {
  const from = nowMicros();
  const cpu0 = cpuOf(t.pid);
  const r = t.closes
    ? await closingLoad(t)
    : await autocannon({
        url: t.url,
        method: t.method,
        headers: t.headers,
        body: t.body,
        connections: t.connections,
        duration: seconds,
        expectBody: t.expectBody,
      }).then((a) => ({
        ...a,
        rps: Math.round(a.requests.average),
        p50: a.latency.p50,
        p99: a.latency.p99,
        total: a.requests.total,
      }));
  const cpu1 = cpuOf(t.pid);
  const kinds = Object.entries({
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    mismatches: r.mismatches,
  }).filter(([, n]) => n > 0);
  return {
    target: t,
    cpuMicros: cpu0 !== null && cpu1 !== null && r.total > 0 ? Math.round((cpu1 - cpu0) / r.total) : null,
    errorKinds: kinds.map(([k, n]) => `${n} ${k}`).join(', '),
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    total: r.total,
    window: [from, nowMicros()],
  };
}

/** A PostgreSQL server for the bench: VIGIL_BENCH_DB, else a throwaway cluster when PostgreSQL is installed. */
async function pgServer(): Promise<{ url: string; stop: () => void } | null> {
  if (process.argv.includes('--no-pg')) return null;
  if (process.env.VIGIL_BENCH_DB) return { url: process.env.VIGIL_BENCH_DB, stop: () => {} };
  const script = resolve(import.meta.dirname, '../.ci/pg-cluster');
  if (!existsSync(script) || !existsSync('/usr/lib/postgresql')) return null;
  // Not under a 0700 temporary directory: as root, the cluster runs as the postgres user.
  const dir = join(tmpdir(), `vigil-bench-pg-${process.pid}-${Date.now()}`);
  const url = execFileSync(script, ['start', dir], { encoding: 'utf8' }).trim();
  return { url, stop: () => execFileSync(script, ['stop', dir]) };
}

/** An account with DNS credits, logged in, owning ZONE with RECORDS A records. */
async function populate(v: Vigil, db: string | null): Promise<{ client: VigilClient; key: string; token: string }> {
  const store = db ? ['--db', db] : [];
  const { stdout } = await promisify(execFile)(VIGIL, [
    'admin',
    'account',
    'add',
    '--userid',
    'bench',
    '--password',
    PASSWORD,
    '--dns-credits',
    '10',
    '--data',
    v.dataDir,
    ...store,
    '--json',
  ]);
  const key = JSON.parse(stdout).apikey as string;
  const client = new VigilClient({ baseUrl: v.url, ca: v.ca, maxSockets: 8 });
  const token = await client.login(key, 'bench', PASSWORD);
  await client.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
  for (let i = 0; i < RECORDS; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, RECORDS - i) }, (_, j) =>
        client.call('dnsAddA.php', { domain: ZONE, name: `h${i + j}`, ip: `192.0.2.${((i + j) % 254) + 1}` }),
      ),
    );
  }
  return { client, key, token };
}

async function vigilTargets(engine: string, v: Vigil, db: string | null): Promise<Target[]> {
  const { client, key, token } = await populate(v, db);
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const records = await client.post('dnsGetDomainRecords.php', { apikey: key, sessionToken: token, domain: ZONE });
  const count = Object.keys(records.body.records ?? {}).length;
  if (count < RECORDS)
    throw new Error(
      `${engine}: the zone holds ${count} records, not ${RECORDS}: ${JSON.stringify(records.body).slice(0, 200)}`,
    );
  // The cheap call on an account without domains, as bench/api.ts measures it.
  const { stdout } = await promisify(execFile)(VIGIL, [
    'admin',
    'account',
    'add',
    '--userid',
    'cheap',
    '--password',
    PASSWORD,
    '--dns-credits',
    '10',
    '--data',
    v.dataDir,
    ...(db ? ['--db', db] : []),
    '--json',
  ]);
  const cheapKey = JSON.parse(stdout).apikey as string;
  const cheapToken = await client.login(cheapKey, 'cheap', PASSWORD);
  const cheapBody = encodeForm({ apikey: cheapKey, sessionToken: cheapToken });
  const cheap = await client.post('dnsGetDomainList.php', { apikey: cheapKey, sessionToken: cheapToken });
  if (cheap.body.status !== '0') throw new Error(`${engine}: cheap call failed: ${JSON.stringify(cheap.body)}`);
  client.close();
  return [
    {
      label: `Vigil ${engine}: dnsGetDomainRecords.php`,
      group: 'records',
      url: `${v.url}/api/dnsGetDomainRecords.php`,
      method: 'POST',
      headers: form,
      body: encodeForm({ apikey: key, sessionToken: token, domain: ZONE }),
      expectBody: JSON.stringify(records.body),
      connections: 8,
      pid: v.proc.pid,
    },
    {
      label: `Vigil ${engine}: dnsGetDomainList.php`,
      group: 'cheap',
      url: `${v.url}/api/dnsGetDomainList.php`,
      method: 'POST',
      headers: form,
      body: cheapBody,
      expectBody: JSON.stringify(cheap.body),
      connections: 32,
      pid: v.proc.pid,
    },
  ];
}

const started: Started[] = [];
let pg: Awaited<ReturnType<typeof pgServer>> = null;
const drops: (() => Promise<void>)[] = [];
try {
  const targets: Target[] = [];
  if (profileDir) {
    rmSync(profileDir, { recursive: true, force: true });
    mkdirSync(profileDir, { recursive: true });
  }
  const sqlite = await startVigil({
    db: null,
    logFile: join(logs, 'vigil-sqlite.log'),
    nodeFlags: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  started.push(sqlite);
  targets.push(...(await vigilTargets('SQLite', sqlite, null)));
  pg = await pgServer();
  if (pg) {
    const db = await freshPgDatabase(pg.url);
    drops.push(db.drop);
    const v = await startVigil({ db: db.url, logFile: join(logs, 'vigil-pg.log') });
    started.push(v);
    targets.push(...(await vigilTargets('PostgreSQL', v, db.url)));
  }
  const cheapReply = targets.find((t) => t.group === 'cheap')!.expectBody;
  const bare = await startBareFastify(
    sqlite.cert,
    sqlite.key,
    cheapReply,
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, 'bare')}`] : [],
  );
  started.push(bare);
  targets.push({
    label: 'bare Fastify HTTPS (ceiling)',
    group: 'cheap',
    url: `${bare.url}/api/dnsGetDomainList.php`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: targets.find((t) => t.group === 'cheap')!.body,
    expectBody: cheapReply,
    connections: 32,
    pid: bare.proc.pid,
  });
  if (pdnsSchema()) {
    const rrsets = Array.from({ length: RECORDS }, (_, i) => ({
      name: `h${i}.${ZONE}.`,
      type: 'A',
      ttl: 3600,
      changetype: 'REPLACE',
      records: [{ content: `192.0.2.${(i % 254) + 1}`, disabled: false }],
    }));
    rrsets.push({
      name: `${ZONE}.`,
      type: 'SOA',
      ttl: 3600,
      changetype: 'REPLACE',
      records: [{ content: `ns1.${ZONE}. hostmaster.${ZONE}. 1 10800 3600 604800 3600`, disabled: false }],
    });
    rrsets.push({
      name: `${ZONE}.`,
      type: 'NS',
      ttl: 3600,
      changetype: 'REPLACE',
      records: [{ content: `ns1.${ZONE}.`, disabled: false }],
    });
    const pdns = await startPdns({ name: `${ZONE}.`, rrsets }, join(logs, 'pdns.log'));
    started.push(pdns);
    const headers = { 'x-api-key': PDNS_API_KEY };
    const zoneUrl = `${pdns.url}/api/v1/servers/localhost/zones/${ZONE}.`;
    const zone = await fetch(zoneUrl, { headers });
    const zoneText = await zone.text();
    const zoneRecords = (JSON.parse(zoneText).rrsets as { records: unknown[] }[]).reduce(
      (n, r) => n + r.records.length,
      0,
    );
    if (zoneRecords < RECORDS) throw new Error(`PowerDNS holds ${zoneRecords} records`);
    const serverUrl = `${pdns.url}/api/v1/servers/localhost`;
    const serverText = await (await fetch(serverUrl, { headers })).text();
    targets.push({
      label: 'PowerDNS API: GET zones/<zone>',
      group: 'records',
      url: zoneUrl,
      method: 'GET',
      headers,
      expectBody: zoneText,
      connections: 8,
      pid: pdns.proc.pid,
      closes: true,
    });
    targets.push({
      label: 'PowerDNS API: GET servers/localhost',
      group: 'cheap',
      url: serverUrl,
      method: 'GET',
      headers,
      expectBody: serverText,
      connections: 32,
      pid: pdns.proc.pid,
      closes: true,
    });
  } else console.log('PowerDNS (pdns-server, pdns-backend-sqlite3) is not installed: its rows are left out');

  // Each group's peer (PowerDNS, the ceiling) runs right after Vigil's rows, every round.
  const order = ['records', 'cheap'].flatMap((g) => targets.filter((t) => t.group === g));
  const rows: Row[] = [];
  for (let r = 0; r < rounds; r++) for (const t of order) rows.push(await load(t));

  console.log(
    `\n${RECORDS}-record zone and the cheap call, ${seconds} s per run, ${rounds} round(s), ${new Date().toISOString()}\n`,
  );
  console.log(
    '| call | c | req/s | p50 ms | p99 ms | errors | server CPU µs/req | vs PowerDNS | vs Vigil SQLite |\n|---|---|---|---|---|---|---|---|---|',
  );
  for (const row of rows) {
    const sameRound = rows.slice(Math.floor(rows.indexOf(row) / order.length) * order.length).slice(0, order.length);
    const peer = sameRound.find((x) => x.target.group === row.target.group && x.target.label.startsWith('PowerDNS'));
    const vigil = sameRound.find(
      (x) => x.target.group === row.target.group && x.target.label.startsWith('Vigil SQLite'),
    );
    const ratio = (x: Row | undefined) => (x && x !== row ? `${(row.rps / x.rps).toFixed(2)}×` : '');
    console.log(
      `| ${row.target.label} | ${row.target.connections} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.errorKinds || 0} | ${row.cpuMicros ?? '?'} | ${ratio(peer)} | ${ratio(vigil)} |`,
    );
  }
  console.log(
    `\n(PowerDNS's API is plain HTTP, and it closes each connection after one reply: its rows use a new connection per request. Logs: ${logs})`,
  );

  if (profileDir) {
    await sqlite.stop();
    await bare.stop();
    for (const [label, dir] of [
      ['Vigil SQLite: dnsGetDomainList.php', profileDir],
      ['bare Fastify HTTPS (ceiling)', join(profileDir, 'bare')],
    ] as const) {
      const file = mainProfile(dir);
      console.log(`\n## ${label} (${file})`);
      for (const row of rows.filter((r) => r.target.label === label))
        printSummary(summarize(file, row.window[0], row.window[1]), row.total);
    }
  }
} finally {
  for (const s of started.reverse()) await s.stop().catch(() => {});
  for (const d of drops) await d().catch((e) => console.error(`could not drop the bench database: ${e}`));
  pg?.stop();
}
