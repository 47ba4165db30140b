/**
 * SIP (RFC 3261) for the VoIP checks: one request over UDP or TCP and its
 * first final-or-provisional response, and a relay canary, a UDP listener
 * of the scanner's own that a proxy is asked to forward a request to (the
 * proof of an open proxy is the request arriving there, as for HTTP
 * proxies in proxy.ts). Requests carry `rport` (RFC 3581) so that the
 * answer comes back to the port they were sent from.
 */
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import type { Net } from '../engine/types.ts';
import { talk, udpAsk } from './talk.ts';

export interface SipResponse {
  status: number;
  /** The status line as sent. */
  line: string;
  /** Lower-cased names, compact forms expanded (RFC 3261 §7.3.3); repeated headers joined with ', '. */
  headers: Record<string, string>;
}

const rand = () => randomBytes(6).toString('hex');
const hostPort = (host: string, port?: number) => `${host.includes(':') ? `[${host}]` : host}${port ? `:${port}` : ''}`;

export interface SipRequest {
  method: 'OPTIONS' | 'REGISTER';
  /** Request-URI. */
  uri: string;
  transport: 'UDP' | 'TCP';
  /** From's URI (the domain a proxy judges "local" by). */
  from: string;
  to?: string;
  callId?: string;
  /** Further header lines ("Contact: *", "Expires: 0"). */
  headers?: readonly string[];
}

/** The request's text: the headers RFC 3261 §8.1.1 requires, Max-Forwards 5, no body. */
export function sipRequest(r: SipRequest): { text: string; callId: string } {
  const callId = r.callId ?? `${rand()}@vigil.invalid`;
  const text = [
    `${r.method} ${r.uri} SIP/2.0`,
    `Via: SIP/2.0/${r.transport} vigil.invalid;branch=z9hG4bK${rand()};rport`,
    'Max-Forwards: 5',
    `From: <${r.from}>;tag=${rand()}`,
    `To: <${r.to ?? r.uri}>`,
    `Call-ID: ${callId}`,
    `CSeq: 1 ${r.method}`,
    'Accept: application/sdp',
    'User-Agent: Vigil-Audit',
    ...(r.headers ?? []),
    'Content-Length: 0',
    '',
    '',
  ].join('\r\n');
  return { text, callId };
}

const COMPACT: Record<string, string> = {
  v: 'via',
  f: 'from',
  t: 'to',
  i: 'call-id',
  l: 'content-length',
  m: 'contact',
};

export function parseSip(data: Buffer | string): SipResponse | null {
  const text = typeof data === 'string' ? data : data.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const lines = text.slice(0, end < 0 ? text.length : end).split('\r\n');
  const m = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(lines[0] ?? '');
  if (!m) return null;
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i <= 0) continue;
    const raw = l.slice(0, i).trim().toLowerCase();
    const k = COMPACT[raw] ?? raw;
    const v = l.slice(i + 1).trim();
    headers[k] = headers[k] ? `${headers[k]}, ${v}` : v;
  }
  return { status: Number(m[1]), line: lines[0]!.slice(0, 100), headers };
}

/** A whole response on a stream: the head and Content-Length bytes of body (RFC 3261 §18.3). */
const complete = (b: Buffer) => {
  const t = b.toString('latin1');
  const end = t.indexOf('\r\n\r\n');
  if (end < 0) return b.length >= 8 && !t.startsWith('SIP/2.0'); // not SIP: stop at once
  const cl = /\r\n(?:content-length|l)\s*:\s*(\d+)/i.exec(t.slice(0, end));
  return t.length - end - 4 >= Number(cl?.[1] ?? 0);
};

/**
 * One request to the target over UDP or TCP; its first final response (provisional 1xx ones are
 * skipped on TCP; on UDP the first datagram is taken), or null.
 */
export async function sipAsk(net: Net, port: number, udp: boolean, text: string): Promise<SipResponse | null> {
  if (udp) {
    const r = await udpAsk(net, port, Buffer.from(text, 'latin1'), { timeoutMs: 2000 });
    return r ? parseSip(r) : null;
  }
  return talk(net, port, async (c) => {
    let r = parseSip(await c.ask(text, 3000, complete));
    // 100 Trying may come first on a stream (RFC 3261 §17.2.1 sends it for INVITE only; some do for all).
    for (let i = 0; i < 3 && r && r.status < 200; i++) {
      c.take();
      r = parseSip(await c.read(3000, complete));
    }
    return r;
  });
}

export interface SipCanary {
  /** The URI a relayed request must reach: sip:<user>@<address>:<port>. */
  uri: string;
  /** Requests the canary received, as text (their Via lines name the proxies they crossed). */
  hits: { from: string; text: string }[];
}

/**
 * The scanner's own address toward the target, without sending anything: a UDP socket's connect()
 * only picks the route (no packet leaves).
 */
function localAddressToward(address: string): Promise<string | null> {
  return new Promise((resolve) => {
    const s = createSocket(address.includes(':') ? 'udp6' : 'udp4');
    s.once('error', () => (s.close(), resolve(null)));
    s.connect(9, address, () => {
      const a = s.address().address;
      s.close();
      resolve(a);
    });
  });
}

/**
 * Runs `probe` with a UDP listener of the scanner's own up for its duration: it answers a request for
 * its URI 200 OK (so that the proxy's transaction ends at once, RFC 3261 §17.1.2) and records it.
 */
export async function withSipCanary<T>(net: Net, probe: (c: SipCanary) => Promise<T>): Promise<T | null> {
  const local = await localAddressToward(net.address);
  if (!local) return null;
  const user = `vigil-relay-${rand()}`;
  const hits: SipCanary['hits'] = [];
  const sock: UdpSocket = createSocket(local.includes(':') ? 'udp6' : 'udp4');
  sock.on('error', () => {});
  sock.on('message', (msg, from) => {
    const text = msg.toString('latin1');
    if (!text.startsWith(`OPTIONS sip:${user}@`)) return;
    hits.push({ from: from.address, text });
    sock.send(Buffer.from(answerOk(text), 'latin1'), from.port, from.address);
  });
  try {
    await new Promise<void>((ok, fail) => (sock.once('error', fail), sock.bind(0, local, ok)));
    return await probe({ uri: `sip:${user}@${hostPort(local, sock.address().port)}`, hits });
  } catch {
    return null;
  } finally {
    sock.close();
  }
}

/** 200 OK to a request: its Via, From, To, Call-ID and CSeq copied (RFC 3261 §8.2.6.2). */
function answerOk(request: string): string {
  const head = request.split('\r\n\r\n')[0]!.split('\r\n').slice(1);
  const keep = head.filter((l) => /^(via|v|from|f|to|t|call-id|i|cseq)\s*:/i.test(l));
  return ['SIP/2.0 200 OK', ...keep, 'Content-Length: 0', '', ''].join('\r\n');
}

export const sipUri = (host: string, port?: number) => `sip:${hostPort(host, port)}`;
