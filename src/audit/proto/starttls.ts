import type { Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import type { Net, Service } from '../engine/types.ts';
import { mysqlSslRequest } from './mysql.ts';
import { offersStarttls, streamHeader, XMPP_TLS } from './xmpp.ts';

/**
 * STARTTLS: the plaintext preamble that turns a mail, chat (XMPP), FTP, database (PostgreSQL, MySQL) or
 * directory connection into a TLS one, so that the same certificate,
 * protocol and cipher checks run on these ports as on implicit-TLS ones.
 * One table, one row per protocol, each quoting the RFC that defines the
 * upgrade. The socket always comes from the fence's Net.
 */

/** A line-oriented plaintext conversation, bounded in time and bytes. */
export class Dialog {
  private buf = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  closed = false;

  constructor(readonly socket: Socket) {
    socket.on('data', (c: Buffer) => {
      this.buf = Buffer.concat([this.buf, c]).subarray(-65536);
      this.waiter?.();
    });
    const end = () => ((this.closed = true), this.waiter?.());
    socket.on('close', end);
    socket.on('error', end);
  }

  static async open(net: Net, port: number, timeoutMs = 4000): Promise<Dialog | null> {
    return net.connect(port, { timeoutMs }).then(
      (s) => new Dialog(s),
      () => null,
    );
  }

  /** Everything received until `done` holds on it (or the time is up); the buffer is then emptied. */
  async until(done: (text: string) => boolean, ms = 3000): Promise<string> {
    const deadline = Date.now() + ms;
    while (!done(this.buf.toString('latin1')) && !this.closed && Date.now() < deadline) {
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.max(1, deadline - Date.now()));
        this.waiter = () => (clearTimeout(t), r());
      });
      this.waiter = null;
    }
    const text = this.buf.toString('latin1');
    this.buf = Buffer.alloc(0);
    return text;
  }

  async ask(line: string | Buffer, done: (text: string) => boolean, ms = 3000): Promise<string> {
    if (this.closed) return '';
    this.socket.write(line);
    return this.until(done, ms);
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Reply complete: a final "NNN " line (SMTP, FTP: RFC 5321 §4.2.1, RFC 959 §4.2). */
export const finalReply = (code: string) => (t: string) =>
  new RegExp(`^${code}[0-9]{0,2} `, 'm').test(t) || /^[45]\d\d /m.test(t);
const lineDone = (t: string) => /\r?\n/.test(t);

interface Upgrade {
  /** Service names (nmap style) that speak this protocol. */
  names: readonly string[];
  /** Plaintext preamble up to the point where TLS starts; false when the server refuses. */
  start(d: Dialog, svc: Service): Promise<boolean>;
}

/** LDAP ExtendedRequest for StartTLS (RFC 4511 §4.14.1, OID 1.3.6.1.4.1.1466.20037), messageID 1. */
const LDAP_STARTTLS = Buffer.concat([
  Buffer.from([0x30, 0x1d, 0x02, 0x01, 0x01, 0x77, 0x18, 0x80, 0x16]),
  Buffer.from('1.3.6.1.4.1.1466.20037'),
]);

/** ExtendedResponse [APPLICATION 24] (0x78) whose resultCode (ENUMERATED) is success (0). */
export function ldapSuccess(b: Buffer): boolean | null {
  const i = b.indexOf(0x78);
  if (i < 0 || b.length < i + 5) return null;
  const j = b.indexOf(0x0a, i);
  return j >= 0 && j + 2 < b.length && b[j + 1] === 1 ? b[j + 2] === 0 : null;
}

export const UPGRADES: Record<string, Upgrade> = {
  // RFC 3207: EHLO, the STARTTLS keyword in the reply, "220 Ready to start TLS".
  smtp: {
    names: ['smtp', 'submission'],
    async start(d) {
      if (!/^220/m.test(await d.until(finalReply('220')))) return false;
      if (!/^250[ -]STARTTLS\b/im.test(await d.ask('EHLO vigil.invalid\r\n', finalReply('250')))) return false;
      return /^220/.test(await d.ask('STARTTLS\r\n', finalReply('220')));
    },
  },
  // RFC 3501 §6.2.1: "a STARTTLS" answered "a OK".
  imap: {
    names: ['imap'],
    async start(d) {
      if (!/^\* OK/i.test(await d.until(lineDone))) return false;
      return /^v1 OK/im.test(await d.ask('v1 STARTTLS\r\n', (t) => /^v1 /m.test(t)));
    },
  },
  // RFC 2595 §4: STLS answered +OK.
  pop3: {
    names: ['pop3'],
    async start(d) {
      if (!/^\+OK/.test(await d.until(lineDone))) return false;
      return /^\+OK/.test(await d.ask('STLS\r\n', lineDone));
    },
  },
  // RFC 4217 §4: AUTH TLS answered 234.
  ftp: {
    names: ['ftp'],
    async start(d) {
      if (!/^220 /m.test(await d.until(finalReply('220')))) return false;
      return /^234/m.test(await d.ask('AUTH TLS\r\n', finalReply('234')));
    },
  },
  // PostgreSQL protocol, "SSL Session Encryption": SSLRequest (length 8, code 80877103), one byte 'S' or 'N'.
  postgresql: {
    names: ['postgresql'],
    async start(d) {
      d.socket.write(Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]));
      const r = await d.until((t) => t.length >= 1, 3000);
      return r === 'S';
    },
  },
  // MySQL/MariaDB: the greeting offers CLIENT_SSL, the client sends an SSLRequest, then the TLS handshake.
  mysql: {
    names: ['mysql'],
    async start(d) {
      const len = (t: string) =>
        t.length >= 4 ? 4 + Buffer.from(t, 'latin1').readUIntLE(0, 3) : Number.POSITIVE_INFINITY;
      const request = mysqlSslRequest(Buffer.from(await d.until((t) => t.length >= len(t)), 'latin1'));
      if (!request) return false;
      d.socket.write(request);
      return true;
    },
  },
  ldap: {
    names: ['ldap'],
    async start(d) {
      d.socket.write(LDAP_STARTTLS);
      let ok: boolean | null = null;
      await d.until((t) => (ok = ldapSuccess(Buffer.from(t, 'latin1'))) !== null, 3000);
      return ok === true;
    },
  },
  // RFC 6120 §5.4.2: the stream header, <starttls/> among the features, <proceed/>. The stream names the
  // domain detection found the server hosting (proto/xmpp.ts), else the address.
  xmpp: {
    names: ['xmpp-client', 'xmpp', 'jabber'],
    async start(d, svc) {
      const domain = svc.extra.xmppDomain ?? d.socket.remoteAddress ?? 'localhost';
      const features = await d.ask(streamHeader(domain), (t) => /<\/stream:features>|<\/stream:stream>/.test(t));
      if (!offersStarttls(features)) return false;
      return /<proceed\b/.test(await d.ask(`<starttls xmlns='${XMPP_TLS}'/>`, (t) => /<proceed\b|<failure\b/.test(t)));
    },
  },
};

