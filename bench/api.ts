/**
 * API benchmark (issue 2): authenticated throughput and latency of a cheap
 * call at concurrency 1 and 32, and the cost of auth.php. Starts bin/vigil
 * serve like a user would, on loopback, with autocannon in this process as
 * the load generator (so both share the machine's two cores).
 *
 *   node --import tsx bench/api.ts [--seconds 10]
 */
import { once } from 'node:events';
import autocannon from 'autocannon';
import { encodeForm } from '../src/client/index.ts';
import { join } from 'node:path';
import { addAccount, serve, tempDir } from '../test/helpers/server.ts';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
const PASSWORD = 'benchmark password';

async function load(url: string, body: string, connections: number, expectBody: string) {
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
    connections,
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    errors: result.errors + result.non2xx + result.mismatches,
    total: result.requests.total,
  };
}

const s = await serve({
  env: { VIGIL_LOG_LEVEL: process.env.VIGIL_LOG_LEVEL ?? 'info' },
  logFile: join(tempDir('vigil-bench-'), 'vigil.log'),
});
try {
  const key = await addAccount(s.dataDir, 'bench', PASSWORD, '--dns-credits', '10');
  const client = s.client();

  // auth.php: scrypt makes it deliberately slow.
  const logins = 20;
  let started = performance.now();
  for (let i = 0; i < logins; i++) await client.login(key, 'bench', PASSWORD);
  const authSequentialMs = (performance.now() - started) / logins;
  started = performance.now();
  await Promise.all(
    Array.from({ length: logins }, () =>
      s.client().post('auth.php', { apikey: key, userid: 'bench', password: PASSWORD }),
    ),
  );
  const authParallelPerSecond = logins / ((performance.now() - started) / 1000);

  const token = await client.login(key, 'bench', PASSWORD);
  const body = encodeForm({ apikey: key, sessionToken: token });
  const sample = await client.post('dnsGetDomainList.php', { apikey: key, sessionToken: token });
  if (sample.body.status !== '0') throw new Error(`sample call failed: ${JSON.stringify(sample.body)}`);
  const url = `${s.httpsUrl}/api/dnsGetDomainList.php`;
  const expect = JSON.stringify(sample.body);
  const runs = [];
  for (const c of [1, 32]) runs.push(await load(url, body, c, expect));

  const report = {
    script: 'dnsGetDomainList.php (no domains)',
    seconds,
    runs,
    authSequentialMs: Math.round(authSequentialMs),
    authParallelPerSecond: Math.round(authParallelPerSecond),
  };
  console.log(JSON.stringify(report, null, 2));
  console.log('\n| concurrency | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|');
  for (const r of runs)
    console.log(`| ${r.connections} | ${r.requestsPerSecond} | ${r.p50ms} | ${r.p99ms} | ${r.errors} |`);
  console.log(
    `\nauth.php: ${Math.round(authSequentialMs)} ms per login sequentially, ${Math.round(authParallelPerSecond)} logins/s with ${logins} at once`,
  );
} finally {
  s.proc.kill('SIGTERM');
  await once(s.proc, 'exit');
}
