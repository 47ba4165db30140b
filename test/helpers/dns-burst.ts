import { createSocket } from 'node:dgram';

/** What a burst of one question got back: full replies, empty TC replies (the RRL slip), and silence. */
export interface BurstResult {
  full: number;
  tc: number;
  dropped: number;
  /** Every reply's bytes, in arrival order. */
  replies: Buffer[];
}

/**
 * `count` copies of `query` (new IDs; or query(i), each its own) to a loopback name server from one
 * socket bound to `from` (any 127.x.y.z: each /24 is a client network of
 * its own for rate limiting), then waits until no reply came for
 * `quietMs` (of the replies read: see the loop). Sends in runs of 20 with a turn of the event loop between
 * them, so our own socket is read while the burst goes out.
 */
export async function burst(
  port: number,
  query: Buffer | ((i: number) => Buffer),
  count: number,
  from = '127.0.0.1',
  quietMs = 500,
) {
  // From an IPv6 address (`::1`), to a name server on ::1.
  const v6 = from.includes(':');
  const s = createSocket({ type: v6 ? 'udp6' : 'udp4', recvBufferSize: 4 << 20 });
  await new Promise<void>((res) => s.bind(0, from, () => res()));
  const replies: Buffer[] = [];
  let last = Date.now();
  s.on('message', (m) => {
    replies.push(m);
    last = Date.now();
  });
  for (let i = 0; i < count; i++) {
    const q = Buffer.from(typeof query === 'function' ? query(i) : query);
    q.writeUInt16BE((i * 7 + 1) & 0xffff, 0);
    await new Promise<void>((res) => s.send(q, port, v6 ? '::1' : '127.0.0.1', () => res()));
    if (i % 20 === 19) await new Promise((r) => setImmediate(r));
  }
  last = Date.now();
  // Quiet only when a read of the socket came between the timer and the look at the clock: a timer fires
  // before the loop's poll for I/O, so after a stall of this process (GC, a loaded machine) the replies
  // that arrived meanwhile would still be unread when the clock says quiet, and count as dropped.
  // setImmediate runs after the poll phase, which reads what is waiting (and moves `last`).
  while (Date.now() - last < quietMs && replies.length < count) {
    await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setImmediate(r));
  }
  s.close();
  const tc = replies.filter((r) => (r.readUInt16BE(2) & 0x0200) !== 0).length;
  return { full: replies.length - tc, tc, dropped: count - replies.length, replies } satisfies BurstResult;
}
