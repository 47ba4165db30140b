/**
 * The fleet: every daemon kind of the bench (one file each), their planted
 * weaknesses and hardened twins, and startFleet/stopFleet. Real Debian
 * daemons in the foreground, each in its own process group so that a stop
 * takes its workers with it; Node imitations only where Debian has none.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
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
import { ALERTMANAGER, PROMETHEUS, PUSHGATEWAY } from './prometheus.ts';
import { LEGACY_INFO } from './legacy.ts';
import { MUNIN } from './munin.ts';
import { ZABBIX } from './zabbix.ts';
import { NRPE } from './nrpe.ts';
import { TLS_CA } from './tls-ca.ts';
import { NIS } from './nis.ts';
import { XRDP } from './xrdp.ts';
import { RPC } from './rpc.ts';
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
import { VNC_MAKES } from './vnc-makes.ts';
import { NBD_SERVER } from './nbd.ts';
import { ATFTPD } from './atftpd.ts';
import { BUSYBOX_TELNETD } from './busybox.ts';
import { HTTP_DIGEST, NAGIOS4 } from './web-logins.ts';
import { CACTI, PHPMYADMIN } from './php-apps.ts';
import { PROSODY } from './xmpp.ts';
import { KAMAILIO } from './sip.ts';
import { CUPS } from './cups.ts';
import { ICECAST } from './icecast.ts';
import { COAP } from './coap.ts';
import { NGIRCD } from './irc.ts';
import { BEANSTALKD, GEARMAN } from './queues.ts';
import { CARBON } from './carbon.ts';
import { VARNISH } from './varnish.ts';
import { GIT_DAEMON, SVNSERVE } from './vcs.ts';
import { DOCKER_REGISTRY } from './registry.ts';
import { TOMCAT_JAVA } from './tomcat-java.ts';
import { ZOOKEEPER } from './zookeeper.ts';
import { NFS_GANESHA } from './nfs.ts';
import { SANED } from './sane.ts';
import { MPD } from './mpd.ts';
import { CUPS_LOOPBACK } from './cups-loopback.ts';
import { P910ND } from './p910nd.ts';
import { MIT_KDC } from './kerberos.ts';
import { FREERADIUS } from './radius.ts';
import { TOR } from './control-tor.ts';
import { OPENVPN } from './control-openvpn.ts';
import { HAPROXY_RUNTIME } from './control-haproxy.ts';
import { UNBOUND } from './control-unbound.ts';
import { CHRONY } from './control-chrony.ts';
import { BIND_SHELL, DISTCC } from './distcc.ts';
import { SUPERVISOR } from './supervisor.ts';
import { JUPYTER } from './jupyter.ts';
import { FLASK_DEBUG } from './flask-debug.ts';
import { SHELLINABOX } from './shellinabox.ts';
import { DJANGO_DEBUG } from './django.ts';
import { UWSGI } from './uwsgi.ts';
import { ARIA2C, TRANSMISSION_DAEMON } from './downloaders.ts';
import { JDWP_JVM, NODE_INSPECTOR } from './debug-ports.ts';
import { PHP_FPM_TCP } from './fastcgi.ts';
import { PROFTPD, PUREFTPD } from './ftp-makes.ts';
import { EXIM } from './exim.ts';
import { OPENSMTPD } from './opensmtpd.ts';
import { CHARON_IKE } from './ike.ts';
import { CADDY, H2O } from './web-makes.ts';
import { BUSYBOX_HTTPD, MINI_HTTPD, PYTHON_HTTP, WEBFSD } from './web-makes-small.ts';
import { heldByOther } from '../../../test/helpers/listeners.ts';
import { FLEET_TAG_ENV, fleetTag, reapFleet } from './reap.ts';

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
  PROMETHEUS,
  PUSHGATEWAY,
  ALERTMANAGER,
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
  VNC_MAKES,
  NBD_SERVER,
  ATFTPD,
  BUSYBOX_TELNETD,
  NAGIOS4,
  PHPMYADMIN,
  CACTI,
  HTTP_DIGEST,
  PROSODY,
  KAMAILIO,
  CUPS,
  ICECAST,
  COAP,
  NGIRCD,
  TOMCAT_JAVA,
  ZOOKEEPER,
  PROFTPD,
  PUREFTPD,
  EXIM,
  OPENSMTPD,
  CHARON_IKE,
  BEANSTALKD,
  GEARMAN,
  CARBON,
  VARNISH,
  TOR,
  OPENVPN,
  HAPROXY_RUNTIME,
  UNBOUND,
  CHRONY,
  DOCKER_REGISTRY,
  GIT_DAEMON,
  SVNSERVE,
  NFS_GANESHA,
  SANED,
  MPD,
  CUPS_LOOPBACK,
  P910ND,
  MIT_KDC,
  FREERADIUS,
  DISTCC,
  BIND_SHELL,
  SUPERVISOR,
  JUPYTER,
  FLASK_DEBUG,
  SHELLINABOX,
  DJANGO_DEBUG,
  UWSGI,
  ARIA2C,
  TRANSMISSION_DAEMON,
  NODE_INSPECTOR,
  JDWP_JVM,
  PHP_FPM_TCP,
  CADDY,
  H2O,
  MINI_HTTPD,
  WEBFSD,
  BUSYBOX_HTTPD,
  PYTHON_HTTP,
  IMITATIONS,
];

export const WEAKNESSES = DAEMONS.flatMap((d) => d.weaknesses);
export const TWIN_ADDRESSES = new Set(DAEMONS.flatMap((d) => d.twins.map((t) => t.address)));
export const ADDRESSES = [
  ...new Set(DAEMONS.flatMap((d) => [...d.weaknesses.map((w) => w.address), ...d.twins.map((t) => t.address)])),
];
export const TCP_PORTS = [...new Set(DAEMONS.flatMap((d) => d.ports.tcp))].sort((a, b) => a - b);
export const UDP_PORTS = [...new Set(DAEMONS.flatMap((d) => d.ports.udp))].sort((a, b) => a - b);
/** The twin at an address, if it is one. */
export const twinAt = (address: string) => DAEMONS.flatMap((d) => d.twins).find((t) => t.address === address);
/** The daemon kind serving an address. */
export const daemonAt = (address: string) =>
  DAEMONS.find((d) => d.weaknesses.some((w) => w.address === address) || d.twins.some((t) => t.address === address));

