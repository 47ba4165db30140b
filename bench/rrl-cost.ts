/**
 * What response rate limiting costs the name server's hot path (issue 28):
 * dnsperf against the same zone served three ways in one run, one process
 * with the native UDP I/O, RRL off (`--dns-rrl-rate 0`), RRL on at a rate
 * dnsperf never reaches (every reply checked, none limited), and RRL at
 * the default 20 (dnsperf's single address then gets mostly TC and
 * silence: that row shows the limiter at work, not a rate to compare).
 *
 *   node --import tsx bench/rrl-cost.ts [--seconds 10]
 */
import { addAccount, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import { bulkARecords, dnsperf, queryFile, until } from './dnsperf-kit.ts';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
const ZONE = 'rrl.perf.example';
const N = 10_000;
const dir = tempDir('vigil-rrl-cost-');

const first = await freePort();
const vigil = await serve({
  args: ['--dns-port', String(first), '--publish-interval', '500ms', '--domain-hold', 'none', '--dns-rrl-rate', '0'],
});
const c = vigil.client();
await c.login(await addAccount(vigil.dataDir, 'perf', 'perf password', '--dns-credits', '1'), 'perf', 'perf password');
await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
bulkARecords(vigil.dataDir, ZONE, N);
const pub = await c.call('dnsPublish.php', { domain: ZONE });
if (pub.errors) throw new Error(pub.errors[0]);
const served = (port: number) =>
  until(async () => (await udpQuery(port, `host9999.${ZONE}`, 'A')).answers?.length === 1, `port ${port}`);
await served(first);
const others = [];
for (const rate of ['1000000', '20']) {
  const port = await freePort();
  const s = await serve({
    dataDir: vigil.dataDir,
    args: ['--dns-port', String(port), '--https-port', '0', '--http-port', '0', '--dns-rrl-rate', rate],
  });
  await served(port);
  others.push({ rate, port, s });
}
const queries = queryFile(dir, ZONE, N);
try {
  const rows = [{ name: '--dns-rrl-rate 0 (off)', ...dnsperf(first, queries, seconds) }];
  for (const o of others) rows.push({ name: `--dns-rrl-rate ${o.rate}`, ...dnsperf(o.port, queries, seconds) });
  console.log(`\ndnsperf -c 8 -T 2 -q 1000 -l ${seconds}, ${N}-record zone, one process, native UDP I/O\n`);
  console.log('| Vigil | queries/s | lost % |\n|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.qps} | ${r.lostPct} |`);
} finally {
  for (const o of others) await o.s.stop();
  await vigil.stop();
}
