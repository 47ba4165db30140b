/**
 * Signed serving under dnsperf (issues 19, 32), in one run on loopback:
 * Vigil serving a 10,000-record zone signed by its distribution cycle,
 * queried with the DO bit (answers carry RRSIGs; the 20% NXDOMAIN carry
 * two NSEC proofs), next to BIND, NSD and Knot serving the very same
 * signed zone (Vigil's AXFR written to a file; none of them signs it).
 * Also the time the cycle took to sign the zone from cold (no earlier
 * signatures to reuse), from Vigil's log. Response rate limiting is off
 * for every server (dnsperf-kit.ts RRL_OFF).
 *
 *   node --import tsx bench/dnsperf-dnssec.ts [--seconds 10] [--rounds 3] [--no-do]
 *     [--pin 0:1] [--placements pinned,unpinned] [--nice -19] [--dnsperf-threads 2]
 *
 * Placements as in dnsperf.ts (dnsperf-peers.ts): pinned, every server
 * under `taskset -c 0` with one worker or thread per CPU of the set and
 * dnsperf under `taskset -c 1`; unpinned, two workers each and Vigil one
 * process (its receive threads one per core, udp-fast.ts udpPlan).
 * `--no-do` adds the same runs without the DO bit.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addAccount, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import {
  bulkARecords,
  dnsperfTarget,
  pinned,
  queryFile,
  RRL_OFF,
  roundsTable,
  type Target,
  until,
} from './dnsperf-kit.ts';
import { groupNice, type Peer, type Placement, placementNote, placements, startPeers } from './dnsperf-peers.ts';

const argv = process.argv;
const seconds = Number(argv[argv.indexOf('--seconds') + 1]) || 10;
const rounds = Number(argv[argv.indexOf('--rounds') + 1]) || 3;
const ZONE = 'signed.perf.example';
const N = 10_000;
const dir = tempDir('vigil-dnsperf-dnssec-');

const dnsPort = await freePort();
const log = join(dir, 'vigil.log');
// 127.0.0.1 as a "secondary" so that this process may transfer the zone for the C servers.
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
const signed = async (port: number) => ((await udpQuery(port, ZONE, 'DNSKEY')).answers?.length ?? 0) >= 2;
await until(() => signed(dnsPort), 'Vigil serves the signed zone');
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
writeFileSync(zoneFile, `${axfr.trim().split('\n').slice(0, -1).join('\n')}\n`);
const rrsigs = axfr.split('\n').filter((l) => /\sRRSIG\s/.test(l)).length;
const queries = queryFile(dir, ZONE, N);

const siblings: Awaited<ReturnType<typeof serve>>[] = [];
const peers: Peer[] = [];
const targets: Target[] = [];
const bits: [string, string[]][] = [
  ['DO', ['-D']],
  ...(argv.includes('--no-do') ? [['no DO', []] as [string, string[]]] : []),
];
/** The same data directory, DNS only, placed like the C servers (pinned: one receive thread per CPU of the set). */
async function sibling(where: Placement, what: string) {
  const port = await freePort();
  const s = await serve({
    dataDir: vigil.dataDir,
    env: where.server ? { VIGIL_DNS_THREADS: String(where.workers) } : {},
    prefix: pinned(where.server, [], where.nice),
    args: ['--dns-port', String(port), '--https-port', '0', '--http-port', '0', ...RRL_OFF],
  });
  siblings.push(s);
  await until(() => signed(port), `${what} serves the signed zone`);
  return { port, pids: () => [s.proc.pid!] };
}
for (const where of placements(argv)) {
  const threads = where.server ? `${where.workers} thread${where.workers > 1 ? 's' : ''}, ` : '';
  const name = `Vigil (1 process, ${threads}${where.name})`;
  const now = await sibling(where, name);
  const mine = await startPeers(dir, ZONE, zoneFile, `host1.${ZONE}`, where);
  peers.push(...mine);
  for (const [bit, extra] of bits) {
    const opts = { group: `${where.name}, ${bit}`, cpus: where.load, nice: where.nice, threads: where.loadThreads };
    targets.push(
      dnsperfTarget(`${name}, ${bit}`, true, now.port, queries, seconds, extra, { ...opts, pids: now.pids }),
      ...mine.map((p) =>
        dnsperfTarget(`${p.name}, ${bit}`, false, p.port, queries, seconds, extra, {
          ...opts,
          pids: () => [p.proc.pid!],
        }),
      ),
    );
  }
}

const priority = groupNice(placements(argv)[0]?.nice ?? 0);
try {
  console.log(`\nsigned ${N}-record zone (${rrsigs} RRSIGs), first signing in the cycle: ${signMs} ms`);
  roundsTable(
    targets,
    rounds,
    `dnsperf [-D] -c 8 -q 1000 -l ${seconds}, signed, 80% hits / 20% NXDOMAIN (two NSEC proofs with DO); ` +
      `${placementNote(placements(argv))}; ${priority?.note ?? 'autogroup nice not set'}`,
  );
} finally {
  priority?.restore();
  for (const p of peers) p.proc.kill('SIGTERM');
  for (const s of siblings) await s.stop();
  await vigil.stop();
}
