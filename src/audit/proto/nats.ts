/**
 * NATS client protocol (https://docs.nats.io/reference/reference-protocols/nats-protocol):
 * the server speaks first with `INFO {json}`; a client answers `CONNECT
 * {json}` and `PING`, and the server says `PONG` once the connection is
 * accepted, or `-ERR 'Authorization Violation'` and closes. Nothing is
 * subscribed or published.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

export interface NatsInfo {
  /** The INFO line as sent, without its CRLF. */
  line: string;
  version: string | null;
  serverName: string | null;
  /** INFO's auth_required (absent means false). */
  authRequired: boolean;
  /** INFO's tls_required. */
  tlsRequired: boolean;
}

/** The INFO greeting, or null when `b` does not start with one. */
export function parseInfo(b: Buffer): NatsInfo | null {
  const m = /^INFO\s+(\{.*\})\s*\r?\n/.exec(b.toString('utf8'));
  if (!m) return null;
  let info: Record<string, unknown>;
  try {
    info = JSON.parse(m[1]!) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof info.server_id !== 'string') return null;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    line: m[0].trim(),
    version: str(info.version),
    serverName: str(info.server_name),
    authRequired: info.auth_required === true,
    tlsRequired: info.tls_required === true,
  };
}

/** The CONNECT we send: no user, password, token or nkey; verbose off, so only PONG or -ERR comes back. */
export const NATS_CONNECT = 'CONNECT {"verbose":false,"pedantic":false,"name":"vigil","lang":"vigil","version":"1"}';

/** INFO, then CONNECT without credentials and PING: the first line of the answer (PONG, -ERR …). */
export function natsConnect(net: Net, port: number): Promise<{ info: NatsInfo; answer: string } | null> {
  return talk(net, port, async (c) => {
    const info = parseInfo(await c.read(3000, (b) => b.includes(10)));
    if (!info || info.tlsRequired) return null;
    const r = await c.ask(`${NATS_CONNECT}\r\nPING\r\n`, 3000, (b) => /^(PONG|-ERR[^\n]*)\r?\n/m.test(b.toString()));
    const answer = /^(PONG|-ERR[^\r\n]*)/m.exec(r.toString('utf8'))?.[1] ?? '';
    return { info, answer };
  });
}
