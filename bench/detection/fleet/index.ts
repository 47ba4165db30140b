/**
 * The fleet: every daemon kind of the bench (one file each), their planted
 * weaknesses and hardened twins, and startFleet/stopFleet. Real Debian
 * daemons in the foreground, each in its own process group so that a stop
 * takes its workers with it; Node imitations only where Debian has none.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canConnect, sleep, udpAnswers, which, writeFile, type Ctx, type Daemon } from './kit.ts';
import { NGINX } from './nginx.ts';
import { APACHE } from './apache.ts';
import { TLS } from './tls.ts';
import { POSTFIX } from './postfix.ts';
import { DOVECOT } from './dovecot.ts';
import { VSFTPD } from './vsftpd.ts';
import { SSHD } from './sshd.ts';
import { BIND } from './bind.ts';
import { POSTGRES, MARIADB } from './databases.ts';
import { REDIS, MEMCACHED } from './caches.ts';
import { SLAPD } from './slapd.ts';
import { RSYNC } from './rsync.ts';
import { SAMBA } from './samba.ts';
import { XVFB } from './xvfb.ts';
import { TFTPD, SNMPD } from './udp.ts';
import { IMITATIONS } from './imitations.ts';
import { DANTED, TINYPROXY } from './proxies.ts';
import { MOSQUITTO } from './mosquitto.ts';
import { HAPROXY, LIGHTTPD, NODE_EXPORTER } from './monitoring.ts';
import { LEGACY_INFO } from './legacy.ts';
import { MUNIN } from './munin.ts';
import { ZABBIX } from './zabbix.ts';
import { NRPE } from './nrpe.ts';
import { TLS_CA } from './tls-ca.ts';
import { NIS } from './nis.ts';
import { RPC } from './rpc.ts';
import { XRDP } from './xrdp.ts';
import { RSH } from './rsh.ts';
import { INETD } from './inetd.ts';
import { ISCSI } from './iscsi.ts';
import { HTTP_BASIC_ADMIN, MONIT_ADMIN, TOMCAT_ADMIN } from './web-admin.ts';
import { RABBITMQ } from './rabbitmq.ts';
import { ACTIVEMQ } from './activemq.ts';
import { ETCD } from './etcd.ts';
import { NATS } from './nats.ts';
import { FIREBIRD } from './firebird.ts';
import { APACHE_PROXY, PRIVOXY, SQUID } from './forward-proxies.ts';
import { DNSMASQ, KNOT, NSD } from './dns-makes.ts';
import { DROPBEAR } from './dropbear.ts';
import { X11VNC } from './x11vnc.ts';

export const DAEMONS: readonly Daemon[] = [
  NGINX,
  APACHE,
  TLS,
  POSTFIX,
  DOVECOT,
  VSFTPD,
  SSHD,
  BIND,
  POSTGRES,
  MARIADB,
  REDIS,
  MEMCACHED,
  SLAPD,
  RSYNC,
  SAMBA,
  XVFB,
  TFTPD,
  SNMPD,
  TINYPROXY,
  DANTED,
  MOSQUITTO,
  NODE_EXPORTER,
  LIGHTTPD,
  HAPROXY,
  LEGACY_INFO,
  MUNIN,
  ZABBIX,
  NRPE,
  TLS_CA,
  RPC,
  NIS,
  XRDP,
  RSH,
  INETD,
  ISCSI,
  MONIT_ADMIN,
  TOMCAT_ADMIN,
  HTTP_BASIC_ADMIN,
  RABBITMQ,
  ACTIVEMQ,
  ETCD,
  NATS,
  FIREBIRD,
  SQUID,
  PRIVOXY,
  APACHE_PROXY,
  NSD,
  KNOT,
  DNSMASQ,
  DROPBEAR,
  X11VNC,
  IMITATIONS,
];

export const WEAKNESSES = DAEMONS.flatMap((d) => d.weaknesses);
export const TWIN_ADDRESSES = new Set(DAEMONS.flatMap((d) => d.twins.map((t) => t.address)));
export const ADDRESSES = [
  ...new Set(DAEMONS.flatMap((d) => [...d.weaknesses.map((w) => w.address), ...d.twins.map((t) => t.address)])),
];
export const TCP_PORTS = [...new Set(DAEMONS.flatMap((d) => d.ports.tcp))].sort((a, b) => a - b);
export const UDP_PORTS = [...new Set(DAEMONS.flatMap((d) => d.ports.udp))].sort((a, b) => a - b);
/** The daemon kind serving an address. */
export const daemonAt = (address: string) =>
  DAEMONS.find((d) => d.weaknesses.some((w) => w.address === address) || d.twins.some((t) => t.address === address));

const groups: number[] = [];
const stops: (() => void | Promise<void>)[] = [];
let root = '';
/** Process groups are written here too, so that a killed bench can be cleaned up by hand. */
let pidFile = '';

