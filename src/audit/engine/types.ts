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
  connect(port: number, opts?: { timeoutMs?: number }): Promise<Socket>;
  connectTls(
    port: number,
    opts?: { timeoutMs?: number; servername?: string; minVersion?: string; maxVersion?: string; ciphers?: string },
  ): Promise<TLSSocket>;
  /**
   * One UDP request, the first reply or null on timeout. `anyPort`: take the reply from any port of the
   * address (TFTP answers from a new one, RFC 1350 §4).
   */
  udpRequest(port: number, payload: Buffer, opts?: { timeoutMs?: number; anyPort?: boolean }): Promise<Buffer | null>;
}

export interface Check {
  readonly id: string;
  readonly shortid: string;
  readonly title: string;
  /**
   * Report category, e.g. 'Web Servers', 'SSL/TLS', 'Remote Access', 'Mail', 'FTP', 'Databases', 'DNS',
   * 'Windows', 'Denial of Service', 'General'.
   */
  readonly category: string;
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
  /**
   * The check's class, which audit types run it (profiles.ts, docs/audit-checks.md):
   * - `safe` (neither flag): sends only what an ordinary client sends and
   *   changes nothing; one login the product documents as its default
   *   (anonymous FTP, an anonymous LDAP bind, an SMB guest session, a
   *   superuser with an empty password) counts as safe. norisk and up.
   * - `intrusive`: changes state on the target even when it cleans up (a
   *   PUT, an FTP STOR, an SNMP set), or guesses passwords. advanced only.
   * - `dos`: measures susceptibility to a denial of service (amplification
   *   ratios, slow requests, renegotiation), a few packets at most.
   *   standard and advanced, never with `excludedos`.
   * A check is in one class: never both flags.
   */
  readonly intrusive: boolean;
  readonly dos: boolean;
  /**
   * Opens connections of its own (false: it only reads HostFacts, e.g. a
   * version table lookup). `basic` audits run only passive checks;
   * profiles.ts applies the intrusive/dos rules of each audit type.
   */
  readonly active: boolean;
  /** Desktop-audit checks (SMB, RDP, VNC, NetBIOS …): run by `desktop`, `standard`, `advanced`. */
  readonly desktop?: boolean;
  /**
   * Quality of detection (0–100, as OpenVAS has it): 99 an active
   * confirmation, 80 a remote banner, 30 a version that distributions
   * backport. Unset: the engine derives it from `active`.
   */
  readonly qod?: number;
  run(host: HostFacts, net: Net): Promise<Finding[]>;
}
