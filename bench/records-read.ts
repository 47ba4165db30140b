/**
 * Record reads at scale (issue 13): dnsGetDomainRecords.php of a zone of
 * 1,000 records, the call that tools such as external-dns and octoDNS make
 * for every zone every minute, side by side in one run with
 * dnsGetDomainList.php (the cheap call of bench/api.ts) as the peer: how
 * close the big read comes to the cheapest authenticated call. Then the
 * same read right after a write, alternating, which the reply cache cannot
 * serve (each write makes a new version of the zone).
 *
 * Starts bin/vigil serve like a user would (SQLite, or PostgreSQL with
 * VIGIL_TEST_DB); autocannon in this process is the load generator, so
 * both share the machine's cores.
 *
 *   node --import tsx bench/records-read.ts [--seconds 10] [--records 1000] [--connections 8]
 */
import { once } from 'node:events';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { encodeForm } from '../src/client/index.ts';
import { addAccount, admin, serve, tempDir } from '../test/helpers/server.ts';

const arg = (name: string, fallback: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const seconds = arg('--seconds', 10);
const RECORDS = arg('--records', 1000);
const connections = arg('--connections', 8);
const PASSWORD = 'benchmark password';
const ZONE = 'records-read.example';

async function load(url: string, body: string, expectBody: string) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    connections,
    duration: seconds,
    expectBody,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    errors: result.errors + result.non2xx + result.mismatches,
  };
}

const s = await serve({
  env: { VIGIL_LOG_LEVEL: 'warn' },
  logFile: join(tempDir('vigil-bench-'), 'vigil.log'),
  args: ['--max-zone-records', String(RECORDS + 100)],
});
try {
  const key = await addAccount(s.dataDir, 'bench', PASSWORD, '--dns-credits', '10');
  const client = s.client();
  const token = await client.login(key, 'bench', PASSWORD);
  const auth = { apikey: key, sessionToken: token };
  const call = async (script: string, fields: Record<string, string> = {}) => {
    const r = await client.post(script, { ...auth, ...fields });
    if (r.body.status !== '0') throw new Error(`${script} failed: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  await call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
  await admin(s.dataDir, 'domain', 'release', ZONE);
  // Through the API, as a tenant fills a zone: SOA and four NS come with the domain.
  const started = performance.now();
  for (let i = 0; i < RECORDS - 5; i++)
    await call('dnsAddA.php', { domain: ZONE, name: `host${i}`, ip: `192.0.2.${i % 250}` });
  const fillSeconds = (performance.now() - started) / 1000;

  const runs: Record<string, Awaited<ReturnType<typeof load>>> = {};
  const measure = async (script: string, fields: Record<string, string>) => {
    const expect = JSON.stringify(await call(script, fields));
    runs[script] = await load(`${s.httpsUrl}/api/${script}`, encodeForm({ ...auth, ...fields }), expect);
    return expect.length;
  };
  const replyBytes = await measure('dnsGetDomainRecords.php', { domain: ZONE });
  await measure('dnsGetDomainList.php', {});

  // A write before every read: the cache never hits, so this is the read's cost without it.
  const pairs = Math.min(200, RECORDS);
  const t0 = performance.now();
  for (let i = 0; i < pairs; i++) {
    await call('dnsSetSOA.php', { domain: ZONE, ttl: String(3600 + (i % 2)) });
    await call('dnsGetDomainRecords.php', { domain: ZONE });
  }
  const writeReadPairMs = (performance.now() - t0) / pairs;

  const report = {
    records: RECORDS,
    replyBytes,
    connections,
    seconds,
    fillSeconds: Math.round(fillSeconds),
    runs,
    writeReadPairMs: Number(writeReadPairMs.toFixed(1)),
  };
  console.log(JSON.stringify(report, null, 2));
  console.log(`\n| call (c=${connections}) | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|`);
  for (const [script, r] of Object.entries(runs))
    console.log(`| ${script} | ${r.requestsPerSecond} | ${r.p50ms} | ${r.p99ms} | ${r.errors} |`);
  console.log(`\nwrite (dnsSetSOA) then read, one client: ${writeReadPairMs.toFixed(1)} ms per pair`);
} finally {
  s.proc.kill('SIGTERM');
  await once(s.proc, 'exit');
}
