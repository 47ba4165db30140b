import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { daemon } from '../test/helpers/bind.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import { freePort } from '../test/helpers/server.ts';
import { docSnippet } from '../test/helpers/snippets.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { until } from './dnsperf-kit.ts';

/** The peers of bench/scale-zones.ts: Knot and NSD loading the same zones, BIND following the catalog. */

export const answers = async (port: number, name: string) => (await udpQuery(port, name, 'A')).answers?.length === 1;
export const statusKb = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;

export interface Peer {
  name: string;
  port: number;
  proc: ChildProcess;
  /** Resident size (kB) once it serves every zone, and its peak (VmHWM), children included. */
  rss: number;
  peak: number;
  /** Start to the probe name's answer. */
  load: string;
  stop(): void;
}

export interface PeerOptions {
  dir: string;
  /** Master files named `<zone>.zone`. */
  zonesDir: string;
  zones: readonly string[];
  /** A name of the last zone: answered once the peer serves every zone. */
  probe: string;
  /** Stop each peer once measured (no dnsperf: its memory goes back before the next one loads). */
  stopEach: boolean;
  step(what: string): void;
}

const childPids = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

const CONFIGS = {
  Knot: {
    tool: 'knotd',
    file: 'knot.conf',
    argv: (f: string) => ['-c', f],
    text: (o: PeerOptions, port: number) =>
      `server:\n  listen: 127.0.0.1@${port}\n  rundir: "${o.dir}"\n  udp-workers: 2\n  background-workers: 1\ndatabase:\n  storage: "${o.dir}/knot"\n` +
      `template:\n  - id: default\n    storage: "${o.zonesDir}"\n    file: "%s.zone"\n    journal-content: none\n    zonefile-sync: -1\n` +
      `zone:\n${o.zones.map((z) => `  - domain: ${z}\n`).join('')}`,
  },
  NSD: {
    tool: 'nsd',
    file: 'nsd.conf',
    argv: (f: string) => ['-d', '-c', f],
    text: (o: PeerOptions, port: number) =>
      `server:\n  ip-address: 127.0.0.1@${port}\n  do-ip6: no\n  server-count: 1\n  username: ""\n  chroot: ""\n  zonesdir: "${o.zonesDir}"\n` +
      `  database: ""\n  pidfile: "${o.dir}/nsd.pid"\n  xfrdfile: "${o.dir}/xfrd.state"\n  zonelistfile: "${o.dir}/zone.list"\n  rrl-ratelimit: 0\n` +
      `remote-control:\n  control-enable: no\n${o.zones.map((z) => `zone:\n  name: ${z}\n  zonefile: "${z}.zone"\n`).join('')}`,
  },
} as const;

/** Starts one peer on the zones and measures it; null when it is not installed. */
export async function loadPeer(name: keyof typeof CONFIGS, o: PeerOptions): Promise<Peer | null> {
  const c = CONFIGS[name];
  if (!hasTool(c.tool)) {
    console.log(`${name}: not installed, left out`);
    return null;
  }
  const port = await freePort();
  writeFileSync(join(o.dir, c.file), c.text(o, port));
  const t = performance.now();
  const proc = spawn(c.tool, c.argv(join(o.dir, c.file)), { stdio: 'ignore' });
  const exited = new Promise((res) => proc.once('exit', res));
  await until(() => answers(port, o.probe), `${name} serves every zone`, 6000);
  const load = since(t);
  const pids = [proc.pid!, ...childPids(proc.pid!)];
  const rss = pids.reduce((n, p) => n + statusKb(p, 'VmRSS'), 0);
  const peak = pids.reduce((n, p) => n + statusKb(p, 'VmHWM'), 0);
  const stop = () => proc.kill('SIGTERM');
  o.step(`${name} serves every zone (${load}, ${(rss / 1024).toFixed(0)} MB)`);
  if (o.stopEach) {
    stop();
    await exited;
  }
  return { name, port, proc, rss, peak, load, stop };
}

/**
 * BIND's limits on zone transfers in, raised: its defaults (serial-query-rate 20 SOA queries a second,
 * transfers-in 10, transfers-per-ns 2) make 100,000 new zones take 83 minutes of SOA queries alone. An operator
 * following a provider's catalog raises them the same way (docs/secondaries.md). 40 at once stays under Vigil's
 * 64 DNS-over-TCP connections per address (--max-connections-per-ip).
 */
const BIND_TUNING = 'serial-query-rate 1000;\n  transfers-in 40;\n  transfers-per-ns 40;';

/**
 * A BIND secondary (docs/secondaries.md's configuration, tuned) following Vigil's catalog: true once every
 * member is transferred and the last one answers, else what it had done when `minutes` ran out.
 */
export async function bindFollows(o: {
  dir: string;
  secondaryPort: number;
  dnsPort: number;
  catalog: string;
  members: number;
  lastMember: string;
  minutes: number;
  keep: boolean;
  step(what: string): void;
}): Promise<true | string> {
  const bindDir = join(o.dir, 'bind');
  mkdirSync(join(bindDir, 'zones'), { recursive: true });
  const values = { DIR: bindDir, PORT: o.secondaryPort, PRIMARY_ADDRESS: '127.0.0.1', PRIMARY_PORT: o.dnsPort };
  const conf = docSnippet('bind', { ...values, CATALOG: o.catalog }).replace(
    'notify no;',
    `notify no;\n  ${BIND_TUNING}`,
  );
  writeFileSync(join(bindDir, 'named.conf'), conf);
  const bind = await daemon('named', ['-g', '-n', '1', '-c', join(bindDir, 'named.conf')], /running/, 0, bindDir);
  const transferred = () => bind.log().split('Transfer completed').length - 1;
  const deadline = performance.now() + o.minutes * 60_000;
  let served = false;
  // Every member transferred (BIND takes them in no set order: the last one's name proves nothing alone), and
  // the last one answered. The catalog's own transfer counts too.
  while (!served && performance.now() < deadline) {
    served = transferred() > o.members && (await answers(o.secondaryPort, o.lastMember).catch(() => false));
    if (!served) await new Promise((r) => setTimeout(r, 5000));
    o.step(`BIND: ${transferred()} zone transfers completed`);
  }
  if (o.keep) writeFileSync(join(bindDir, 'named.log'), bind.log());
  await bind.stop();
  return served || `not all after ${o.minutes} min: ${transferred()} zone transfers (the catalog's included)`;
}
