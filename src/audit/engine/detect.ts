/**
 * Service detection on open TCP ports, ports in parallel (bounded). Per
 * port: wait briefly for a greeting (ssh, ftp, smtp, pop3, imap, mysql,
 * vnc, telnet, nats, the Varnish CLI, svnserve speak first); if it stays silent, run client-first probes on
 * fresh connections (HTTP, TLS → https/smtps/…, Redis, PostgreSQL, MongoDB,
 * RDP, SMB, DNS, Memcached, X11, rlogin/rsh/rexec, iSCSI, RPC, AMQP, STOMP, Firebird, AJP, Java RMI, ZooKeeper, a Kerberos KDC), the port's usual family first. What none of
 * our families names goes to nmap's probe database (service-probes-run.ts):
 * the greeting against its NULL probe, then the probes it lists for the
 * port. beanstalkd, Gearman, git and carbon are probed on their usual ports only (detect/ops.ts).
 * saned and raw printing ports too (detect/sharing.ts): on 9100-9107 the first probe is PJL's status
 * query, and a port that keeps silent to it is named jetdirect and sent nothing more (a printer prints it).
 * Every socket comes from the fence's Net; every read is bounded in
 * bytes and time.
 */
import { amqp, nats, stomp } from './detect/broker.ts';
import { firebird } from './detect/firebird.ts';
import { dns } from './detect/dns.ts';
import { ftp } from './detect/ftp.ts';
import { http } from './detect/http.ts';
import { Conv, firstLine, printable } from '../proto/conv.ts';
import type { Family } from './detect/family.ts';
import { memcached, mongodb, redis } from './detect/kv.ts';
import { imap, pop3, smtp } from './detect/mail.ts';
import { telnet, vnc } from './detect/remote.ts';
import { mysql, postgresql } from './detect/sql.ts';
import { ssh } from './detect/ssh.ts';
import { tls, tlsProbe } from './detect/tls.ts';
import { iscsi } from './detect/iscsi.ts';
import { nbd } from './detect/nbd.ts';
import { rpc } from './detect/rpc.ts';
import { rservices } from './detect/rservices.ts';
import { rdp, smb } from './detect/windows.ts';
import { x11 } from './detect/x11.ts';
import { ajp, javaRmi, zookeeper } from './detect/java.ts';
import { beanstalkd, carbon, gearman, git, svn, varnishCli } from './detect/ops.ts';
import { xmpp } from './detect/xmpp.ts';
import { sip } from './detect/sip.ts';
import { jdwp } from './detect/jdwp.ts';
import { distcc } from './detect/distcc.ts';
import { uwsgi, uwsgiStats } from './detect/uwsgi.ts';
import { jetdirect, mpd, sane } from './detect/sharing.ts';
import { nameRpcPorts } from './detect/rpc-names.ts';
import { kerberos } from './detect/kerberos.ts';
import { controlLine, openvpnManagement } from './detect/control.ts';
import { memberlist } from './detect/memberlist.ts';
import { identifyByProbes, identifyGreeting, type Identified } from './service-probes-run.ts';
import { loadProbesAsync } from './service-probes.ts';
import type { Net, Service } from './types.ts';

export interface DetectOptions {
  signal?: AbortSignal;
  /** Ports examined at once (default 64). */
  concurrency?: number;
  /** How long to wait for a greeting before probing (default 700 ms). */
  bannerMs?: number;
  /** Connect timeout and upper bound of any single read (default 3000 ms). */
  timeoutMs?: number;
  /** Upper bound for all probes of one port (default 12 s). */
  portBudgetMs?: number;
  /** nmap-service-probes as the fallback for ports our families do not name (default on when the file exists). */
  nmapProbes?: boolean;
}

/** Families that speak first, in the order their greeting is tested (ftp before smtp: it tells a bare 220 apart). */
const GREETING: readonly Family[] = [
  ssh,
  vnc,
  telnet,
  mysql,
  pop3,
  imap,
  ftp,
  smtp,
  nats,
  varnishCli,
  svn,
  openvpnManagement,
  mpd,
  nbd,
  uwsgiStats,
];
/**
 * Client-first probes, default order; `tls` is the handshake probe. stomp and amqp come early: a STOMP
 * server off 61613 is silent to HTTP, TLS, Redis, PostgreSQL, MongoDB and AMQP (it waits for a NUL after
 * a newline), 10-13 s of the 12 s port budget on the 2-core VM, and ActiveMQ's STOMP stayed "unknown".
 */
const PROBES: readonly Family[] = [
  http,
  tls,
  // Early, with a short read: HAProxy's CLI, which reads lines, waits out every binary probe after it.
  controlLine,
  stomp,
  amqp,
  redis,
  postgresql,
  mongodb,
  rdp,
  smb,
  dns,
  memcached,
  x11,
  rservices,
  iscsi,
  rpc,
  firebird,
  ajp,
  javaRmi,
  zookeeper,
  jdwp,
  distcc,
  xmpp,
  sip,
  kerberos,
  beanstalkd,
  gearman,
  git,
  carbon,
  jetdirect,
  sane,
  memberlist,
  uwsgi,
];

export const emptyService = (port: number): Service => ({
  port,
  protocol: 'tcp',
  name: 'unknown',
  product: null,
  version: null,
  banner: null,
  tls: null,
  http: null,
  extra: {},
});

