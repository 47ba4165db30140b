/**
 * Signed serving under dnsperf (issue 19), in one run on loopback: Vigil
 * serving a 10,000-record zone signed by its distribution cycle, queried
 * with the DO bit (answers carry RRSIGs; the 20% NXDOMAIN carry two NSEC
 * proofs) and without it, next to Knot 3.2 serving the very same signed
 * zone (Vigil's AXFR written to a file, Knot's own signing off).
 * Also the time the cycle took to sign the zone from cold (no earlier
 * signatures to reuse), from Vigil's log.
 *
 *   node --import tsx bench/dnsperf-dnssec.ts [--seconds 10]
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { join } from 'node:path';
import { addAccount, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
const ZONE = 'signed.perf.example';
const N = 10_000;
const dir = tempDir('vigil-dnsperf-dnssec-');

async function until(pred: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 600; i++) {
    if (await pred().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out: ${what}`);
}

const dnsPort = await freePort();
const log = join(dir, 'vigil.log');
// 127.0.0.1 as a "secondary" so that this process may transfer the zone for Knot.
const vigil = await serve({
  logFile: log,
  env: { VIGIL_LOG_LEVEL: 'info', VIGIL_LOG_FORMAT: 'json' },
  args: ['--dns-port', String(dnsPort), '--dns-workers', '2', '--publish-interval', '500ms', '--domain-hold', 'none', '--secondaries', '127.0.0.1:9'],
});
const c = vigil.client();
await c.login(await addAccount(vigil.dataDir, 'perf', 'perf password', '--dns-credits', '1'), 'perf', 'perf password');
await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
const store = new SqliteDatabase(join(vigil.dataDir, 'vigil.sqlite'));
store.pragma('busy_timeout = 5000');
store.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${N - 1})
INSERT INTO records (domain_id, type, data) SELECT (SELECT id FROM domains WHERE name = '${ZONE}'), 'A',
  json_object('name', 'host' || i, 'data', '10.0.' || (i / 256) || '.' || (i % 256)) FROM n;`);
store.close();
await c.call('dnsSetDNSSEC.php', { domain: ZONE, enable: 'YES' });
const pub = await c.call('dnsPublish.php', { domain: ZONE });
if (pub.errors) throw new Error(pub.errors[0]);
await until(async () => ((await udpQuery(dnsPort, ZONE, 'DNSKEY')).answers?.length ?? 0) >= 2, 'Vigil serves the signed zone');
const signMs = readFileSync(log, 'utf8')
  .split('\n')
  .filter((l) => l.includes('"distribution cycle"') && l.includes('"signedZones":1'))
  .map((l) => JSON.parse(l).ms as number)[0];

const axfr = execFileSync('dig', ['@127.0.0.1', '-p', String(dnsPort), ZONE, 'AXFR', '+nocmd', '+nostats', '+nocomments'], { encoding: 'utf8', maxBuffer: 1 << 28 });
const zoneFile = join(dir, `${ZONE}.zone`);
writeFileSync(zoneFile, axfr.trim().split('\n').slice(0, -1).join('\n') + '\n');
const rrsigs = axfr.split('\n').filter((l) => /\sRRSIG\s/.test(l)).length;

const queries = join(dir, 'queries.txt');
const lines: string[] = [];
for (let i = 0; i < 10_000; i++) lines.push(i % 5 === 4 ? `nx${i}.${ZONE} A` : `host${(i * 7919) % N}.${ZONE} A`);
writeFileSync(queries, `${lines.join('\n')}\n`);

let knot: ChildProcess | null = null;
let knotPort = 0;
if (hasTool('knotd')) {
  knotPort = await freePort();
  const d = join(dir, 'knot');
  mkdirSync(d);
  writeFileSync(join(d, 'knot.conf'), `
server:
  listen: 127.0.0.1@${knotPort}
  rundir: "${d}"
  background-workers: 1
  udp-workers: 2
control:
  listen: "${d}/knot.sock"
database:
  storage: "${d}"
zone:
  - domain: ${ZONE}
    file: "${zoneFile}"
    zonefile-load: whole
    journal-content: none
    dnssec-signing: off
`);
  knot = spawn('knotd', ['-c', join(d, 'knot.conf')], { stdio: 'ignore' });
  await until(async () => (await udpQuery(knotPort, `host1.${ZONE}`, 'A')).answers?.length === 1, 'Knot serves the zone');
} else console.log('Knot: not installed, left out');

function dnsperf(port: number, dnssec: boolean) {
  const out = execFileSync('dnsperf', ['-s', '127.0.0.1', '-p', String(port), '-d', queries, '-c', '8', '-T', '2', '-q', '1000', '-l', String(seconds), ...(dnssec ? ['-D'] : [])], { encoding: 'utf8' });
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN);
  return { qps: Math.round(num(/Queries per second:\s+([\d.]+)/)), lostPct: num(/Queries lost:\s+\d+ \(([\d.]+)%\)/), bytes: num(/Average packet size:\s+request \d+, response (\d+)/) };
}

try {
  const rows = [
    { name: 'Vigil (2 workers), no DO', ...dnsperf(dnsPort, false) },
    { name: 'Vigil (2 workers), DO', ...dnsperf(dnsPort, true) },
  ];
  if (knot) rows.push({ name: 'Knot (2 workers), no DO', ...dnsperf(knotPort, false) }, { name: 'Knot (2 workers), DO', ...dnsperf(knotPort, true) });
  console.log(`\nsigned ${N}-record zone (${rrsigs} RRSIGs), first signing in the cycle: ${signMs} ms`);
  console.log(`dnsperf -c 8 -T 2 -q 1000 -l ${seconds}, 80% hits / 20% NXDOMAIN\n`);
  console.log('| server | queries/s | lost % | avg reply bytes |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.qps} | ${r.lostPct} | ${r.bytes} |`);
} finally {
  knot?.kill('SIGTERM');
  await vigil.stop();
}
