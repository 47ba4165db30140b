/**
 * What opens the scanner's sockets. Two kinds, same interface:
 * - `nativeIo`: the addon native/scan.c + scan-raw.c (Node-API, built by
 *   `npm ci`): SYN probes where a raw socket may be opened, else
 *   nonblocking connect(2), with epoll; ICMP echo and timestamp (ICMPv6
 *   echo for IPv6) where the process may send them. Its poll may block, so the
 *   big scans run it in a worker thread (worker.ts).
 * - `socketIo` / `netIo`: node:net, public API, one Socket per probe:
 *   about 2× slower on loopback (1.1 s vs 0.5 s for 1-65535, measured
 *   with 2 threads), and no ICMP. Used where the addon was not built, or
 *   with VIGIL_SCAN_IO=node.
 */
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { resolve } from 'node:path';
import type { Net } from '../types.ts';
import { OPEN, PENDING, type Probes, SELF } from './engine.ts';

export interface Io extends Probes {
  /** Registers an address; returns its index for connect/ping. */
  host(address: string): number;
  /** Collects finished probes as (slot, status) pairs, ICMP replies as (-1 - host, type); returns the pairs. */
  poll(out: Int32Array, waitMs: number): number;
  /** Whether `poll` itself waits (native); else `wait` does. */
  readonly blocking: boolean;
  wait(ms: number): Promise<void>;
  /** Opens ICMP (4) or ICMPv6 (6) if the process may: 'raw', 'datagram' or null. */
  icmp(family: 4 | 6): 'raw' | 'datagram' | null;
  /** Sends an ICMP echo (8) or timestamp (13) request (to an IPv6 host: an ICMPv6 echo, 8 only); 0 or a negative errno. */
  ping(host: number, kind: 8 | 13): number;
  close(): void;
}

interface Addon {
  create(slots: number): unknown;
  host(h: unknown, address: string): number;
  connect(h: unknown, slot: number, host: number, port: number): number;
  cancel(h: unknown, slot: number): void;
  poll(h: unknown, out: Int32Array, timeoutMs: number): number;
  /** `family` 6: ICMPv6 (an addon built before ICMPv6 discovery ignores it, and its ping refuses IPv6). */
  icmp(h: unknown, family: 4 | 6): number;
  ping(h: unknown, host: number, kind: number): number;
  synOpen(h: unknown): number;
  syn(h: unknown, slot: number, host: number, port: number): number;
  close(h: unknown): void;
}

let addon: Addon | null | undefined;

/** The addon, or null where it was not built (not Linux, no compiler) or VIGIL_SCAN_IO=node asks for node:net. */
export function nativeAvailable(): boolean {
  if (process.env.VIGIL_SCAN_IO === 'node') return false;
  if (addon === undefined) {
    try {
      addon = createRequire(import.meta.url)(
        resolve(import.meta.dirname, '../../../../build/Release/scan_fast.node'),
      ) as Addon;
    } catch {
      addon = null;
    }
  }
  return addon !== null;
}

/**
 * The addon's probes: SYN probes (half-open, as nmap -sS) where `syn` is
 * asked and the process may open a raw socket, else connect(2); IPv6
 * addresses always connect.
 */
export function nativeIo(slots: number, syn = false): Io {
  if (!nativeAvailable()) throw new Error('scan addon not built');
  const a = addon!;
  const h = a.create(slots);
  const half = syn && a.synOpen(h) === 1;
  const v4: boolean[] = [];
  return {
    blocking: true,
    host(address) {
      const i = a.host(h, address);
      v4[i] = !address.includes(':');
      return i;
    },
    connect(slot, host, port) {
      if (half && v4[host]) {
        const status = a.syn(h, slot, host, port);
        if (status === PENDING) return status;
      }
      return a.connect(h, slot, host, port);
    },
    cancel: (slot) => a.cancel(h, slot),
    poll: (out, waitMs) => a.poll(h, out, waitMs),
    wait: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 2))),
    icmp(family) {
      const mode = a.icmp(h, family);
      return mode === 2 ? 'raw' : mode === 1 ? 'datagram' : null;
    },
    ping: (host, kind) => a.ping(h, host, kind),
    close: () => a.close(h),
  };
}

/** A queue of finished probes, and a waiter woken by the next one: the async side of node:net probes. */
function completions() {
  const done: number[] = [];
  let wake: (() => void) | null = null;
  return {
    push(slot: number, status: number) {
      done.push(slot, status);
      wake?.();
    },
    poll(out: Int32Array): number {
      const n = Math.min(done.length, out.length) >> 1;
      for (let i = 0; i < 2 * n; i++) out[i] = done[i]!;
      done.splice(0, 2 * n);
      return n;
    },
    wait(ms: number): Promise<void> {
      if (done.length) return Promise.resolve();
      return new Promise((r) => {
        const timer = setTimeout(() => ((wake = null), r()), ms);
        wake = () => {
          clearTimeout(timer);
          wake = null;
          r();
        };
      });
    },
  };
}

/** Local end == remote end: a TCP simultaneous open with itself (RFC 793 §3.4), not a listener. */
const selfConnect = (s: Socket) => s.localPort === s.remotePort && s.localAddress === s.remoteAddress;

/** node:net probes, one Socket each; `guard` runs before every connect (the fence). */
export function socketIo(guard: (address: string) => void): Io {
  const addresses: string[] = [];
  const sockets = new Map<number, Socket>();
  const q = completions();
  return {
    blocking: false,
    host: (address) => addresses.push(address) - 1,
    connect(slot, host, port) {
      const address = addresses[host]!;
      guard(address);
      const s = connect({ host: address, port });
      sockets.set(slot, s);
      s.once('connect', () => {
        q.push(slot, selfConnect(s) ? SELF : OPEN);
        sockets.delete(slot);
        s.destroy();
      });
      s.once('error', (e: NodeJS.ErrnoException) => {
        sockets.delete(slot);
        q.push(slot, typeof e.errno === 'number' && e.errno < 0 ? e.errno : -1);
      });
      return PENDING;
    },
    cancel(slot) {
      const s = sockets.get(slot);
      if (!s) return;
      sockets.delete(slot);
      s.removeAllListeners();
      s.on('error', () => {});
      s.destroy();
    },
    poll: (out) => q.poll(out),
    wait: (ms) => q.wait(ms),
    icmp: () => null,
    ping: () => -22,
    close() {
      for (const slot of [...sockets.keys()]) this.cancel(slot);
    },
  };
}

/** Probes through a fence's `Net` (one address; its connect cannot be cancelled, so a late outcome is ignored). */
export function netIo(net: Net): Io {
  const q = completions();
  const generation = new Map<number, number>();
  let counter = 0;
  return {
    blocking: false,
    host: () => 0,
    connect(slot, _host, port) {
      const mine = ++counter;
      generation.set(slot, mine);
      const settle = (status: number) =>
        generation.get(slot) === mine && (generation.delete(slot), q.push(slot, status));
      net.connect(port, { timeoutMs: 120_000 }).then(
        (s) => {
          const self = selfConnect(s);
          s.destroy();
          settle(self ? SELF : OPEN);
        },
        (e: NodeJS.ErrnoException) => settle(typeof e.errno === 'number' && e.errno < 0 ? e.errno : -1),
      );
      return PENDING;
    },
    cancel: (slot) => void generation.delete(slot),
    poll: (out) => q.poll(out),
    wait: (ms) => q.wait(ms),
    icmp: () => null,
    ping: () => -22,
    close: () => generation.clear(),
  };
}