export async function detectServices(net: Net, ports: readonly number[], opts: DetectOptions = {}): Promise<Service[]> {
  opts.signal?.throwIfAborted();
  const list = [...new Set(ports)].sort((a, b) => a - b);
  // nmap's database, parsed before any conversation starts (in slices: see loadProbesAsync).
  if (opts.nmapProbes !== false) await loadProbesAsync();
  const out: Service[] = new Array(list.length);
  let next = 0;
  const lane = async () => {
    while (next < list.length) {
      const i = next++;
      opts.signal?.throwIfAborted();
      out[i] = await detectOne(net, list[i]!, opts).catch(() => emptyService(list[i]!));
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 64, list.length) }, lane));
  // mountd, status, nlockmgr … on the ports the host's portmapper lists for them (detect/rpc-names.ts).
  await nameRpcPorts(net, out).catch(() => {});
  opts.signal?.throwIfAborted();
  return out;
}

/**
 * The client-first probes a port gets, in order: the families of that port first, then every other family
 * but those probed on their own ports only (Family.only). Measured on a port that answers and closes: 34
 * connections before, 19 with them left out.
 */
export const probesFor = (port: number): Family[] => [
  ...PROBES.filter((f) => f.ports?.includes(port)),
  ...PROBES.filter((f) => !f.only && !f.ports?.includes(port)),
];

/** What answers on one port; never throws for anything the peer does. */
export async function detectOne(net: Net, port: number, opts: DetectOptions = {}): Promise<Service> {
  const timeoutMs = opts.timeoutMs ?? 3000;
  const deadline = Date.now() + (opts.portBudgetMs ?? 12_000);
  const s = emptyService(port);
  if (opts.nmapProbes !== false) await loadProbesAsync(); // parsed once per process, in slices
  const open = async (capMs = timeoutMs) => new Conv(await net.connect(port, { timeoutMs }), capMs);

  // 1. Greeting.
  let conv = await open().catch(() => null);
  if (!conv) return s;
  let greeting: Buffer;
  try {
    greeting = Buffer.from(await conv.read(opts.bannerMs ?? 700));
    if (greeting.length) {
      s.banner = printable(greeting);
      for (const f of GREETING) {
        if (await f.banner!(greeting, s, conv).catch(() => false)) return s;
        if (conv.closed) break;
      }
      // Not one of ours: nmap's NULL-probe lines (rsync's "@RSYNCD:", …).
      const id = opts.nmapProbes === false ? null : identifyGreeting(greeting);
      if (id && !id.soft) return named(s, id);
      if (id) named(s, id);
    }
  } finally {
    conv.close();
  }

  // 2. Client-first probes, each on a fresh connection. A port that stays
  // silent through the first probes gets shorter reads from then on.
  const ordered = probesFor(port);
  let silent = 0;
  for (const f of ordered) {
    opts.signal?.throwIfAborted();
    const left = deadline - Date.now();
    if (left <= 0) break;
    const cap = Math.min(left, silent >= 2 ? 800 : timeoutMs);
    if (f === tls) {
      const probe = { ...s, extra: { ...s.extra } };
      if (await tlsProbe(net, probe, GREETING, Math.min(timeoutMs, left), Math.min(400, cap)).catch(() => false)) {
        Object.assign(s, probe, { banner: s.banner ?? probe.banner ?? (probe.http ? statusLine(probe) : null) });
        return s;
      }
      continue;
    }
    const attempt = { ...s, extra: { ...s.extra } };
    try {
      conv = await open(cap);
    } catch {
      // Refused or timed out now: the port went away; keep what we have.
      break;
    }
    const started = Date.now();
    try {
      const ok = await f.probe!(conv, attempt, net);
      // An echo server (RFC 862) returns any probe as it came, and an echoed probe can pass its own test
      // (SMB's negotiate echoed back read as SMB1, a false SMBv1 HOLE): a reply equal to the probe names echo.
      if (conv.last.length >= 8 && conv.sent.subarray(0, conv.last.length).equals(conv.last))
        return Object.assign(s, { name: 'echo' });
      if (ok) {
        const quoted = s.banner === null && conv.last.length > 0;
        Object.assign(s, attempt, { banner: s.banner ?? printable(conv.last) });
        // The banner is this probe's reply: the report names the request too (`INFO server`, `GET / HTTP/1.1`),
        // when it is text; a binary request (SMB, DNS, X11 …) is named by the service found.
        const sent = firstLine(conv.sent).slice(0, 80);
        if (quoted && s.banner && /^[\x20-\x7e]+$/.test(sent)) s.extra.sent = sent;
        return s;
      }
      if (!conv.last.length && Date.now() - started >= cap - 50) silent++;
    } catch {
      // A probe choking on a hostile reply is a miss, not a failure.
    } finally {
      conv.close();
    }
  }
  // 3. Nothing of ours answered: the probes nmap's database lists for this port.
  if (opts.nmapProbes !== false && deadline > Date.now()) {
    opts.signal?.throwIfAborted();
    const id = await identifyByProbes(net, port, {
      waitMs: Math.min(1500, Math.max(300, deadline - Date.now())),
    }).catch(() => null);
    if (id && (!id.soft || s.name === 'unknown')) named(s, id);
  }
  return s;
}

/** A service named by nmap's database; the probe is recorded so a report can say how it was known. */
function named(s: Service, id: Identified): Service {
  Object.assign(s, { name: id.service, product: id.product ?? s.product, version: id.version ?? s.version });
  if (id.info) s.extra.info = id.info;
  s.extra.identifiedBy = `nmap-service-probes ${id.probe}${id.soft ? ' (softmatch)' : ''}`;
  return s;
}

const statusLine = (s: Service) =>
  s.http ? `HTTP ${s.http.status}${s.http.headers['server'] ? ` ${s.http.headers['server']}` : ''}` : null;
