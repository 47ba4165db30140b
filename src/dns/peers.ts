import { isIP } from 'node:net';

/** A DNS peer: `ADDR`, `IPv4:PORT` or `[IPv6]:PORT` (port 53 when absent). */
export interface Peer {
  address: string;
  port: number;
}

export function parsePeer(text: string, defaultPort = 53): Peer | null {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text) ?? /^([\d.]+):(\d{1,5})$/.exec(text) ?? /^([^\s]+)()$/.exec(text);
  if (!m || isIP(m[1]!) === 0) return null;
  const port = m[2] ? Number(m[2]) : defaultPort;
  return port > 0 && port < 65536 ? { address: m[1]!.toLowerCase(), port } : null;
}
