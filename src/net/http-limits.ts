import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import {
  type ConnectionCap,
  capConnections,
  DESCRIPTOR_SHARES,
  defaultTotalCap,
  type ListenerName,
} from './connection-cap.ts';

/**
 * The slow-client limits every HTTP listener takes from the configuration:
 * the API's two, the forwarder and the metrics listener (issue 28: the
 * forwarder had none, and 150 slow connections from one address stayed open).
 */
export type TransportLimits = Pick<Config, 'requestTimeoutMs' | 'maxConnectionsPerIp'>;

/**
 * Node's default (16 KiB), stated so that it is a decision: the API's
 * requests carry a handful of short headers; everything is in the body.
 */
export const MAX_HEADER_BYTES = 16 * 1024;
/**
 * Idle time between requests on a kept-alive connection. Fastify's default
 * is 72 s (meant for a load balancer in front); Vigil faces clients
 * directly, and every idle connection holds a descriptor and one of its
 * address's slots. Node's own default.
 */
export const KEEP_ALIVE_MS = 5_000;

/**
 * Node server options for one request budget: the TLS handshake, the
 * headers and the body must each arrive within `requestTimeoutMs` (headers
 * and body together too). Node checks its request deadlines only every
 * `connectionsCheckingInterval` (30 s by default, so a 1 s timeout could
 * take 31 s); a quarter of the budget, at most 1 s, keeps them close.
 */
export function serverOptions(limits: TransportLimits) {
  const budget = limits.requestTimeoutMs;
  return {
    requestTimeout: budget,
    headersTimeout: budget,
    handshakeTimeout: budget,
    keepAliveTimeout: KEEP_ALIVE_MS,
    maxHeaderSize: MAX_HEADER_BYTES,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(budget / 4))),
  };
}

/**
 * Per-address and total connection caps on an HTTP(S) listener; at the
 * total the connection longest without being served is shed (src/net/
 * connection-cap.ts). A connection may be shed unless the server is working
 * on one of its requests: one that arrived whole and is not answered yet.
 * Idle keep-alive connections and ones still sending their request (the
 * slowloris kind, however they trickle) may go; a client whose call takes
 * time on the server is never cut off for a newcomer.
 *
 * An HTTPS request's socket is the TLS socket, not the raw TCP socket the
 * cap counts; both have the same peer address and port, which name the
 * connection here.
 */
export function capHttpConnections(
  server: HttpServer,
  limits: TransportLimits,
  logger: Logger,
  name: ListenerName,
): ConnectionCap {
  const id = (s: Socket) => `${s.remoteAddress}|${s.remotePort}`;
  type Conn = { raw: Socket; requests: Set<IncomingMessage> };
  const conns = new Map<string, Conn>();
  const cap = capConnections(server, {
    perAddress: limits.maxConnectionsPerIp,
    total: defaultTotalCap(DESCRIPTOR_SHARES[name]),
    logger,
    name,
    shed: (raw) => {
      const c = conns.get(id(raw));
      return !c || [...c.requests].every((req) => !req.complete);
    },
  });
  // After the cap's own listener, which may have refused the connection.
  server.on('connection', (raw: Socket) => {
    if (raw.destroyed) return;
    const key = id(raw);
    conns.set(key, { raw, requests: new Set() });
    raw.once('close', () => conns.delete(key));
  });
  // A kept-alive connection's later requests find it without building its name again.
  const bySocket = new WeakMap<Socket, Conn>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let c = bySocket.get(req.socket);
    if (!c) {
      c = conns.get(id(req.socket));
      if (!c) return;
      bySocket.set(req.socket, c);
    }
    const conn = c;
    conn.requests.add(req);
    res.once('close', () => {
      conn.requests.delete(req);
      cap.served(conn.raw);
    });
  });
  return cap;
}
