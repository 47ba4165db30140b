import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { test } from 'node:test';
import dnsPacket from 'dns-packet';
import { pino } from 'pino';
import { eventually } from '../../../test/helpers/wait.ts';
import { ManualClock } from '../../clock.ts';
import { inTurn, NOTIFY_IN_FLIGHT, TRIES, WAIT_MS } from './notify.ts';
import { NotifyPeers, PEER_IN_FLIGHT, UNRESPONSIVE_AFTER } from './notify-peers.ts';

test('NOTIFYs waiting for their answers are capped; the next in line starts as one ends', async () => {
  const ends: (() => void)[] = [];
  const started: number[] = [];
  const all = Array.from({ length: NOTIFY_IN_FLIGHT + 10 }, (_, i) =>
    inTurn(() => {
      started.push(i);
      return new Promise<void>((end) => ends.push(end));
    }),
  );
  assert.equal(started.length, NOTIFY_IN_FLIGHT);
  ends[3]!();
  await new Promise((turn) => setImmediate(turn));
  assert.equal(started.length, NOTIFY_IN_FLIGHT + 1);
  assert.equal(started.at(-1), NOTIFY_IN_FLIGHT, 'first come, first served');
  for (let i = 0; i < all.length; i++) {
    await new Promise((turn) => setImmediate(turn));
    ends.forEach((end) => end());
  }
  await Promise.all(all);
  assert.equal(started.length, all.length);
});

/** A UDP peer of the test's own on loopback: it records each NOTIFY's zone and answers them or never does. */
async function udpPeer(answers: boolean) {
  const socket = createSocket('udp4');
  const got: string[] = [];
  socket.on('message', (msg, from) => {
    got.push((dnsPacket.decode(msg) as { questions: { name: string }[] }).questions[0]!.name);
    if (!answers) return;
    const reply = Buffer.from(msg);
    reply[2]! |= 0x80; // QR: the NOTIFY's response (RFC 1996 3.3)
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((res) => socket.bind(0, '127.0.0.1', () => res()));
  return { got, peer: { address: '127.0.0.1', port: socket.address().port }, close: () => socket.close() };
}

const version = (zone: string) => ({
  zone,
  serial: 1,
  soa: {
    name: zone,
    type: 'SOA' as const,
    ttl: 3600,
    class: 'IN' as const,
    data: {
      mname: 'ns.vigil.test',
      rname: 'hostmaster.vigil.test',
      serial: 1,
      refresh: 3600,
      retry: 600,
      expire: 604800,
      minimum: 3600,
    },
  },
});

test('a dead peer holds at most half the NOTIFY slots, and once found out gets one NOTIFY a round', async () => {
  const clock = new ManualClock();
  const [live, dead] = [await udpPeer(true), await udpPeer(false)];
  const peers = new NotifyPeers(pino({ level: 'silent' }), clock);
  const zones = Array.from({ length: NOTIFY_IN_FLIGHT + 44 }, (_, i) => version(`z${i}.example`));
  /** Moves the clock one wait at each poll until every send has ended: the retries go out, nothing sleeps. */
  const settle = async (sends: Promise<unknown>[]) => {
    let ended = false;
    void Promise.all(sends).then(() => {
      ended = true;
    });
    await eventually(async () => {
      clock.advance(WAIT_MS);
      return ended;
    }, 'every NOTIFY ended');
  };
  try {
    peers.round();
    const all = zones.flatMap((z) => [peers.send(z, dead.peer), peers.send(z, live.peer)]);
    // The clock has not moved: no try of the dead peer's has ended, and the live peer has heard of every zone.
    // One poll for both peers: each has its own socket, and the live one's last NOTIFY may be read before the
    // dead one's last (the clock stands still, so the dead peer cannot get more than its slots).
    await eventually(
      async () => live.got.length === zones.length && dead.got.length === PEER_IN_FLIGHT,
      'the live peer told of every zone; the dead peer holds half the slots, no more',
    );
    await settle(all);
    // Two more went out as the first two gave up, before the third made the peer unresponsive.
    const tried = PEER_IN_FLIGHT + UNRESPONSIVE_AFTER - 1;
    assert.ok(peers.unresponsive(dead.peer));
    assert.ok(!peers.unresponsive(live.peer));
    assert.equal(peers.stats.unanswered, tried);
    assert.equal(dead.got.length, TRIES * tried);
    assert.equal(peers.stats.deferred, zones.length - tried, 'the rest held back: no socket, no wait');
    // The next round: one NOTIFY for the dead peer, whatever the number of zones.
    peers.round();
    await settle(zones.map((z) => peers.send(z, dead.peer)));
    assert.equal(dead.got.length, TRIES * (tried + 1));
    assert.equal(peers.stats.deferred, 2 * zones.length - tried - 1);
    assert.equal(peers.stats.unresponsive, 1);
  } finally {
    live.close();
    dead.close();
  }
});
