/**
 * XMPP client streams (RFC 6120): the stream header, the features the
 * server announces (§4.3.2), STARTTLS (§5.4.2), SASL (§6.4) and resource
 * binding (§7), and the in-band registration query (XEP-0077 §3.1). What
 * detection and the XMPP checks share; every socket comes from the fence's
 * Net, every read is bounded by Conv.
 *
 * The stream names a domain (`to`, §4.7.2), and a server that does not host
 * it ends the stream with <host-unknown/> (§4.9.3.6). The address is tried
 * first, then the `from` the server answered with, then "localhost", the
 * VirtualHost/host the packaged configurations of Prosody and ejabberd
 * ship (Debian's prosody.cfg.lua, ejabberd.yml).
 */
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Net, Service } from '../engine/types.ts';
import { Conv } from './conv.ts';

export const XMPP_TLS = 'urn:ietf:params:xml:ns:xmpp-tls';
const esc = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export const streamHeader = (domain: string) =>
  `<?xml version='1.0'?><stream:stream to='${esc(domain)}' version='1.0' xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>`;

/** What a stream's opening brought: the server's header, its features, or the error it ended with. */
export interface StreamStart {
  /** The server's <stream:stream …> tag. */
  header: string | null;
  /** The <stream:features> element (empty string: none came). */
  features: string;
  /** The stream error's condition (§4.9.3), e.g. host-unknown. */
  error: string | null;
}

const FEATURES = /<stream:features\b[^>]*\/>|<stream:features\b[\s\S]*?<\/stream:features>/;
const ENDED = /<\/stream:stream>|<stream:error>[\s\S]*?<\/stream:error>/;

export function parseStart(text: string): StreamStart {
  return {
    header: /<stream:stream\b[^>]*>/.exec(text)?.[0] ?? null,
    features: FEATURES.exec(text)?.[0] ?? '',
    error: /<stream:error>\s*<([\w-]+)/.exec(text)?.[1] ?? null,
  };
}

/** The SASL mechanisms a features element offers (§6.3.3). */
export const mechanisms = (features: string) =>
  [...features.matchAll(/<mechanism>\s*([^<\s]+)\s*<\/mechanism>/g)].map((m) => m[1]!.toUpperCase());
export const offersStarttls = (features: string) => new RegExp(`<starttls\\b[^>]*${XMPP_TLS}`).test(features);
/** <required/> inside <starttls> (§5.4.1): no other feature before TLS. */
export const requiresStarttls = (features: string) => /<starttls\b[^>]*>\s*<required\s*\/>/.test(features);

const attr = (tag: string | null, name: string) =>
  tag ? new RegExp(`\\s${name}=['"]([^'"]*)['"]`).exec(tag)?.[1] : undefined;

/** One XMPP client stream on one connection, plain or after STARTTLS. */
export class XmppSession {
  tls = false;
  private constructor(
    private conv: Conv,
    readonly domain: string,
  ) {}

  static async open(net: Net, port: number, domain: string): Promise<[XmppSession, StreamStart] | null> {
    let s: XmppSession | null = null;
    try {
      s = new XmppSession(new Conv(await net.connect(port, { timeoutMs: 3000 }), 4000), domain);
      const start = await s.restart();
      if (!start.header) throw new Error('not XMPP');
      return [s, start];
    } catch {
      s?.close();
      return null;
    }
  }

  /** Sends the stream header (again, after STARTTLS or SASL success: §5.4.3.3, §6.4.6) and reads the features. */
  async restart(): Promise<StreamStart> {
    const r = await this.conv.ask(streamHeader(this.domain), 4000, (b) => {
      const t = b.toString('utf8');
      return FEATURES.test(t) || ENDED.test(t);
    });
    return parseStart(r.toString('utf8'));
  }

  /** Sends a stanza or nonza and reads until `done` holds on the reply (or the stream ends). */
  async ask(xml: string, done: RegExp): Promise<string> {
    const r = await this.conv.ask(xml, 4000, (b) => {
      const t = b.toString('utf8');
      return done.test(t) || ENDED.test(t);
    });
    return r.toString('utf8');
  }

  /** STARTTLS (§5.4.2): <proceed/>, then the TLS handshake on the same connection; false on a refusal. */
  async starttls(): Promise<boolean> {
    const r = await this.ask(`<starttls xmlns='${XMPP_TLS}'/>`, /<proceed\b|<failure\b/);
    if (!/<proceed\b/.test(r)) return false;
    const raw: Socket = this.conv.socket;
    raw.removeAllListeners('data');
    const tls = await new Promise<Socket | null>((resolve) => {
      const t = tlsConnect({ socket: raw, rejectUnauthorized: false, servername: sni(this.domain) });
      const timer = setTimeout(() => (t.destroy(), resolve(null)), 4000);
      t.once('secureConnect', () => (clearTimeout(timer), resolve(t)));
      t.once('error', () => (clearTimeout(timer), t.destroy(), resolve(null)));
    });
    if (!tls) return false;
    this.conv = new Conv(tls, 4000);
    this.tls = true;
    return true;
  }

