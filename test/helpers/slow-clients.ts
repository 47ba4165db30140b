/**
 * Slow clients and a normal client, for the slow-client tests and benches
 * (bench/hostile/): floods of connections that trickle a request, and
 * probes, a normal client's calls on fresh connections, each resolving to
 * the ms until it was served, or null when the server refused it or did
 * not answer within 5 s. All on loopback.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { queryPacket } from './dns-client.ts';
import { heard, open, postHead, type RawConnection, type Target } from './raw.ts';

/** A probe: ms until served on a fresh connection, or null when refused or unanswered within 5 s. */
export type Probe = () => Promise<number | null>;

/** One normal API call on a fresh connection (handshake included). */
export const apiProbe =
  (tls: Target, from: string): Probe =>
  async () => {
    const started = performance.now();
    const conn = await open({ ...tls, localAddress: from }).catch(() => null);
    if (!conn) return null;
    conn.socket.write(`${postHead('/api/auth.php', 8, 'Connection: close\r\n')}apikey=x`);
    const { data } = await Promise.race([conn.closed, sleep(5_000).then(() => ({ data: Buffer.alloc(0) }))]);
    conn.socket.destroy();
    return data.includes('invalid apikey format') ? performance.now() - started : null;
  };

/** One DNS query over a fresh TCP connection. */
export const dnsProbe =
  (dns: Target, from: string): Probe =>
  async () => {
    const started = performance.now();
    const conn = await open({ ...dns, localAddress: from }).catch(() => null);
    if (!conn) return null;
    const q = queryPacket('example.invalid', 'A');
    conn.socket.write(Buffer.concat([Buffer.from([q.length >> 8, q.length & 0xff]), q]));
    const got = await Promise.race([heard(conn), sleep(5_000).then(() => false)]);
    conn.socket.destroy();
    return got ? performance.now() - started : null;
  };

/** One plain-HTTP GET on a fresh connection: served when any HTTP status line comes back. */
export const httpProbe =
  (t: Target, from: string, path: string): Probe =>
  async () => {
    const started = performance.now();
    const conn = await open({ ...t, localAddress: from }).catch(() => null);
    if (!conn) return null;
    conn.socket.write(`GET ${path} HTTP/1.1\r\nHost: probe.example\r\nConnection: close\r\n\r\n`);
    const { data } = await Promise.race([conn.closed, sleep(5_000).then(() => ({ data: Buffer.alloc(0) }))]);
    conn.socket.destroy();
    return data.toString('latin1').startsWith('HTTP/1.1 ') ? performance.now() - started : null;
  };

/** The slow connections of a run, and their trickle timers: `release` ends them all. */
export class Flood {
  readonly slow: RawConnection[] = [];
  private readonly timers: NodeJS.Timeout[] = [];

  /**
   * Opens `connections` connections to `target` from `addresses` loopback addresses (127.0.0.F .. 127.0.0.F+K-1,
   * F = firstAddress), each trickling `bytes` one every `everyMs`; counts what the server kept after a second.
   */
  async open(target: Target, connections: number, addresses: number, bytes: Buffer, everyMs = 5_000, firstAddress = 1) {
    const started = this.slow.length;
    const opened = await Promise.all(
      Array.from({ length: connections }, (_, i) =>
        open({ ...target, localAddress: `127.0.0.${firstAddress + (i % addresses)}` }).catch(() => null),
      ),
    );
    for (const conn of opened) {
      if (!conn) continue;
      this.slow.push(conn);
      let at = 0;
      const drip = () => conn.socket.destroyed || conn.socket.write(bytes.subarray(at, ++at));
      drip();
      this.timers.push(setInterval(drip, everyMs));
    }
    // Refused connections are closed by the server right after the connect: give that a moment to show.
    await sleep(1_000);
    return { attempted: connections, kept: this.kept(started) };
  }

  /** Connections (from index `from` on) the server still holds open. */
  kept(from = 0): number {
    return this.slow.slice(from).filter((c) => !c.socket.destroyed && !c.socket.readableEnded).length;
  }

  release(): void {
    this.timers.forEach(clearInterval);
    this.slow.forEach((c) => c.socket.destroy());
  }
}
