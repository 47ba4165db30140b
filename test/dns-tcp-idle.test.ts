// store-incidental: the DNS-over-TCP idle timer; the zone it answers from is published as everywhere else.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { NameServer } from '../src/dns/server/name-server.ts';
import { ServingSet } from '../src/dns/server/serving-set.ts';
import { queryPacket } from './helpers/dns-client.ts';
import { open, type RawConnection } from './helpers/raw.ts';

/** How many 100 ms steps a connection lasted while `step` wrote to it (at most `max`). */
async function stepsUntilClosed(conn: RawConnection, max: number, step: (i: number) => void): Promise<number> {
  let closed = false;
  void conn.closed.then(() => (closed = true));
  let i = 0;
  for (; i < max && !closed; i++) {
    step(i);
    await sleep(100);
  }
  conn.socket.destroy();
  return i;
}

const frame = (message: Buffer) => Buffer.concat([Buffer.from([message.length >> 8, message.length & 0xff]), message]);

/**
 * Issue 28: DNS over TCP's idle timer restarts on a complete query only.
 * Empty frames (a zero length) and frames too short to hold a DNS header
 * restarted it before, so `00 00` every few seconds held a connection for
 * its whole 60 s lifetime. A name server on a real loopback socket, with a
 * 600 ms idle timer and a 60 s lifetime: a connection that outlives the
 * idle timer by many times, yet is closed long before the lifetime, was
 * closed by the idle timer.
 */
describe('DNS over TCP: only a complete query restarts the idle timer', () => {
  let server: NameServer;
  let port: number;

  before(async () => {
    server = new NameServer(new ServingSet(), pino({ level: 'silent' }), {
      dnsTcpIdleMs: 600,
      dnsTcpLifetimeMs: 60_000,
    });
    port = await server.listen('127.0.0.1', 0);
  });
  after(() => server.close());

  test('empty frames every 100 ms do not keep a connection open', async () => {
    const conn = await open({ port });
    const steps = await stepsUntilClosed(conn, 100, () => conn.socket.write(Buffer.from([0, 0])));
    assert.ok(steps < 100, 'still open after 10 s of empty frames');
  });

  test('frames shorter than a DNS header do not either', async () => {
    const conn = await open({ port });
    const steps = await stepsUntilClosed(conn, 100, () => conn.socket.write(Buffer.from([0, 3, 1, 2, 3])));
    assert.ok(steps < 100, 'still open after 10 s of 3-byte frames');
    assert.equal((await conn.closed).data.length, 0, 'nothing answered');
  });

  test('a query dribbled a byte at a time does not either', async () => {
    const conn = await open({ port });
    const bytes = frame(queryPacket('example.invalid', 'A'));
    const steps = await stepsUntilClosed(conn, Math.min(100, bytes.length), (i) =>
      conn.socket.write(bytes.subarray(i, i + 1)),
    );
    assert.ok(steps < bytes.length, 'the whole query went out before the idle timer closed it');
  });

  test('a complete query every 100 ms keeps it open past several idle periods, each one answered', async () => {
    const conn = await open({ port });
    const steps = await stepsUntilClosed(conn, 20, () => conn.socket.write(frame(queryPacket('example.invalid', 'A'))));
    assert.equal(steps, 20, 'closed while busy');
    // REFUSED (no zone served) is an answer: 2-byte length, then the reply.
    assert.ok(conn.received().length > 20 * 14, `${conn.received().length} bytes answered`);
  });
});
