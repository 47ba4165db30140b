/**
 * Name-server benchmark (issues 4, 32): dnsperf against Vigil and, in the
 * same run on loopback, BIND 9, NSD and Knot serving the same
 * 10,000-record zone (the zone text Vigil's dnsBuildZone.php writes).
 * Queries: 80% existing names, 20% NXDOMAIN. Servers that are not
 * installed are left out. Response rate limiting is off for every server
 * (dnsperf-kit.ts RRL_OFF).
 *
 *   node --import tsx bench/dnsperf.ts [--seconds 10] [--rounds 3] [--only vigil,knot]
 *     [--pin 0:1] [--placements pinned,unpinned] [--two-dnsperf] [--nice -19] [--dnsperf-threads 2]
 *
 * Placements (dnsperf-peers.ts): pinned, every server under `taskset -c 0`
 * with one worker or thread per CPU of that set and dnsperf under
 * `taskset -c 1`; unpinned, everything anywhere, two workers each. Each
 * round runs every server once, the order turning (dnsperf-kit.ts
 * roundsTable): the machine is shared, so medians of alternating rounds,
 * with each server's CPU per query and dnsperf's own CPU. `--two-dnsperf`
 * adds pinned runs of two dnsperf processes at once (is dnsperf the
 * bottleneck?), `--dnsperf-threads` sets dnsperf's -T. The "spin" row: receive threads that poll before they sleep
 * (VIGIL_DNS_SPIN_US), tried and not kept, in the same run. The "floor" row
 * (dnsperf-floor.c): a reflector that does no DNS work, the bound on what
 * any server reaches on this kernel. Every server
 * and dnsperf at nice -19, and the bench's session group too (`--nice`,
 * dnsperf-peers.ts groupNice): run it under `setsid`.
 */
import { writeFileSync } from 'node:fs';
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
import { startFloor } from './dnsperf-floor.ts';
import { groupNice, type Peer, type Placement, placementNote, placements, startPeers } from './dnsperf-peers.ts';

const argv = process.argv;
const seconds = Number(argv[argv.indexOf('--seconds') + 1]) || 10;
const rounds = Number(argv[argv.indexOf('--rounds') + 1]) || 3;
const ZONE = 'perf.example';
const N = 10_000;
const dir = tempDir('vigil-dnsperf-');
/** Tried in issue 32 and not kept (docs/performance.md): receive threads poll 50 µs before they sleep. */
const SPIN = { VIGIL_DNS_SPIN_US: '50' };

// Vigil: the zone through the API and the store, published and distributed.
const dnsPort = await freePort();
const vigil = await serve({
  args: ['--dns-port', String(dnsPort), '--publish-interval', '500ms', '--domain-hold', 'none', ...RRL_OFF],
});
const c = vigil.client();
await c.login(await addAccount(vigil.dataDir, 'perf', 'perf password', '--dns-credits', '1'), 'perf', 'perf password');
await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
bulkARecords(vigil.dataDir, ZONE, N);
const zoneText = (await c.call('dnsBuildZone.php', { domain: ZONE })).zone as string;
const pub = await c.call('dnsPublish.php', { domain: ZONE });
if (pub.errors) throw new Error(pub.errors[0]);
await until(
  async () => (await udpQuery(dnsPort, `host9999.${ZONE}`, 'A')).answers?.length === 1,
  'Vigil serves the zone',
);

const siblings: Awaited<ReturnType<typeof serve>>[] = [];
/** The same data directory served by another serve, DNS only, under `cpus`, with these flags and environment. */
async function sibling(what: string, where: Placement, args: string[], env: Record<string, string> = {}) {
  const port = await freePort();
  const s = await serve({
    dataDir: vigil.dataDir,
    env,
    prefix: pinned(where.server, [], where.nice),
    args: ['--dns-port', String(port), '--https-port', '0', '--http-port', '0', ...RRL_OFF, ...args],
  });
  siblings.push(s);
  await until(async () => (await udpQuery(port, `host9999.${ZONE}`, 'A')).answers?.length === 1, what);
  return { port, pids: () => [s.proc.pid!] };
}

const zoneFile = join(dir, `${ZONE}.zone`);
writeFileSync(zoneFile, zoneText);
const queries = queryFile(dir, ZONE, N);
const peers: Peer[] = [];
const targets: Target[] = [];
for (const where of placements(argv)) {
  const group = where.name;
  const opts = { group, cpus: where.load, nice: where.nice, threads: where.loadThreads };
  const two = { ...opts, group: `${group}, 2 dnsperf`, procs: 2 };
  const mine = await startPeers(dir, ZONE, zoneFile, `host1.${ZONE}`, where);
  peers.push(...mine);
  const floor = await startFloor(dir, where);
  if (floor) {
    peers.push(floor);
    targets.push(
      dnsperfTarget(floor.name, false, floor.port, queries, seconds, [], {
        ...opts,
        pids: () => [floor.proc.pid!],
        reference: true,
      }),
    );
  }
  const threads = { VIGIL_DNS_THREADS: String(where.workers) };
  if (where.server) {
    const now = await sibling(`Vigil ${group}`, where, [], threads);
    const spin = await sibling(`Vigil ${group} spin`, where, [], { ...threads, ...SPIN });
    const name = `Vigil (1 process, ${where.workers} thread${where.workers > 1 ? 's' : ''}, ${group})`;
    targets.push(
      dnsperfTarget(name, true, now.port, queries, seconds, [], { ...opts, pids: now.pids }),
      dnsperfTarget(`${name}, spin 50 µs`, true, spin.port, queries, seconds, [], {
        ...opts,
        pids: spin.pids,
        variant: true,
      }),
    );
    if (argv.includes('--two-dnsperf'))
      targets.push(
        dnsperfTarget(`${name}, 2 dnsperf`, true, now.port, queries, seconds, [], { ...two, pids: now.pids }),
        ...mine.map((p) =>
          dnsperfTarget(`${p.name}, 2 dnsperf`, false, p.port, queries, seconds, [], {
            ...two,
            pids: () => [p.proc.pid!],
          }),
        ),
      );
  } else {
    const workers = await sibling(`Vigil ${group} workers`, where, ['--dns-workers', String(where.workers)]);
    const one = await sibling(`Vigil ${group}`, where, []);
    targets.push(
      dnsperfTarget(`Vigil (1 process, ${group})`, true, one.port, queries, seconds, [], { ...opts, pids: one.pids }),
      dnsperfTarget(`Vigil (${where.workers} workers, ${group})`, true, workers.port, queries, seconds, [], {
        ...opts,
        pids: workers.pids,
      }),
    );
  }
  targets.push(
    ...mine.map((p) =>
      dnsperfTarget(p.name, false, p.port, queries, seconds, [], { ...opts, pids: () => [p.proc.pid!] }),
    ),
  );
}

const priority = groupNice(placements(argv)[0]?.nice ?? 0);
try {
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1]!.split(',') : [];
  roundsTable(
    targets.filter((t) => !only.length || only.some((o) => t.name.toLowerCase().includes(o.toLowerCase()))),
    rounds,
    `dnsperf -c 8 -q 1000 -l ${seconds}, ${N}-record zone, 80% hits / 20% NXDOMAIN, unsigned; ` +
      `${placementNote(placements(argv))}; ${priority?.note ?? 'autogroup nice not set'}`,
  );
} finally {
  priority?.restore();
  for (const p of peers) p.proc.kill('SIGTERM');
  for (const s of siblings) await s.stop();
  await vigil.stop();
}