const groups: number[] = [];
/** Set by stopFleet: a kind still starting spawns nothing more. */
let stopping = false;
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
      // A stop that began while this kind was starting must not be followed by a daemon nobody stops.
      if (stopping) throw new Error(`${kind}: the fleet is stopping`);
      const log = join(root, `${kind}-${label}.log`.replace(/[^\w.-]/g, '_'));
      // The tag follows the daemon into whatever it forks or daemonizes (reap.ts).
      const env = { ...(opts.env ?? process.env), [FLEET_TAG_ENV]: fleetTag() };
      const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...opts, env });
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
      ownListener('tcp', address, port, child);
    },
    async waitUdp(address, port, payload, child, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (!(await udpAnswers(address, port, payload, 300))) {
        if (child && child.exitCode !== null)
          throw new Error(`${kind} exited (${child.exitCode}) before ${address}:${port}/udp answered: ${tail(child)}`);
        if (Date.now() > deadline)
          throw new Error(`${kind}: ${address}:${port}/udp silent after ${ms} ms: ${child ? tail(child) : ''}`);
      }
      ownListener('udp', address, port, child);
    },
    note: (text) => notes.push(`${kind}: ${text}`),
    onStop: (fn) => void stops.push(fn),
  };
}

/**
 * What answered must be this fleet's: a daemon that could not bind because another bench's holds the
 * address leaves that one answering (the owner is read with `ss -lnp`, test/helpers/listeners.ts).
 */
function ownListener(proto: 'tcp' | 'udp', address: string, port: number, child?: ChildProcess): void {
  const ours = [...groups, process.pid, ...(child?.pid ? [child.pid] : [])];
  const other = heldByOther(proto, address, port, ours);
  if (other) throw new Error(`${other}, not by this fleet (another bench running?)`);
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
    if (stopping) break;
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

/**
 * Stops everything startFleet started, also while it is still starting: TERM to each process group and to
 * every process carrying the fleet's tag or descending from one, KILL to what is left after 5 s (reap.ts).
 */
export async function stopFleet(): Promise<void> {
  stopping = true;
  // The groups, and what left them (setsid, daemonized epmd) by the fleet's tag and by descent (reap.ts).
  await reapFleet(groups, fleetTag());
  for (const fn of stops.splice(0)) await Promise.resolve(fn()).catch(() => {});
  for (const a of added.splice(0)) spawnSync('ip', ['addr', 'del', `${a}/32`, 'dev', 'lo']);
  groups.length = 0;
  if (root && !process.env.VIGIL_BENCH_KEEP) rmSync(root, { recursive: true, force: true });
}
