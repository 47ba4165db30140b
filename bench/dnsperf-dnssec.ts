/**
 * Signed serving under dnsperf (issue 19), in one run on loopback: Vigil
 * serving a 10,000-record zone signed by its distribution cycle, queried
 * with the DO bit (answers carry RRSIGs; the 20% NXDOMAIN carry two NSEC
 * proofs) and without it, next to Knot 3.2 serving the very same signed
 * zone (Vigil's AXFR written to a file, Knot's own signing off).
 * Also the time the cycle took to sign the zone from cold (no earlier
 * signatures to reuse), from Vigil's log. Response rate limiting is off
 * (dnsperf-kit.ts RRL_OFF).
 *
 *   node --import tsx bench/dnsperf-dnssec.ts [--seconds 10] [--rounds 3]
 *
 * Vigil runs as one process (its receive threads one per core, udp-fast.ts
 * udpPlan); rounds alternate Vigil and Knot (dnsperf-kit.ts roundsTable).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addAccount, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import {
  bulkARecords,
  dnsperfTarget,
  knotConfig,
  queryFile,
  RRL_OFF,
  roundsTable,
  type Target,
  until,
} from './dnsperf-kit.ts';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
const ZONE = 'signed.perf.example';
const N = 10_000;
const dir = tempDir('vigil-dnsperf-dnssec-');

const dnsPort = await freePort();
const log = join(dir, 'vigil.log');
// 127.0.0.1 as a "secondary" so that this process may transfer the zone for Knot.
const vigil = await serve({
  logFile: log,
  env: { VIGIL_LOG_LEVEL: 'info', VIGIL_LOG_FORMAT: 'json' },
  args: [
    '--dns-port',
    String(dnsPort),
    '--publish-interval',
    '500ms',
    '--domain-hold',
    'none',
    '--secondaries',
    '127.0.0.1:9',
    ...RRL_OFF,
  ],
});
const c = vigil.client();
await c.login(await addAccount(vigil.dataDir, 'perf', 'perf password', '--dns-credits', '1'), 'perf', 'perf password');
await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
bulkARecords(vigil.dataDir, ZONE, N);
await c.call('dnsSetDNSSEC.php', { domain: ZONE, enable: 'YES' });
const pub = await c.call('dnsPublish.php', { domain: ZONE });
if (pub.errors) throw new Error(pub.errors[0]);
await until(
  async () => ((await udpQuery(dnsPort, ZONE, 'DNSKEY')).answers?.length ?? 0) >= 2,
  'Vigil serves the signed zone',
);
const signMs = readFileSync(log, 'utf8')
  .split('\n')
  .filter((l) => l.includes('"distribution cycle"') && l.includes('"signedZones":1'))
  .map((l) => JSON.parse(l).ms as number)[0];

const axfr = execFileSync(
  'dig',
  ['@127.0.0.1', '-p', String(dnsPort), ZONE, 'AXFR', '+nocmd', '+nostats', '+nocomments'],
  { encoding: 'utf8', maxBuffer: 1 << 28 },
);
const zoneFile = join(dir, `${ZONE}.zone`);
writeFileSync(zoneFile, axfr.trim().split('\n').slice(0, -1).join('\n') + '\n');
const rrsigs = axfr.split('\n').filter((l) => /\sRRSIG\s/.test(l)).length;

const queries = queryFile(dir, ZONE, N);

let knot: ChildProcess | null = null;
let knotPort = 0;
if (hasTool('knotd')) {
  knotPort = await freePort();
  const d = join(dir, 'knot');
  mkdirSync(d);
  writeFileSync(join(d, 'knot.conf'), knotConfig(knotPort, d, ZONE, zoneFile, false));
  knot = spawn('knotd', ['-c', join(d, 'knot.conf')], { stdio: 'ignore' });
  await until(
    async () => (await udpQuery(knotPort, `host1.${ZONE}`, 'A')).answers?.length === 1,
    'Knot serves the zone',
  );
} else console.log('Knot: not installed, left out');

try {
  const targets: Target[] = [
    dnsperfTarget('Vigil (1 process), DO', true, dnsPort, queries, seconds, ['-D']),
    dnsperfTarget('Vigil (1 process), no DO', true, dnsPort, queries, seconds),
  ];
  if (knot)
    targets.push(
      dnsperfTarget('Knot (2 workers), DO', false, knotPort, queries, seconds, ['-D']),
      dnsperfTarget('Knot (2 workers), no DO', false, knotPort, queries, seconds),
    );
  console.log(`\nsigned ${N}-record zone (${rrsigs} RRSIGs), first signing in the cycle: ${signMs} ms`);
  // The ratio of a round: the best Vigil over the best Knot; DO answers are the slower of each, so compare those.
  roundsTable(
    targets.filter((t) => t.name.endsWith(', DO')),
    rounds,
    `dnsperf -D -c 8 -T 2 -q 1000 -l ${seconds}, signed, 80% hits / 20% NXDOMAIN (two NSEC proofs)`,
  );
  roundsTable(
    targets.filter((t) => t.name.endsWith('no DO')),
    rounds,
    `dnsperf -c 8 -T 2 -q 1000 -l ${seconds}, the same signed zone without the DO bit`,
  );
} finally {
  knot?.kill('SIGTERM');
  await vigil.stop();
}
