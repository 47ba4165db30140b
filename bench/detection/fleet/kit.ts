/**
 * What every fleet file shares: the shape of a planted weakness (data, with
 * its matchers for Vigil and for nmap), the shape of a daemon kind, and a
 * context that starts real daemons in the foreground, in their own process
 * group, and remembers them so that the fleet can stop every one of them.
 *
 * Addresses: 127.14.K.N, K one per daemon kind, N 1..99 for weak configs,
 * 100+ for hardened twins. All of 127/8 routes to `lo` on Linux, so most
 * daemons bind there directly; the few that only bind interface addresses
 * (samba with `bind interfaces only`, ntpd) get the /32 added to `lo`.
 */
import { spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { createSocket } from 'node:dgram';
import type { NmapPort } from '../nmap.ts';

/** The families of issue 14; the table in docs/performance.md ("Detection") groups by them. */
export type Family =
  | 'auth' // default or missing authentication on services that hold data or control
  | 'cleartext' // credentials in cleartext
  | 'web' // web content that should not be public
  | 'dns-mail' // zone transfers, user enumeration, relays
  | 'tls' // certificates, protocols, DH groups (implicit TLS and STARTTLS)
  | 'smb' // signing, guest access, SMBv1
  | 'ident' // services to be named (rsync, X11, LDAP …)
  | 'udp' // UDP services (TFTP, SNMP, NTP, SSDP)
  | 'dos'; // denial-of-service susceptibility (slow requests, ranges, amplification, renegotiation)

export type Proto = 'tcp' | 'udp';

/** What Vigil must report on the weakness's address and port for it to count. */
export interface VigilMatch {
  /**
   * Check id (outdated-product findings, vigil.version.<product>, are never accepted unless the pattern
   * starts with vigil.version).
   */
  id?: RegExp;
  /** Title + detail of the finding, when one port carries several weaknesses. */
  text?: RegExp;
  /** Or: the service name detection gave the port (identification weaknesses). */
  service?: RegExp;
}

export interface Weakness {
  id: string;
  family: Family;
  label: string;
  daemon: string;
  address: string;
  port: number;
  proto: Proto;
  vigil: VigilMatch;
  /** Evidence in nmap's output for this port, or null. */
  nmap: (p: NmapPort) => string | null;
}

export interface Twin {
  address: string;
  /** What the twin is hardened against, for the notes. */
  note: string;
  /**
   * What the product does whatever its configuration (no setting removes it: h2o 2.2 and webfsd serve every
   * overlapping range asked for), so its twin carries it too: a finding of this check id (and an nmap script
   * of this id saying VULNERABLE) on the twin is listed as inherent, neither a false positive nor a hit.
   */
  inherent?: { vigil: RegExp; nmap?: RegExp; why: string }[];
}

export interface Daemon {
  kind: string;
  /** Debian binaries needed; missing ones skip the kind with a note. */
  binaries: string[];
  weaknesses: Weakness[];
  twins: Twin[];
  /** True when these CVEs, attached to a finding with this text, do not apply to this product (a wrong attribution). */
  wrongCves?: (cves: readonly string[], text: string) => boolean;
  /** Addresses that must be on `lo` (daemons that bind interface addresses only). */
  onLo?: string[];
  /** TCP and UDP ports the bench must scan for this kind. */
  ports: { tcp: number[]; udp: number[] };
  start(ctx: Ctx): Promise<void>;
}

export const addr = (k: number, n: number) => `127.14.${k}.${n}`;

/** Finds a binary in the usual Debian places (or an absolute path). */
export function which(name: string): string | null {
  if (name.startsWith('/')) return existsSync(name) ? name : null;
  return (
    ['/usr/sbin/', '/usr/bin/', '/sbin/', '/bin/', '/usr/local/bin/'].map((d) => d + name).find((p) => existsSync(p)) ??
    null
  );
}

export interface Ctx {
  /** A fresh directory for this kind (under the fleet's temporary root). */
  dir(name: string): string;
  write(path: string, text: string | Buffer, mode?: number): string;
  /** Starts a foreground daemon in its own process group; fails if it exits within the wait. */
  spawn(label: string, cmd: string, args: string[], opts?: SpawnOptions): ChildProcess;
  /** One command to completion (initdb, slapadd …); throws with its output on failure. */
  run(
    cmd: string,
    args: string[],
    opts?: { uid?: number; gid?: number; input?: string; env?: NodeJS.ProcessEnv },
  ): string;
  waitTcp(address: string, port: number, child?: ChildProcess, ms?: number): Promise<void>;
  /** Waits until `payload` to address:port/udp gets any reply. */
  waitUdp(address: string, port: number, payload: Buffer, child?: ChildProcess, ms?: number): Promise<void>;
  note(text: string): void;
  /** Runs at stop, after the processes are gone (loopback aliases, …). */
  onStop(fn: () => void | Promise<void>): void;
}

export function userIds(name: string): { uid: number; gid: number } {
  const r = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`no user ${name}`);
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

export function makeDir(path: string, owner?: { uid: number; gid: number }, mode = 0o755): string {
  mkdirSync(path, { recursive: true, mode });
  if (owner) spawnSync('chown', ['-R', `${owner.uid}:${owner.gid}`, path]);
  return path;
}

export function writeFile(path: string, text: string | Buffer, mode = 0o644): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text, { mode });
  return path;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.setTimeout(1000, () => (s.destroy(), resolve(false)));
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

export function udpAnswers(host: string, port: number, payload: Buffer, ms = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createSocket('udp4');
    const done = (ok: boolean) => (clearTimeout(t), s.close(), resolve(ok));
    const t = setTimeout(() => done(false), ms);
    s.once('message', () => done(true));
    s.once('error', () => done(false));
    s.send(payload, port, host);
  });
}

// ---- matchers -------------------------------------------------------------

const portText = (p: NmapPort) => [p.service, ...p.scripts.map((s) => `${s.id}: ${s.output}`)].join('\n');
/** nmap: any text of the port (service line, script output) matching. */
export const grep = (re: RegExp) => (p: NmapPort) => re.exec(portText(p))?.[0]?.slice(0, 160) ?? null;
/** nmap: that script's output matching. */
export const script = (id: string, re: RegExp) => (p: NmapPort) => {
  const s = p.scripts.find((x) => x.id === id);
  const m = s && re.exec(s.output);
  return m ? `${id}: ${m[0].slice(0, 140)}` : null;
};
export const any =
  (...ms: ((p: NmapPort) => string | null)[]) =>
  (p: NmapPort) =>
    ms.reduce<string | null>((hit, m) => hit ?? m(p), null);
/** nmap: the -sV service line (identification). */
export const svc = (re: RegExp) => (p: NmapPort) => (re.test(p.service) ? `-sV: ${p.service}` : null);
export const none = () => null;

/** Vigil: a non-version check whose id contains one of the words. */
export const ids = (...words: string[]) => new RegExp(`^vigil\\.(?!version\\.)[\\w.-]*(${words.join('|')})`, 'i');

/** Overlapping ranges served by a product with no setting to limit them (Twin.inherent): true on its twin too. */
export const RANGES_INHERENT = (product: string) => ({
  vigil: /^vigil\.dos\.http-range-amplification$/,
  nmap: /^http-vuln-cve2011-3192$/,
  why: `${product} serves every overlapping range asked for and has no setting to limit them`,
});