function context(kind: string, notes: string[]): Ctx {
  return {
    dir: (name) => {
      const d = join(root, kind, name);
      mkdirSync(d, { recursive: true });
      return d;
    },
    write: (path, text, mode) => writeFile(path, text, mode),
    spawn(label, cmd, args, opts = {}) {
      const log = join(root, `${kind}-${label}.log`.replace(/[^\w.-]/g, '_'));
      const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...opts });
      child.stdout?.on('data', (d) => appendFileSync(log, d));
      child.stderr?.on('data', (d) => appendFileSync(log, d));
      child.once('error', (e) => appendFileSync(log, `spawn error: ${e.message}\n`));
      if (child.pid) {
        groups.push(child.pid);
        appendFileSync(pidFile, `${child.pid}\n`);
      }
      Object.assign(child, { logFile: log });
      return child;
    },
    run(cmd, args, opts = {}) {
      const r = spawnSync(cmd, args, {
        encoding: 'utf8',
        input: opts.input,
        uid: opts.uid,
        gid: opts.gid,
        env: opts.env ?? process.env,
        timeout: 120_000,
      });
      if (r.status !== 0)
        throw new Error(
          `${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || String(r.error ?? '')).trim().slice(-600)}`,
        );
      return r.stdout;
    },
    async waitTcp(address, port, child, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!(await canConnect(address, port))) {
        if (child && child.exitCode !== null)
          throw new Error(`${kind} exited (${child.exitCode}) before ${address}:${port} listened: ${tail(child)}`);
        if (Date.now() > deadline)
          throw new Error(`${kind}: ${address}:${port} not listening after ${ms} ms: ${child ? tail(child) : ''}`);
        await sleep(100);
      }
    },
    async waitUdp(address, port, payload, child, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!(await udpAnswers(address, port, payload, 300))) {
        if (child && child.exitCode !== null)
          throw new Error(`${kind} exited (${child.exitCode}) before ${address}:${port}/udp answered: ${tail(child)}`);
        if (Date.now() > deadline)
          throw new Error(`${kind}: ${address}:${port}/udp silent after ${ms} ms: ${child ? tail(child) : ''}`);
      }
    },
    note: (text) => notes.push(`${kind}: ${text}`),
    onStop: (fn) => void stops.push(fn),
  };
}

function tail(child: object): string {
  const file = (child as { logFile?: string }).logFile;
  try {
    return file ? readFileSync(file, 'utf8').trim().split('\n').slice(-4).join(' | ').slice(-500) : '';
  } catch {
    return '';
  }
}

export interface FleetStatus {
  up: string[];
  skipped: string[];
  notes: string[];
  groups: number[];
  root: string;
}

/**
 * Starts every kind whose binaries are installed; a kind that fails is skipped with its reason (the bench
 * still runs).
 */
export async function startFleet(only?: Set<string>): Promise<FleetStatus> {
  root = mkdtempSync(join(tmpdir(), 'vigil-bench-fleet-'));
  chmodSync(root, 0o755); // daemons that drop to their own user (postgres, mysql, openldap, www-data) walk through it
  pidFile = join(root, 'groups');
  const status: FleetStatus = { up: [], skipped: [], notes: [], groups, root };
  for (const d of DAEMONS) {
    if (only && !only.has(d.kind)) continue;
    console.error(`fleet: starting ${d.kind}`);
    const missing = d.binaries.filter((b) => !which(b));
    if (missing.length) {
      status.skipped.push(`${d.kind}: not installed (${missing.join(', ')})`);
      continue;
    }
    for (const a of d.onLo ?? []) addLo(a);
    const t0 = performance.now();
    try {
      await d.start(context(d.kind, status.notes));
      status.up.push(`${d.kind} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (err) {
      status.skipped.push(`${d.kind}: failed to start: ${(err as Error).message}`);
    }
  }
  return status;
}

const added: string[] = [];
function addLo(address: string) {
  const r = spawnSync('ip', ['addr', 'add', `${address}/32`, 'dev', 'lo'], { encoding: 'utf8' });
  if (r.status === 0) added.push(address);
}

/** Stops everything startFleet started: TERM to each process group, KILL to what is left after 5 s. */
export async function stopFleet(): Promise<void> {
  const signal = (sig: NodeJS.Signals) =>
    groups.forEach((g) => {
      try {
        process.kill(-g, sig);
      } catch {
        // group already gone
      }
    });
  signal('SIGTERM');
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && groups.some(alive)) await sleep(100);
  signal('SIGKILL');
  for (const fn of stops.splice(0)) await Promise.resolve(fn()).catch(() => {});
  for (const a of added.splice(0)) spawnSync('ip', ['addr', 'del', `${a}/32`, 'dev', 'lo']);
  groups.length = 0;
  if (root && !process.env.VIGIL_BENCH_KEEP) rmSync(root, { recursive: true, force: true });
}

const alive = (g: number) => {
  try {
    process.kill(-g, 0);
    return true;
  } catch {
    return false;
  }
};