  close(): void {
    this.conv.send('</stream:stream>');
    this.conv.close();
  }
}

/** SNI takes a host name only (RFC 6066 §3), never an address literal. */
const sni = (domain: string) => (/^[\d.]+$|:/.test(domain) ? undefined : domain);

/** The domains to try on a server, in order (see the file's comment). */
export const domainsFor = (net: Net, service: Service | null) => [
  ...new Set([service?.extra.xmppDomain, net.address, 'localhost'].filter((d): d is string => !!d)),
];

/**
 * A client stream to the first domain the server hosts, STARTTLS done first when `tls` and the server
 * offers it; `steps` runs on it, and the stream is always closed. Null when no domain opens or on any
 * failure.
 */
export async function withXmpp<T>(
  net: Net,
  port: number,
  service: Service | null,
  tls: boolean,
  steps: (s: XmppSession, features: string) => Promise<T | null>,
): Promise<T | null> {
  const tried = new Set<string>();
  const todo = domainsFor(net, service);
  while (todo.length) {
    const domain = todo.shift()!;
    if (tried.has(domain) || tried.size >= 3) continue;
    tried.add(domain);
    const opened = await XmppSession.open(net, port, domain);
    if (!opened) return null; // not XMPP, or gone: no other domain will do better
    const [s, start] = opened;
    try {
      if (start.error === 'host-unknown') {
        const from = attr(start.header, 'from');
        if (from && !tried.has(from)) todo.unshift(from);
        continue;
      }
      if (start.error) return null;
      let features = start.features;
      if (tls && offersStarttls(features)) {
        if (!(await s.starttls())) return null;
        features = (await s.restart()).features;
      }
      return await steps(s, features).catch(() => null);
    } finally {
      s.close();
    }
  }
  return null;
}

/** The domain the server accepted a stream for, for detection to record (Service.extra.xmppDomain). */
export async function xmppDomain(net: Net, port: number): Promise<string | null> {
  return withXmpp(net, port, null, false, async (s) => s.domain);
}

/** SASL ANONYMOUS (RFC 4505) then resource binding (RFC 6120 §7.6): the JID the server bound, or null. */
export async function anonymousJid(s: XmppSession): Promise<{ reply: string; jid: string } | null> {
  const auth = await s.ask(
    "<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='ANONYMOUS'>dmlnaWw=</auth>",
    /<success\b[\s\S]*?(\/>|<\/success>)|<failure\b[\s\S]*?<\/failure>/,
  );
  const success = /<success\b[^>]*(\/>|>[\s\S]*?<\/success>)/.exec(auth)?.[0];
  if (!success) return null;
  const after = await s.restart();
  if (!/urn:ietf:params:xml:ns:xmpp-bind/.test(after.features)) return null;
  const bound = await s.ask(
    "<iq type='set' id='vigil-bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>",
    /<\/iq>|<iq\b[^>]*\/>/,
  );
  const jid = /<iq\b[^>]*type=['"]result['"][\s\S]*?<jid>([^<]+)<\/jid>/.exec(bound)?.[1];
  return jid ? { reply: success, jid } : null;
}

/**
 * The registration form (XEP-0077 §3.1: an iq get of jabber:iq:register before logging in), when the
 * server answers it with the fields to fill in; nothing is submitted.
 */
export async function registrationForm(s: XmppSession): Promise<string[] | null> {
  const r = await s.ask(
    `<iq type='get' id='vigil-reg' to='${esc(s.domain)}'><query xmlns='jabber:iq:register'/></iq>`,
    /<\/iq>|<iq\b[^>]*\/>/,
  );
  const iq = /<iq\b[^>]*type=['"]result['"][^>]*>[\s\S]*?<\/iq>/.exec(r)?.[0];
  const query = iq && /<query\b[^>]*jabber:iq:register[\s\S]*?<\/query>/.exec(iq)?.[0];
  if (!query || /<registered\s*\/>/.test(query)) return null;
  // Plain fields (<username/>, <password/>) or a data form's fields (XEP-0004 <field var='…'>).
  const plain = [...query.matchAll(/<(username|password|email|name)\s*\/>/g)].map((m) => m[1]!);
  const form = [...query.matchAll(/<field\b[^>]*var=['"]([^'"]+)['"]/g)]
    .map((m) => m[1]!)
    .filter((v) => v !== 'FORM_TYPE');
  const fields = [...new Set([...plain, ...form])];
  return fields.includes('username') || fields.includes('password') ? fields : null;
}
