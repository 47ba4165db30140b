import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/**
 * The native batched UDP I/O (native/udp-fast.c, built by `npm ci`):
 * sockets read and written with recvmmsg/sendmmsg by receive threads that
 * answer repeated questions from a reply cache. What the cache does not
 * hold comes to `onMiss` as the raw message; the name server answers it
 * with `send` and offers the reply to the cache with `store`.
 *
 * Every reply it sends, from the cache or from `send`, passes response
 * rate limiting in C (native/rrl.c, the rules of rrl.ts) under the key
 * JavaScript gave with it; `rateLimit` sets it up and `tick` gives it the
 * time of the injected Clock.
 */
export interface FastUdp {
  readonly port: number;
  /** Sends `reply` unless rate limiting drops it (or sends its TC slip instead). */
  send(reply: Buffer, address: string, port: number, rrlKey: string): 'answer' | 'slip' | 'drop';
  /** The reply to `query` for every later copy of it (same bytes after the ID), until `clear` or its zone's clear. */
  store(query: Buffer, reply: Buffer, rrlKey: string, zone: string): void;
  clear(): void;
  /** Forgets the replies of these zones ('': of names in no zone), the others' stay; returns how many went. */
  clearZones(zones: readonly string[]): number;
  /** Response rate limiting: `rate` identical responses a second per client network (0: off). */
  rateLimit(rate: number, slip: number, exempt: readonly string[]): void;
  /** The rate limiter's time, in ms (the injected Clock's). */
  tick(nowMs: number): void;
  stats(): NativeStats;
  close(): void;
}

export interface NativeStats {
  hits: number;
  misses: number;
  dropped: number;
  entries: number;
  /** Entries removed by clearZones since the start. */
  cleared: number;
  rrlDropped: number;
  rrlSlipped: number;
}

const VERDICTS = ['answer', 'slip', 'drop'] as const;

interface Addon {
  open(
    host: string,
    port: number,
    threads: number,
    onMiss: (msg: Buffer, address: string, port: number) => void,
    recvBuffer: number,
    steer: number,
    group: number,
    first: number,
    spinUs: number,
  ): unknown;
  port(h: unknown): number;
  send(h: unknown, reply: Buffer, address: string, port: number, rrlKey: string): number;
  store(h: unknown, query: Buffer, reply: Buffer, rrlKey: string, zone: string): void;
  clear(h: unknown): void;
  clearZones?(h: unknown, zones: string[]): number;
  rateLimit(h: unknown, rate: number, slip: number, exempt: string[]): void;
  tick(h: unknown, nowMs: number): void;
  stats(h: unknown): NativeStats;
  close(h: unknown): void;
}

let addon: Addon | null | undefined;

/** The addon, or null where it was not built (not Linux, no compiler) or VIGIL_DNS_IO=node asks for node:dgram. */
export function fastUdpAvailable(): boolean {
  if (process.env.VIGIL_DNS_IO === 'node') return false;
  if (addon === undefined) {
    try {
      addon = createRequire(import.meta.url)(
        resolve(import.meta.dirname, '../../../build/Release/udp_fast.node'),
      ) as Addon;
    } catch {
      addon = null;
    }
  }
  return addon !== null;
}

/**
 * How the kernel spreads datagrams over the sockets of the SO_REUSEPORT group (native/udp-socket.c):
 * its 4-tuple hash, the receiving CPU, or at random.
 */
export const STEERING = { hash: 0, cpu: 1, random: 2 } as const;
export type Steering = keyof typeof STEERING;

export interface FastUdpOptions {
  /** Receive threads, each with its own socket of the group. */
  threads: number;
  /** Sockets all processes bind to the port together (threads × worker processes). */
  group: number;
  steer: Steering;
  /**
   * This process's first socket's index in the group (processes bind in turn), -1 unknown: under CPU
   * steering, thread i then runs on the (first + i)-th CPU the process may use, where its socket's
   * datagrams arrive.
   */
  first: number;
  /** How long a receive thread polls its empty socket before it sleeps (native/udp-receive.c receive), in µs. */
  spinUs: number;
}

/**
 * Binds `host:port` with one SO_REUSEPORT socket per receive thread (name-server workers bind theirs too).
 * Throws like bind(2) (EADDRINUSE …).
 */
export function openFastUdp(
  host: string,
  port: number,
  options: FastUdpOptions,
  onMiss: (msg: Buffer, address: string, port: number) => void,
): FastUdp {
  if (!fastUdpAvailable()) throw new Error('native UDP I/O is not available');
  const a = addon!;
  const { threads, group, steer, first, spinUs } = options;
  const h = a.open(host, port, threads, onMiss, 4 * 1024 * 1024, STEERING[steer], group, first, spinUs);
  let open = true;
  return {
    port: a.port(h),
    send: (reply, address, p, key) => (open ? VERDICTS[a.send(h, reply, address, p, key)]! : 'drop'),
    store: (query, reply, key, zone) => open && a.store(h, query, reply, key, zone),
    clear: () => open && a.clear(h),
    // An addon built before clearZones existed (a checkout updated without `npm ci`): empty it whole, as then.
    clearZones: (zones) => (!open ? 0 : a.clearZones ? a.clearZones(h, [...zones]) : (a.clear(h), 0)),
    rateLimit: (rate, slip, exempt) => open && a.rateLimit(h, rate, slip, [...exempt]),
    tick: (nowMs) => open && a.tick(h, nowMs),
    stats: () => a.stats(h),
    close: () => {
      if (open) (open = false), a.close(h);
    },
  };
}

/** Receive threads sleep at once on an empty socket: polling first did not pay (native/udp-receive.c `receive`). */
export const SPIN_US = 0;

/**
 * Receive threads and steering for a process that is one of `workers`
 * name-server processes (the `worker`th, from 0): the cores shared out, at
 * least one thread each.
 * VIGIL_DNS_THREADS, VIGIL_DNS_STEER and VIGIL_DNS_SPIN_US override them (the benches compare).
 */
export function udpPlan(workers = 1, worker = 0, cores = availableParallelism()): FastUdpOptions {
  const env = Number(process.env.VIGIL_DNS_THREADS);
  const threads =
    Number.isInteger(env) && env >= 1 && env <= 16 ? env : Math.min(16, Math.max(1, Math.floor(cores / workers)));
  const steer = process.env.VIGIL_DNS_STEER;
  const spin = Number(process.env.VIGIL_DNS_SPIN_US);
  return {
    threads,
    group: threads * workers,
    first: worker * threads,
    spinUs: process.env.VIGIL_DNS_SPIN_US && Number.isInteger(spin) && spin >= 0 && spin <= 1_000_000 ? spin : SPIN_US,
    // One socket per core: each core's datagrams to its own socket and thread (udp-socket.c); more sockets than
    // cores: CPU steering would leave some without work, so an even random spread.
    steer:
      steer === 'hash' || steer === 'cpu' || steer === 'random'
        ? steer
        : threads * workers === cores
          ? 'cpu'
          : 'random',
  };
}
