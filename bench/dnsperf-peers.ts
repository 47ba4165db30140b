import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/helpers/server.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import { pinned, until } from './dnsperf-kit.ts';

/**
 * The C servers the dnsperf benches (dnsperf.ts, dnsperf-dnssec.ts) put
 * next to Vigil, and where every server and dnsperf may run.
 *
 * A placement (issue 32): on a 2-core machine the server and dnsperf share
 * the cores, so an unpinned q/s measures how a server shares a core with
 * the load generator as much as the server (a server whose threads the
 * scheduler happens to leave alone wins). Pinned, every server (Vigil,
 * NSD, Knot, BIND alike) runs under `taskset -c <server CPUs>` with one
 * worker or thread per CPU of that set, and dnsperf under `taskset -c
 * <load CPUs>`: each side has the same cores whoever serves.
 */
export interface Placement {
  /** 'pinned' or 'unpinned': the label of its rows and of its per-round ratios. */
  name: string;
  /** `taskset -c` CPU lists, or null: anywhere. */
  server: string | null;
  load: string | null;
  /** Workers or threads every server runs with in this placement. */
  workers: number;
  /** The nice value of every server and dnsperf (`--nice`, default -19; dnsperf-run.ts pinned). */
  nice: number;
  /** dnsperf's threads, `-T` (`--dnsperf-threads`, default 2). */
  loadThreads: number;
}

const cpuCount = (list: string) =>
  list.split(',').reduce((n, part) => {
    const [a, b] = part.split('-').map(Number);
    return n + (b === undefined ? 1 : b - a! + 1);
  }, 0);

/**
 * `--pin SERVER:LOAD` (default `0:1`: the server on CPU 0, dnsperf on CPU 1), `--placements pinned,unpinned`
 * (default both; unpinned: two workers each, as before issue 32's pinned method) and `--nice N` (default -19).
 */
export function placements(argv: string[]): Placement[] {
  const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const [server, load] = (arg('--pin') ?? '0:1').split(':');
  const wanted = (arg('--placements') ?? 'pinned,unpinned').split(',');
  const nice = Number(arg('--nice') ?? -19);
  const loadThreads = Number(arg('--dnsperf-threads') ?? 2);
  const all: Placement[] = [
    { name: 'pinned', server: server!, load: load!, workers: cpuCount(server!), nice, loadThreads },
    { name: 'unpinned', server: null, load: null, workers: Math.min(2, availableParallelism()), nice, loadThreads },
  ];
  return all.filter((p) => wanted.includes(p.name));
}

/**
 * The kernel groups tasks by session (autogroup, /proc/sys/kernel/sched_autogroup_enabled) and shares a CPU
 * between groups first, so a nice value only orders the bench's own processes: measured, every server at nice
 * -19 still waited on the run queue for 90% of the run (`/proc/<pid>/task/<tid>/schedstat`) with the VM's load
 * average at 20 from other sessions, at 25 - 30k q/s; with the bench's group at nice -19, 150 - 200k. Sets
 * this session's group to `nice` (root, or CAP_SYS_NICE) and returns how to put it back, or null where there
 * is no autogroup or it may not. Run the bench under `setsid` to leave the shell's own group alone.
 */
export function groupNice(nice: number): { note: string; restore(): void } | null {
  const file = '/proc/self/autogroup';
  try {
    const before = Number(/nice (-?\d+)/.exec(readFileSync(file, 'utf8'))![1]);
    writeFileSync(file, String(nice));
    return { note: `session's autogroup at nice ${nice}`, restore: () => writeFileSync(file, String(before)) };
  } catch {
    return null;
  }
}

/** The placements of a run, for its table's heading. */
export const placementNote = (list: Placement[]): string =>
  list
    .map((p) =>
      p.server
        ? `${p.name}: servers under taskset -c ${p.server} (${p.workers} worker(s) each), dnsperf -T ${p.loadThreads} under taskset -c ${p.load}, nice ${p.nice}`
        : `${p.name}: no taskset, ${p.workers} workers each, dnsperf -T ${p.loadThreads}, nice ${p.nice}`,
    )
    .join('; ');

export interface Peer {
  name: string;
  port: number;
  proc: ChildProcess;
}

/**
 * Knot serving one zone file as a primary with `workers` UDP workers; `signing: false` serves a signed file as
 * is (its own signing off).
 */
