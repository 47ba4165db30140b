/**
 * Scale benchmark (issue 13), every figure side by side in one run:
 *   - API throughput at concurrency 32 (dnsGetDomainList.php with a valid
 *     key and token): one `serve` on SQLite, one on PostgreSQL, two on one
 *     PostgreSQL database;
 *   - record adds/s (dnsAddA.php, new names each) at concurrency 16 on each engine;
 *   - audits finished per minute with 1 and 2 workers (bench/scale-audits.ts).
 *
 * The load is always two autocannon instances at c=16 each, summed: for two
 * `serve` each instance has its own port, for one both share it, so the
 * generator is the same in every column. Everything shares this machine's
 * cores (serves, PostgreSQL, the generator): read the ratios, not the
 * absolute numbers, against a real deployment with a machine per serve.
 *
 *   node --import tsx bench/scale.ts [--seconds 8]
 *
 * VIGIL_BENCH_DB=postgres://USER:PASS@HOST:PORT/DB names a server whose user
 * may CREATE DATABASE; without it a throwaway cluster is started with
 * .ci/pg-cluster and stopped at the end.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { encodeForm } from '../src/client/index.ts';
import { addAccount, type Served, serve, tempDir } from '../test/helpers/server.ts';

const run = promisify(execFile);
const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 8;
const PASSWORD = 'benchmark password';
const CLUSTER = resolve(import.meta.dirname, '../.ci/pg-cluster');

/** A new database on the benchmark's PostgreSQL server. */
async function database(server: string, name: string): Promise<string> {
  const c = new pg.Client({ connectionString: server });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return Object.assign(new URL(server), { pathname: `/${name}` }).toString();
}

/** `count` serves on one store; `db` null: the data directory's SQLite file. */
async function serves(db: string | null, count: number): Promise<Served[]> {
  const dataDir = tempDir('vigil-bench-scale-');
  const out: Served[] = [];
  // One after the other: the first makes the store and the certificate both use.
  for (let i = 0; i < count; i++) {
    out.push(
      await serve({
        dataDir,
        args: ['--db', db ?? '', '--audit-workers', '0', '--domain-hold', 'none'],
        logFile: join(dataDir, `serve-${i}.log`),
      }),
    );
  }
  return out;
}

interface Load {
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  errors: number;
}

/** Two autocannon instances at c=16 each, over the serves' ports in turn; rates summed, latencies of the worse one. */
async function twoByHalf(
  set: Served[],
  script: string,
  bodies: () => string,
  expect: (body: string) => boolean,
): Promise<Load> {
  let refused = 0;
  const runs = await Promise.all(
    [0, 1].map(
      (i) =>
        autocannon({
          url: `${set[i % set.length]!.httpsUrl}/api/${script}`,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          connections: 16,
          duration: seconds,
          // Node's TLS client must accept the serves' self-signed certificate.
          tlsOptions: { rejectUnauthorized: false },
          requests: [
            {
              setupRequest: (req: any) => ({ ...req, body: bodies() }),
              onResponse: (_status: number, body: string) => void (expect(body) || refused++),
            },
          ],
        } as any) as Promise<autocannon.Result>,
    ),
  );
  return {
    requestsPerSecond: Math.round(runs.reduce((n, r) => n + r.requests.average, 0)),
    p50ms: Math.max(...runs.map((r) => r.latency.p50)),
    p99ms: Math.max(...runs.map((r) => r.latency.p99)),
    // Transport errors, non-2xx and replies that are not status "0" (an error code of the API).
    errors: runs.reduce((n, r) => n + r.errors + r.non2xx, 0) + refused,
  };
}

