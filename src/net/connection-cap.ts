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
 * Default total of open connections per listener. The run filled
 * every file descriptor with 366 slow TLS connections, so the total is
 * tied to the process's descriptor limit: a quarter of it per listener
 * (the API, the plain-HTTP listener and DNS over TCP together take at most
 * three quarters; the store, logs and outgoing traffic keep the rest),
 * and never more than 8192 (each idle TLS connection holds tens of KB).
 */
export function defaultTotalCap(): number {
  let limit = 1024;
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    if (Number.isFinite(soft) && soft > 0) limit = soft;
  } catch {
    // Not Linux: assume the common soft limit.
  }
  return Math.max(64, Math.min(8192, Math.floor(limit / 4)));
}

export interface CapOptions {
  /** Open connections one client (clientKey) may hold on this listener. */
  perAddress: number;
  /** Open connections on this listener altogether (default: defaultTotalCap). */
  total?: number;
  /**
   * Told once each time a client reaches its cap (not once per refused connection: that would let a flood
   * flood the log too).
   */
  logger?: Logger;
  name?: string;
}

/**
 * Caps the connections a listener holds: per client address and in total.
 * A connection over either cap is closed as soon as it is accepted, before
 * any TLS handshake or parsing is spent on it. Works on any net.Server,
 * https.Server and http.Server included (their 'connection' event is the
 * raw TCP socket).
 */
export function capConnections(server: Server, options: CapOptions): void {
  // Node refuses connections over maxConnections itself, before 'connection'.
  server.maxConnections = options.total ?? defaultTotalCap();
  const open = new Map<string, number>();
  const atCap = new Set<string>();
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
      socket.on('error', () => {});
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
      if (left < options.perAddress) atCap.delete(key);
    });
  });
}
