/**
 * The scan engine's shared shapes: what a port scan and service detection
 * learn about a host (Service), and what a check is (Check) and reports
 * (Finding). Every network contact goes through a Fence (fence.ts).
 */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

export type Risk = 'high' | 'medium' | 'low' | 'other';
export type EntryType = 'LOG' | 'NOTE' | 'HOLE';

export interface TlsCertificate {
  subject: string;
  issuer: string;
  /** Epoch milliseconds. */
  notBefore: number;
  notAfter: number;
  selfSigned: boolean;
  altNames: string[];
  /** 'RSA', 'EC', … and the key size in bits (0 when unknown). */
  keyType: string;
  keyBits: number;
  signatureAlgorithm: string;
  fingerprint256: string;
}

export interface TlsInfo {
  /** Negotiated protocol as node names it: 'TLSv1.3', 'TLSv1.2', … */
  protocol: string;
  cipher: string;
  certificate: TlsCertificate | null;
  /**
   * DER of the certificates the server sent, its own first, then its issuers as OpenSSL linked them
   * (proto/tls-trust.ts verifies the chain from these); absent where no handshake recorded them.
   */
  chain?: readonly Buffer[];
}

export interface HttpInfo {
  status: number;
  /** Lower-cased header names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** At most the first 4 KB of the body, as latin1 text. */
  body: string;
}

/** One open TCP port and what answers on it. */
export interface Service {
  port: number;
  protocol: 'tcp';
  /**
   * Detected service, nmap-style names: http, https, ssh, ftp, ftps, smtp,
   * smtps, pop3, pop3s, imap, imaps, domain, mysql, postgresql, redis,
   * memcached, mongodb, ms-wbt-server (RDP), microsoft-ds (SMB), vnc,
   * telnet, … or 'unknown'.
   */
  name: string;
  product: string | null;
  version: string | null;
  /** First printable line(s) the service sent or answered, trimmed, ≤ 512 chars. */
  banner: string | null;
  tls: TlsInfo | null;
  http: HttpInfo | null;
  /** Protocol facts a check may want (e.g. ssh kex list, ftp features). */
  extra: Record<string, string>;
}

/** Everything known about one address when the checks run. */
export interface HostFacts {
  address: string;
  openPorts: number[];
  services: Service[];
  /** CA certificates (PEM) the audit trusts besides Node's bundled roots (serve --audit-ca; RunOptions). */
  caCertificates?: readonly string[];
}

/** What a check found, on one port. */
export interface Finding {
  port: number;
  /** The dynamic part of the description: what was seen. */
  detail: string;
  /** Overrides for table-driven checks (version → CVE rows). */
  cves?: string[];
  risk?: Risk;
  title?: string;
  /** Quality of detection (0–100, as OpenVAS has it) when this finding differs from its check's. */
  qod?: number;
  /** Entry type when it differs from the check's (e.g. a lesser sighting reported as LOG). */
  type?: EntryType;
  /** The fix when it differs from the check's (e.g. "upgrade to 2.4.62 or later" for the version seen). */
  solution?: string;
}

/** Network access a check is given: only the audited address, only through the fence. */
export interface Net {
  readonly address: string;
  /**
   * `localPort`: the source port to bind (rlogind and rshd drop a client whose port is not 512-1023, RFC 1282;
   * binding one needs root or CAP_NET_BIND_SERVICE, else EACCES).
   */
  connect(port: number, opts?: { timeoutMs?: number; localPort?: number }): Promise<Socket>;
  connectTls(
    port: number,
    opts?: { timeoutMs?: number; servername?: string; minVersion?: string; maxVersion?: string; ciphers?: string },
  ): Promise<TLSSocket>;
  /**
   * One UDP request, the first reply or null on timeout. `anyPort`: take the reply from any port of the
   * address (TFTP answers from a new one, RFC 1350 §4). `answer`: a reply it returns a packet for is answered
   * with that packet, to the port the reply came from, and the wait goes on (a TFTP transfer's next step);
   * the first reply it returns null for ends the wait.
   */
  udpRequest(
    port: number,
    payload: Buffer,
    opts?: { timeoutMs?: number; anyPort?: boolean; answer?: (reply: Buffer) => Buffer | null },
  ): Promise<Buffer | null>;
}

/**
 * The report family of a check: the entry's `cat` field and the
 * `riskcatgrid` key (spec §2.3). A closed list, so a typo cannot make a new
 * report category.
 */
export type Family =
  | 'Web Servers'
  | 'SSL/TLS'
  | 'Remote Access'
  | 'Mail'
  | 'FTP'
  | 'Databases'
  | 'DNS'
  | 'Windows'
  | 'Denial of Service'
  | 'General';

