import { type Socket, connect as tcpConnect } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { createSocket } from 'node:dgram';
import { parsePattern, patternContains, type Pattern } from '../patterns.ts';
import type { Net } from './types.ts';

export class FenceError extends Error {}

/**
 * The only way the engine reaches the network. An address must be one the
 * request's permission check passed AND inside the server-wide
 * `--scan-allow` list; anything else throws before a packet is sent.
 */
export class Fence {
  private readonly permitted: ReadonlySet<string>;
  private readonly allow: readonly Pattern[];

  constructor(permitted: Iterable<string>, scanAllow: readonly string[]) {
    this.permitted = new Set(permitted);
    this.allow = scanAllow.map((c) => parsePattern(c)).filter((p): p is Pattern => p !== null);
  }

  allows(address: string): boolean {
    return this.permitted.has(address) && this.allow.some((p) => patternContains(p, address));
  }

  check(address: string): void {
    if (!this.allows(address)) throw new FenceError(`address ${address} is outside the scan fence`);
  }

  /** Network access for one address, every call re-checked. */
  net(address: string, defaultTimeoutMs = 3000): Net {
    this.check(address);
    const fence = this;
    return {
      address,
      connect(port, opts) {
        fence.check(address);
        const local = opts?.localPort ? { localPort: opts.localPort } : {};
        return open(
          () => tcpConnect({ host: address, port, ...local }),
          opts?.timeoutMs ?? defaultTimeoutMs,
          'connect',
        );
      },
      connectTls(port, opts) {
        fence.check(address);
        const { timeoutMs, ...tls } = opts ?? {};
        return open(
          () =>
            tlsConnect({
              host: address,
              port,
              rejectUnauthorized: false,
              servername: tls.servername,
              minVersion: tls.minVersion as any,
              maxVersion: tls.maxVersion as any,
              ciphers: tls.ciphers,
            }),
          timeoutMs ?? defaultTimeoutMs,
          'secureConnect',
        ) as Promise<TLSSocket>;
      },
      udpRequest(port, payload, opts) {
        fence.check(address);
        return udpRequest(address, port, payload, opts?.timeoutMs ?? defaultTimeoutMs, opts?.anyPort, opts?.answer);
      },
    };
  }
}

function open(make: () => Socket, timeoutMs: number, event: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = make();
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('timeout'));
    }, timeoutMs);
    socket.once(event, () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    });
  });
}

function udpRequest(
  address: string,
  port: number,
  payload: Buffer,
  timeoutMs: number,
  anyPort = false,
  answer?: (reply: Buffer) => Buffer | null,
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
    let settled = false;
    const done = (value: Buffer | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      resolve(value);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.on('message', (msg, from) => {
      if (anyPort && from.address !== address) return;
      // The next packet goes back to the fenced address only, on the port that answered.
      const next = answer?.(msg);
      if (next && anyPort) socket.send(next, from.port, address);
      else if (next) socket.send(next);
      else done(msg);
    });
    // Connected, so that an ICMP port-unreachable ends the wait at once
    // (ECONNREFUSED) instead of costing the whole timeout on a closed port.
    socket.on('error', () => done(null));
    if (anyPort) socket.send(payload, port, address);
    else socket.connect(port, address, () => socket.send(payload));
  });
}