export function knotConfig(port: number, dir: string, zone: string, zoneFile: string, signing = true, workers = 2) {
  return `
server:
  listen: 127.0.0.1@${port}
  rundir: "${dir}"
  background-workers: 1
  udp-workers: ${workers}
control:
  listen: "${dir}/knot.sock"
database:
  storage: "${dir}"
zone:
  - domain: ${zone}
    file: "${zoneFile}"
    zonefile-load: whole
    journal-content: none
${signing ? '' : '    dnssec-signing: off\n'}`;
}

interface PeerKind {
  name: string;
  tool: string;
  args(dir: string): string[];
  config(port: number, dir: string, workers: number): [file: string, text: string];
}

/**
 * BIND, NSD and Knot with `workers` threads or server processes each, serving `zoneFile` as a primary (a signed
 * file as it is: none of them signs), with no response rate limiting (NSD's `rrl-ratelimit: 0`; BIND and Knot
 * have none unless configured). NSD with `minimal-responses: yes`: by default it adds the zone's NS set to every
 * answer (125 bytes against the others' 62 - 64); with it every server's replies are the same size. Measured
 * (session 15, 3 rounds each, quiet machine): NSD's q/s the same within the rounds' spread either way, 1.16 -
 * 1.18 best Vigil / NSD. NSD's `reuseport: yes` was tried and not kept: with two workers 168k q/s against
 * 217k without (the kernel's hash of dnsperf's 8 sockets puts most on one worker).
 */
function kinds(zone: string, zoneFile: string): PeerKind[] {
  return [
    {
      name: 'BIND',
      tool: 'named',
      args: (d) => ['-g', '-c', join(d, 'named.conf')],
      config: (p, d) => [
        'named.conf',
        `
options { directory "${d}"; pid-file "${d}/pid"; session-keyfile "${d}/sk"; managed-keys-directory "${d}";
  listen-on port ${p} { 127.0.0.1; }; listen-on-v6 { none; }; recursion no; dnssec-validation no; };
controls { };
zone "${zone}" { type primary; file "${zoneFile}"; };
`,
      ],
    },
    {
      name: 'NSD',
      tool: 'nsd',
      args: (d) => ['-d', '-c', join(d, 'nsd.conf')],
      config: (p, d, workers) => [
        'nsd.conf',
        `
server:
  ip-address: 127.0.0.1@${p}
  do-ip6: no
  server-count: ${workers}
  username: ""
  chroot: ""
  zonesdir: "${d}"
  database: ""
  pidfile: "${d}/nsd.pid"
  xfrdfile: "${d}/xfrd.state"
  zonelistfile: "${d}/zone.list"
  rrl-ratelimit: 0
  minimal-responses: yes
remote-control:
  control-enable: no
zone:
  name: ${zone}
  zonefile: "${zoneFile}"
`,
      ],
    },
    {
      name: 'Knot',
      tool: 'knotd',
      args: (d) => ['-c', join(d, 'knot.conf')],
      config: (p, d, workers) => ['knot.conf', knotConfig(p, d, zone, zoneFile, false, workers)],
    },
  ];
}

/**
 * Starts every installed C server in this placement (BIND's `-n` threads, NSD's `server-count`, Knot's
 * `udp-workers`: the placement's workers), waiting until each answers `probe` (a name of the zone).
 */
export async function startPeers(
  dir: string,
  zone: string,
  zoneFile: string,
  probe: string,
  where: Placement,
): Promise<Peer[]> {
  const peers: Peer[] = [];
  for (const kind of kinds(zone, zoneFile)) {
    if (!hasTool(kind.tool)) {
      console.log(`${kind.name}: not installed, left out`);
      continue;
    }
    const port = await freePort();
    const d = join(dir, `${kind.name}-${where.name}`);
    mkdirSync(d, { recursive: true });
    const [file, text] = kind.config(port, d, where.workers);
    writeFileSync(join(d, file), text);
    const extra = kind.tool === 'named' ? ['-n', String(where.workers)] : [];
    const [cmd, ...args] = pinned(where.server, [kind.tool, ...extra, ...kind.args(d)], where.nice);
    const proc = spawn(cmd!, args, { stdio: 'ignore' });
    const unit = `${kind.tool === 'named' ? 'thread' : 'worker'}${where.workers > 1 ? 's' : ''}`;
    const name = `${kind.name} (${where.workers} ${unit}, ${where.name})`;
    peers.push({ name, port, proc });
    await until(async () => (await udpQuery(port, probe, 'A')).answers?.length === 1, `${name} serves the zone`);
  }
  return peers;
}
