import { readFileSync } from 'node:fs';
import type { Server, Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Logger } from 'pino';

/**
 * Who counts as one client for the per-address cap. An IPv4 address is
 * itself (also when it arrives IPv4-mapped on a `::` listener). An IPv6
 * client is its /64: one subscriber is routinely given a whole /64, so
 * counting single IPv6 addresses would let one host open 2^64 "clients".
 */
export function clientKey(address: string | undefined): string {
  if (!address) return '';
  try {
    let ip = ipaddr.parse(address);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    if (ip.kind() === 'ipv4') return ip.toString();
    const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
    return `${parts.map((p) => p.toString(16)).join(':')}::/64`;
  } catch {
    return address;
  }
}

/**
 * The share of the process's descriptor limit each listener may hold in
 * total. The issue-12 run filled every descriptor with 366 slow TLS
 * connections; issue 28's filled them through the forwarder. Together the
 * shares come to 13/16: the store, logs, DNS over UDP and outgoing traffic
 * keep at least 3/16 (192 at a soft limit of 1,024). The API and DNS over
 * TCP carry the service and get a quarter each; the plain-HTTP listener
 * (it only answers notSSL) and the forwarder an eighth; the metrics
 * listener, scraped by one or two collectors, a sixteenth. With
 * `--dns-workers N` DNS over TCP runs in the worker processes, each with
 * its own descriptors.
 */
export const DESCRIPTOR_SHARES = {
  https: 1 / 4,
  'dns-tcp': 1 / 4,
  http: 1 / 8,
  forward: 1 / 8,
  metrics: 1 / 16,
} as const;
export type ListenerName = keyof typeof DESCRIPTOR_SHARES;

/** The process's soft limit of open files (1,024 where it cannot be read). */
export function descriptorLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    if (Number.isFinite(soft) && soft > 0) return soft;
  } catch {
    // Not Linux: assume the common soft limit.
  }
  return 1024;
}

/**
 * Default total of open connections of one listener: its share of the
 * descriptor limit, at most 8192 (each idle TLS connection holds tens of
 * KB) and at least 16. The floor was 64 (one client's default per-address
 * cap) when three listeners shared the limit; with five, 64 each would
 * promise 320 descriptors at a limit of 400 and leave the process none:
 * the shares must hold at low limits too (the red team ran at 400).
 */
export function defaultTotalCap(share = 1 / 4): number {
  return Math.max(16, Math.min(8192, Math.floor(descriptorLimit() * share)));
}

export interface CapOptions {
  /** Open connections one client (clientKey) may hold on this listener. */
  perAddress: number;
  /** Open connections on this listener altogether (default: defaultTotalCap). */
  total?: number;
  /**
   * At the total, close the connection that has waited longest without being served, of those this says may
   * go, and take the new one (refused only when none may go). Without it a connection over the total is
   * refused.
   */
  shed?: (socket: Socket) => boolean;
  /**
   * Told once each time a client reaches its cap, and once each time the listener reaches its total (not once
   * per refused connection: that would let a flood flood the log too).
   */
  logger?: Logger;
  name?: string;
}

/**
 * Connections a listener's caps closed: refused at the per-address cap, refused at the total (nothing could
 * be shed), or shed (an older one closed to take a newer one). Counted per listener name in this process,
 * and as reported by its DNS worker processes; `vigil_connections_closed_total` (src/metrics-process.ts)
 * shows them, so an operator sees a flood the warn-once log lines only hint at (issue 28 left them uncounted).
 */
export interface CapClosed {
  address: number;
  total: number;
  shed: number;
}
const closedHere = new Map<string, CapClosed>();
const closedElsewhere = new Map<string, Map<string, CapClosed>>();

function tallyOf(name: string): CapClosed {
  let t = closedHere.get(name);
  if (!t) closedHere.set(name, (t = { address: 0, total: 0, shed: 0 }));
  return t;
}

/** This process's counts of one listener (a DNS worker sends its own to the main process). */
export function closedBy(name: string): CapClosed {
  return { ...tallyOf(name) };
}