/**
 * A check's class, which audit types run it (profiles.ts, docs/audit-checks.md):
 * - `safe`: sends only what an ordinary client sends and changes nothing;
 *   one login the product documents as its default (anonymous FTP, an
 *   anonymous LDAP bind, an SMB guest session, a superuser with an empty
 *   password) counts as safe. norisk and up.
 * - `intrusive`: changes state on the target even when it cleans up (a
 *   PUT, an FTP STOR, an SNMP set), or guesses passwords. advanced only.
 * - `dos`: measures susceptibility to a denial of service (amplification
 *   ratios, slow requests, renegotiation), a few packets at most.
 *   standard and advanced, never with `excludedos`.
 */
export type CheckClass = 'safe' | 'intrusive' | 'dos';

/**
 * What else a check is, after its class (nmap NSE's script categories,
 * https://nmap.org/book/nse-usage.html#nse-categories, plus two of Vigil's):
 * - `default`, `version`, `auth`, `vuln`, `discovery`, `brute`, `exploit`,
 *   `external`: as NSE means them (`external`: contacts hosts other than the target; no Vigil check does);
 * - `passive`: opens no connection, reads only what detection saw (`basic`
 *   audits run only these; QoD 80 unless set);
 * - `desktop`: a workstation service (SMB, RDP, VNC, X11): `desktop` audits run it.
 */
export type CheckTag =
  | 'default'
  | 'version'
  | 'auth'
  | 'vuln'
  | 'discovery'
  | 'brute'
  | 'exploit'
  | 'external'
  | 'passive'
  | 'desktop';

/** The class first, exactly once, then any tags. */
export type Categories = readonly [CheckClass, ...CheckTag[]];

/**
 * Which ports a check runs on, declared, applied by the engine (port-rule.ts),
 * after nmap's `shortport.port_or_service`. A port matches when any part does.
 */
export interface PortRule {
  /** Service names as detection gives them (nmap's): a port so named matches. */
  readonly services?: readonly string[];
  /** Usual ports: open and not named something else by detection (unknown, or one of `services`). */
  readonly ports?: readonly number[];
  /** Further services by what detection saw on them (speaks HTTP, speaks TLS …). */
  readonly where?: (s: Service) => boolean;
  /** Keeps only ports with (true) or without (false) implicit TLS as detection saw them. */
  readonly tls?: boolean;
  /** UDP ports, tried whatever the TCP scan found (the port scan is TCP only). */
  readonly udp?: readonly number[];
  /** The matched TCP ports are probed over UDP instead (a DNS server serves both on one port). */
  readonly via?: 'udp';
  /** At most this many TCP ports, the lowest first: a bound on what one slow check costs a host. */
  readonly max?: number;
  /** Tried only when the rest of the rule matches nothing (SMB: port 139 when there is no 445). */
  readonly fallback?: PortRule;
  /** Once per host (port 0), for checks that look at the whole host (nmap's hostrule). */
  readonly host?: true;
}

/** What one run of a check is given: one port of one host, and the fenced network. */
export interface Target {
  readonly host: HostFacts;
  readonly net: Net;
  readonly port: number;
  readonly protocol: 'tcp' | 'udp';
  /** What detection found on the port (null on UDP, for a host rule, or a port detection left out). */
  readonly service: Service | null;
}

/** A finding from one target; without `port`, the target's. */
export type Found = Omit<Finding, 'port'> & { port?: number };
/** What a check's run returns: nothing, a detail (one finding on the target's port), or findings. */
export type Outcome = null | undefined | string | Found | readonly Found[];

/** A check as the engine holds it: its declaration (checks/kit.ts defineCheck), and runOn. */
export interface Check {
  readonly id: string;
  readonly shortid: string;
  readonly title: string;
  readonly family: Family;
  readonly categories: Categories;
  readonly risk: Risk;
  readonly cves: readonly string[];
  readonly type: EntryType;
  readonly description: string;
  /**
   * What to do about a finding: one or two sentences saying what to change
   * and where (the setting, the file), shown as the report's "Solution:"
   * line. The description says what is wrong and why; it does not repeat
   * the fix. A finding may give a more precise one (Finding.solution).
   */
  readonly solution: string;
  /** URLs beyond the CVEs' own (an advisory, the RFC): the report's "References:" line. */
  readonly references: readonly string[];
  /**
   * Quality of detection (0–100, as OpenVAS has it): 99 an active
   * confirmation, 80 a remote banner, 30 a version that distributions
   * backport. Unset: 80 for a passive check, 99 otherwise (qod.ts).
   */
  readonly qod?: number;
  readonly ports: PortRule;
  /** The port rule applied to the host, the check run on each matching port in turn. */
  runOn(host: HostFacts, net: Net): Promise<Finding[]>;
}