async function measure(label: string, db: string | null, count: number, withAdds: boolean) {
  const set = await serves(db, count);
  try {
    const key = await addAccount(
      set[0]!.dataDir,
      'bench',
      PASSWORD,
      '--dns-credits',
      '20',
      ...(db ? ['--db', db] : ['--db', '']),
    );
    const client = set[0]!.client();
    const token = await client.login(key, 'bench', PASSWORD);
    const ok = (body: string) => body.startsWith('{"status":"0"');
    const list = await twoByHalf(
      set,
      'dnsGetDomainList.php',
      () => encodeForm({ apikey: key, sessionToken: token }),
      ok,
    );
    let adds: Load | null = null;
    if (withAdds) {
      const domains = Array.from({ length: 8 }, (_, i) => `bench${i}.example`);
      for (const domain of domains) await client.call('dnsAddDomain.php', { domain, domaintype: 'master', aup: 'YES' });
      let n = 0;
      adds = await twoByHalf(
        set,
        'dnsAddA.php',
        () => {
          n++;
          return encodeForm({
            apikey: key,
            sessionToken: token,
            domain: domains[n % domains.length],
            name: `h${n}`,
            ip: `192.0.2.${n % 250}`,
          });
        },
        ok,
      );
    }
    return { label, list, adds };
  } finally {
    await Promise.all(set.map((s) => s.stop()));
  }
}

/**
 * Audits per minute with 1 and 2 workers. HOOK: bench/scale-audits.ts
 * (a colleague's, with `bin/vigil worker`) is imported when it exists and
 * exports `auditsPerMinute({ db, workers, seconds })`; otherwise the figures
 * are reported as not measured.
 */
async function audits(makeDb: (name: string) => Promise<string>): Promise<Record<string, number> | string> {
  const file = resolve(import.meta.dirname, 'scale-audits.ts');
  if (!existsSync(file)) return 'not measured: bench/scale-audits.ts does not exist yet';
  const mod: any = await import(file);
  if (typeof mod.auditsPerMinute !== 'function')
    return 'not measured: bench/scale-audits.ts exports no auditsPerMinute';
  const out: Record<string, number> = {};
  for (const workers of [1, 2])
    out[`${workers} worker${workers > 1 ? 's' : ''}`] = await mod.auditsPerMinute({
      db: await makeDb(`vigil_bench_audits_${workers}`),
      workers,
      seconds: Math.max(seconds, 30),
    });
  return out;
}

let server = process.env.VIGIL_BENCH_DB || null;
const cluster = server ? null : tempDir('vigil-bench-pg-');
if (cluster) server = (await run(CLUSTER, ['start', cluster])).stdout.trim();
try {
  const results = [
    await measure('1 serve, SQLite', null, 1, true),
    await measure('1 serve, PostgreSQL', await database(server!, 'vigil_bench_one'), 1, true),
    await measure('2 serve, one PostgreSQL', await database(server!, 'vigil_bench_two'), 2, false),
  ];
  const auditFigures = await audits((name) => database(server!, name));
  console.log(JSON.stringify({ seconds, results, audits: auditFigures }, null, 2));
  const base = results[0]!.list.requestsPerSecond;
  console.log(
    `\nAPI, dnsGetDomainList.php at c=32 (2 × 16), ${seconds} s each:\n\n| set-up | req/s | vs 1 serve SQLite | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|`,
  );
  for (const r of results)
    console.log(
      `| ${r.label} | ${r.list.requestsPerSecond} | ${(r.list.requestsPerSecond / base).toFixed(2)} | ${r.list.p50ms} | ${r.list.p99ms} | ${r.list.errors} |`,
    );
  console.log(
    `\nRecord adds (dnsAddA.php, new names, 8 zones) at c=32 (2 × 16):\n\n| engine | adds/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|`,
  );
  for (const r of results.filter((x) => x.adds))
    console.log(
      `| ${r.label} | ${r.adds!.requestsPerSecond} | ${r.adds!.p50ms} | ${r.adds!.p99ms} | ${r.adds!.errors} |`,
    );
  if (typeof auditFigures === 'string') console.log(`\nAudits finished per minute: ${auditFigures}`);
  else {
    console.log(
      `\nAudits finished per minute (basic audits of 8 loopback targets, bench/scale-audits.ts):\n\n| workers | audits/min | vs 1 worker |\n|---|---|---|`,
    );
    const one = Object.values(auditFigures)[0]!;
    for (const [k, v] of Object.entries(auditFigures)) console.log(`| ${k} | ${v} | ${(v / one).toFixed(2)} |`);
  }
} finally {
  if (cluster) await run(CLUSTER, ['stop', cluster]).catch(() => {});
}
