// store-incidental: per-address caps, timeouts and lifetimes of the listeners; the store only holds the account.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { VigilClient } from '../src/client/index.ts';
import { capConnections } from '../src/net/connection-cap.ts';
import { queryPacket } from './helpers/dns-client.ts';
import { heard, open, parseReplies, postHead, type RawConnection, type Target } from './helpers/raw.ts';
import { freePort, serve, type Served } from './helpers/server.ts';
import { eventually } from './helpers/wait.ts';

const CAP = 8;

/** A listener of a served instance, as raw targets. */
function targets(s: Served, dnsPort: number) {
  return {
    tls: { port: Number(new URL(s.httpsUrl).port), ca: s.ca },
    plain: { port: Number(new URL(s.httpUrl).port) },
    dns: { port: dnsPort },
  };
}

/** Every byte of `bytes`, one at a time, until the server closes the connection; returns how many went out. */
async function trickle(conn: RawConnection, bytes: Buffer, everyMs: number): Promise<number> {
  let sent = 0;
  let closed = false;
  void conn.closed.then(() => (closed = true));
  for (const b of bytes) {
    if (closed) break;
    conn.socket.write(Buffer.of(b));
    sent++;
    await sleep(everyMs);
  }
  return sent;
}

/** One whole API request: true when answered, false when the server closed the connection instead. */
async function answered(t: Target): Promise<boolean> {
  const conn = await open(t).catch(() => null);
  if (!conn) return false;
  conn.socket.write(postHead('/api/auth.php', 0, 'Connection: close\r\n'));
  return (await conn.closed).data.length > 0;
}

/** A DNS-over-TCP exchange from `localAddress`: the reply's bytes, or null when the server closed instead. */
async function dnsTcp(t: Target): Promise<Buffer | null> {
  const conn = await open(t);
  const outcome = await asked(conn);
  conn.socket.destroy();
  return outcome === 'answered' ? conn.received() : null;
}

/** Asks one question on an open DNS-over-TCP connection: answered (the connection stays open), or closed unanswered. */
async function asked(conn: RawConnection): Promise<'answered' | 'closed'> {
  const q = queryPacket('example.invalid', 'A');
  const answered = new Promise<'answered'>((res) =>
    conn.socket.on('data', () => {
      const got = conn.received();
      if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) res('answered');
    }),
  );
  conn.socket.write(Buffer.concat([Buffer.from([q.length >> 8, q.length & 0xff]), q]));
  return Promise.race([answered, conn.closed.then(() => 'closed' as const)]);
}

describe('slow clients: per-address connection caps', () => {
  let s: Served;
  let t: ReturnType<typeof targets>;

  before(async () => {
    const dnsPort = await freePort();
    // Long timeouts: only the caps may close anything during these tests. Two name-server processes: one
    // address's cap holds across them (DNS over TCP below).
    s = await serve({
      args: [
        '--dns-port',
        String(dnsPort),
        '--dns-workers',
        '2',
        '--max-connections-per-ip',
        String(CAP),
        '--request-timeout',
        '60s',
        '--dns-tcp-lifetime',
        '60s',
      ],
    });
    t = targets(s, dnsPort);
  });
  after(async () => {
    assert.equal(await s.stop(), 0);
  });

  for (const listener of ['tls', 'plain'] as const) {
    test(`API (${listener}): slow connections from one address are capped; another address is still served`, async () => {
      const target = t[listener];
      // Each holds half a request head, as a slowloris client does.
      const slow = await Promise.all(Array.from({ length: CAP }, () => open(target)));
      slow.forEach((c) => c.socket.write('POST /api/auth.php HTTP/1.1\r\nHost: lo'));
      // The server counts a connection when it accepts it, which may come after our connect event: ask until refused.
      await eventually(async () => !(await answered(target)), 'a connection over the cap is refused');
      const other = new VigilClient({
        baseUrl: listener === 'tls' ? s.httpsUrl : s.httpUrl,
        ca: s.ca,
        localAddress: '127.0.0.2',
      });
      try {
        const r = await other.raw('POST', '/api/auth.php', 'apikey=x');
        assert.equal(r.body.error, listener === 'tls' ? 'invalid apikey format' : 'notSSL');
      } finally {
        other.close();
      }
      slow.forEach((c) => c.socket.destroy());
      await eventually(() => answered(target), 'the address is served again once its connections are gone');
    });
  }

  test('DNS over TCP, two workers: one address holds its cap in all, not a cap per worker; another address is still answered', async () => {
    // Twice the cap at once from one address, each asking a question: the server answers CAP of them and
    // closes the rest unanswered, whichever it accepted first. Before, each worker counted only the
    // connections node's cluster handed it (round robin): all 2 x CAP were answered (docs/security.md).
    const conns = await Promise.all(Array.from({ length: 2 * CAP }, () => open(t.dns)));
    const outcomes = await Promise.all(conns.map(asked));
    assert.deepEqual(
      [outcomes.filter((o) => o === 'answered').length, outcomes.filter((o) => o === 'closed').length],
      [CAP, CAP],
    );
    const held = conns.filter((_, i) => outcomes[i] === 'answered');
    const reply = await dnsTcp({ ...t.dns, localAddress: '127.0.0.2' });
    assert.ok(reply, 'another address is answered');
    held.forEach((c) => c.socket.destroy());
    await eventually(
      async () => (await dnsTcp(t.dns)) !== null,
      'the address is answered again once its connections are gone',
    );
  });
});

