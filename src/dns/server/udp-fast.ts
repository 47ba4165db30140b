import { createRequire } from 'node:module';
import { resolve } from 'node:path';

/**
 * The native batched UDP I/O (native/udp-fast.c, built by `npm ci`): a
 * socket read and written with recvmmsg/sendmmsg by receive threads that
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
  /** The reply to `query` for every later copy of it (same bytes after the ID), until `clear`. */
  store(query: Buffer, reply: Buffer, rrlKey: string): void;
  clear(): void;
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
  ): unknown;
  port(h: unknown): number;
  send(h: unknown, reply: Buffer, address: string, port: number, rrlKey: string): number;
  store(h: unknown, query: Buffer, reply: Buffer, rrlKey: string): void;
  clear(h: unknown): void;
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

/** Binds `host:port` (SO_REUSEPORT, so name-server workers each bind their own). Throws like bind(2) (EADDRINUSE …). */
export function openFastUdp(
  host: string,
  port: number,
  threads: number,
  onMiss: (msg: Buffer, address: string, port: number) => void,
): FastUdp {
  if (!fastUdpAvailable()) throw new Error('native UDP I/O is not available');
  const a = addon!;
  const h = a.open(host, port, threads, onMiss, 4 * 1024 * 1024);
  let open = true;
  return {
    port: a.port(h),
    send: (reply, address, p, key) => (open ? VERDICTS[a.send(h, reply, address, p, key)]! : 'drop'),
    store: (query, reply, key) => open && a.store(h, query, reply, key),
    clear: () => open && a.clear(h),
    rateLimit: (rate, slip, exempt) => open && a.rateLimit(h, rate, slip, [...exempt]),
    tick: (nowMs) => open && a.tick(h, nowMs),
    stats: () => a.stats(h),
    close: () => {
      if (open) (open = false), a.close(h);
    },
  };
}