/** The STARTTLS protocol a service speaks, if any (never for a port that is already TLS). */
export function upgradeFor(svc: Service): Upgrade | null {
  if (svc.tls) return null;
  return Object.values(UPGRADES).find((u) => u.names.includes(svc.name)) ?? null;
}

/** A plaintext connection taken up to the TLS handshake; null when the service offers no STARTTLS. */
export async function startPlain(net: Net, svc: Service, timeoutMs = 4000): Promise<Socket | null> {
  const up = upgradeFor(svc);
  if (!up) return null;
  const d = await Dialog.open(net, svc.port, timeoutMs);
  if (!d) return null;
  const ok = await up.start(d, svc).catch(() => false);
  if (!ok || d.closed) {
    d.close();
    return null;
  }
  d.socket.removeAllListeners('data');
  return d.socket;
}

/** A TLS session after STARTTLS, with node's TLS client; null on any failure. */
export async function startTls(
  net: Net,
  svc: Service,
  opts: Omit<ConnectionOptions, 'socket'> = {},
  timeoutMs = 4000,
): Promise<TLSSocket | null> {
  const socket = await startPlain(net, svc, timeoutMs);
  if (!socket) return null;
  return new Promise((resolve) => {
    const tls = tlsConnect({ rejectUnauthorized: false, ...opts, socket });
    const timer = setTimeout(() => (tls.destroy(), resolve(null)), timeoutMs);
    tls.once('secureConnect', () => (clearTimeout(timer), resolve(tls)));
    tls.once('error', () => (clearTimeout(timer), tls.destroy(), socket.destroy(), resolve(null)));
  });
}

/**
 * A TLS session on a service the way it speaks TLS: implicit (a handshake at once) or after its STARTTLS
 * preamble; null when either fails. What a check that needs its own handshake (other options than the
 * shared one) opens.
 */
export async function tlsSession(
  net: Net,
  svc: Service,
  starttls: boolean,
  opts: Omit<ConnectionOptions, 'socket'>,
  timeoutMs = 4000,
): Promise<TLSSocket | null> {
  try {
    return starttls
      ? await startTls(net, svc, opts, timeoutMs)
      : await net.connectTls(svc.port, { timeoutMs, ...(opts as Parameters<Net['connectTls']>[1]) });
  } catch {
    return null;
  }
}

/** One plaintext Dialog on a fresh connection, always closed; null on any failure. */
export async function withDialog<T>(
  net: Net,
  port: number,
  steps: (d: Dialog) => Promise<T | null>,
): Promise<T | null> {
  const d = await Dialog.open(net, port);
  if (!d) return null;
  try {
    return await steps(d).catch(() => null);
  } finally {
    d.close();
  }
}