describe('slow clients: timeouts and lifetimes', () => {
  let s: Served;
  let t: ReturnType<typeof targets>;

  before(async () => {
    const dnsPort = await freePort();
    // Two name-server processes: the limits must reach the workers too.
    s = await serve({
      args: [
        '--dns-port',
        String(dnsPort),
        '--dns-workers',
        '2',
        '--request-timeout',
        '1s',
        '--dns-tcp-lifetime',
        '2s',
      ],
    });
    t = targets(s, dnsPort);
  });
  after(async () => {
    assert.equal(await s.stop(), 0);
  });

  for (const listener of ['tls', 'plain'] as const) {
    test(`API (${listener}): a body trickled a byte at a time is cut off at the request timeout with 408`, async () => {
      const conn = await open(t[listener]);
      conn.socket.write(postHead('/api/auth.php', 1000));
      // 60 bytes at one per 100 ms take 6 s; the request timeout is 1 s.
      const sent = await trickle(conn, Buffer.alloc(60, 'a'), 100);
      assert.ok(sent < 60, 'the server waited for the whole trickle');
      const { data, error } = await conn.closed;
      assert.equal(error, null);
      const [reply] = parseReplies(data);
      assert.equal(reply?.status, 408);
      assert.deepEqual(JSON.parse(reply!.body), { status: '-1', error: 'requestTimeout' });
    });

    test(`API (${listener}): headers trickled a byte at a time are cut off too`, async () => {
      const conn = await open(t[listener]);
      // A head of about 100 bytes: 10 s at one per 100 ms.
      const head = Buffer.from(postHead('/api/auth.php', 0));
      const sent = await trickle(conn, head, 100);
      assert.ok(sent < head.length, 'the server waited for the whole head');
      const [reply] = parseReplies((await conn.closed).data);
      assert.equal(reply?.status, 408);
    });
  }

  test('API: a connection that never starts the TLS handshake, or never sends a request after it, is closed', async () => {
    // Bounded waits: Node's own defaults would hold these for 120 s (handshake) and 60 s (headers).
    const bounded = (conn: RawConnection) => Promise.race([conn.closed, sleep(10_000).then(() => null)]);
    const raw = await open({ port: t.tls.port });
    const rawEnd = await bounded(raw);
    raw.socket.destroy();
    assert.ok(rawEnd, 'a connection without a TLS handshake was held');
    assert.equal(rawEnd.data.length, 0);
    const silent = await open(t.tls);
    const silentEnd = await bounded(silent);
    silent.socket.destroy();
    assert.ok(silentEnd, 'a handshaken connection without a request was held');
    assert.equal(parseReplies(silentEnd.data)[0]?.status, 408);
  });

  test('DNS over TCP: a query trickled a byte at a time is closed at the lifetime, not held for ever', async () => {
    const conn = await open(t.dns);
    // A length prefix announcing a full-size message that never completes: 8 s of bytes, against a 2 s lifetime.
    const sent = await trickle(conn, Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.alloc(78)]), 100);
    assert.ok(sent < 80, 'the connection outlived the whole trickle');
    await conn.closed;
  });

  test('DNS over TCP: a busy connection is closed at its lifetime too (it is not an idle timer)', async () => {
    const conn = await open(t.dns);
    let answered = 0;
    conn.socket.on('data', () => (answered = conn.received().length));
    let closed = false;
    void conn.closed.then(() => (closed = true));
    // A complete query every 100 ms for 8 s at most, each answered: never idle.
    for (let i = 0; i < 80 && !closed; i++) {
      const q = queryPacket('example.invalid', 'A');
      conn.socket.write(Buffer.concat([Buffer.from([q.length >> 8, q.length & 0xff]), q]));
      await sleep(100);
    }
    assert.ok(closed, 'a busy connection outlived 80 queries');
    assert.ok(answered > 0, 'queries were answered until then');
  });
});

test('the global cap: a listener refuses connections beyond its total, whatever their address', async () => {
  const server: Server = createServer((socket) => socket.on('error', () => {}).write('accepted'));
  capConnections(server, { perAddress: 100, total: 3 });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  try {
    const held = await Promise.all([1, 2, 3].map((i) => open({ port, localAddress: `127.0.0.${i}` })));
    // Accepted connections hear "accepted"; a refused one is closed without a word.
    const fourth = await open({ port, localAddress: '127.0.0.4' });
    assert.equal((await fourth.closed).data.length, 0);
    held[0]!.socket.destroy();
    await eventually(async () => {
      const again = await open({ port, localAddress: '127.0.0.4' });
      const accepted = await heard(again);
      again.socket.destroy();
      return accepted;
    }, 'a place freed is taken again');
    held.forEach((c) => c.socket.destroy());
  } finally {
    server.close();
  }
});