/** The latest counts another process (`from`, e.g. a DNS worker's pid) reported for listener `name`. */
export function reportClosed(from: string, name: string, counts: CapClosed): void {
  let m = closedElsewhere.get(from);
  if (!m) closedElsewhere.set(from, (m = new Map()));
  m.set(name, { ...counts });
}

/** Listener name -> what its caps closed, this process's and its workers' added up. */
export function closedByListener(): Map<string, CapClosed> {
  const out = new Map<string, CapClosed>();
  for (const m of [closedHere, ...closedElsewhere.values()])
    for (const [name, c] of m) {
      const t = out.get(name) ?? { address: 0, total: 0, shed: 0 };
      out.set(name, { address: t.address + c.address, total: t.total + c.total, shed: t.shed + c.shed });
    }
  return out;
}

/** What a listener with `shed` tells the cap about its connections. */
export interface ConnectionCap {
  /** The connection was just served: it goes to the back of the line of connections to shed. */
  served(socket: Socket): void;
  /** Connections shed so far to take newer ones. */
  readonly shedCount: number;
}

/**
 * Caps the connections a listener holds: per client address and in total.
 * A connection over the per-address cap is closed as soon as it is
 * accepted, before any TLS handshake or parsing is spent on it. Works on
 * any net.Server, https.Server and http.Server included (their
 * 'connection' event is the raw TCP socket).
 *
 * At the total, without `shed`, new connections are refused: that protects
 * the process, but an attacker with total/perAddress addresses then keeps
 * everyone out until their connections expire. With `shed`, the connection
 * that has gone longest without being served (the line is ordered by
 * accept time, and a served connection goes to the back) is closed instead
 * and the new one taken: slow and idle connections make room, so a client
 * that completes its request is served whatever their number. To push a
 * fresh client out before it is served, an attacker must open `total`
 * connections within that client's round trip.
 */
export function capConnections(server: Server, options: CapOptions): ConnectionCap {
  const total = options.total ?? defaultTotalCap();
  const shed = options.shed;
  const closed = tallyOf(options.name ?? 'other');
  // Without shedding, Node refuses connections over maxConnections itself, before 'connection' ('drop').
  if (!shed) {
    server.maxConnections = total;
    server.on('drop', () => closed.total++);
  }
  const open = new Map<string, number>();
  const atCap = new Set<string>();
  /** Open connections, longest unserved first (a Map keeps insertion order). */
  const line = new Map<Socket, true>();
  let atTotal = false;
  const cap = {
    shedCount: 0,
    served(socket: Socket) {
      if (line.delete(socket)) line.set(socket, true);
    },
  };
  const refuse = (socket: Socket) => {
    socket.on('error', () => {});
    socket.destroy();
  };
  /** The first connection of the line that may go, or null. */
  const victim = (): Socket | null => {
    for (const s of line.keys()) if (shed!(s)) return s;
    return null;
  };
  // First of the 'connection' listeners: a refused socket never reaches TLS or HTTP.
  server.prependListener('connection', (socket: Socket) => {
    const key = clientKey(socket.remoteAddress);
    const count = open.get(key) ?? 0;
    if (count >= options.perAddress) {
      if (!atCap.has(key)) {
        atCap.add(key);
        options.logger?.warn(
          { client: key, listener: options.name, cap: options.perAddress },
          'connection cap reached; refusing more from this client',
        );
      }
      closed.address++;
      refuse(socket);
      return;
    }
    if (shed && line.size >= total) {
      const old = victim();
      if (!atTotal) {
        atTotal = true;
        options.logger?.warn(
          { listener: options.name, total },
          old
            ? 'total connection cap reached; closing the longest unserved connections'
            : 'total connection cap reached',
        );
      }
      if (!old) {
        closed.total++;
        refuse(socket);
        return;
      }
      line.delete(old);
      cap.shedCount++;
      closed.shed++;
      old.destroy();
    }
    open.set(key, count + 1);
    if (shed) line.set(socket, true);
    socket.once('close', () => {
      line.delete(socket);
      if (line.size < total) atTotal = false;
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
      if (left < options.perAddress) atCap.delete(key);
    });
  });
  return cap;
}
