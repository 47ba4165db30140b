import { createRequire } from 'node:module';
import { resolve } from 'node:path';

/**
 * The native batched UDP I/O (native/udp-fast.c, built by `npm ci`): a
 * socket read and written with recvmmsg/sendmmsg by receive threads that
 * answer repeated questions from a reply cache. What the cache does not
 * hold comes to `onMiss` as the raw message; the name server answers it
 * with `send` and offers the reply to the cache with `store`.
 */
export interface FastUdp {
  readonly port: number;
  send(reply: Buffer, address: string, port: number): void;
  /** The reply to `query` for every later copy of it (same bytes after the ID), until `clear`. */
  store(query: Buffer, reply: Buffer): void;
  clear(): void;
  stats(): { hits: number; misses: number; dropped: number; entries: number };
  close(): void;
}

interface Addon {
  open(
    host: string,
    port: number,
    threads: number,
    onMiss: (msg: Buffer, address: string, port: number) => void,
    recvBuffer: number,
  ): unknown;
  port(h: unknown): number;
  send(h: unknown, reply: Buffer, address: string, port: number): void;
  store(h: unknown, query: Buffer, reply: Buffer): void;
  clear(h: unknown): void;
  stats(h: unknown): ReturnType<FastUdp['stats']>;
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
    send: (reply, address, p) => open && a.send(h, reply, address, p),
    store: (query, reply) => open && a.store(h, query, reply),
    clear: () => open && a.clear(h),
    stats: () => a.stats(h),
    close: () => {
      if (open) (open = false), a.close(h);
    },
  };
}
