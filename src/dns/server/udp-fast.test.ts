import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSocket } from 'node:dgram';
import dnsPacket from 'dns-packet';
import { eventually } from '../../../test/helpers/wait.ts';
import { fastUdpAvailable, openFastUdp, udpPlan } from './udp-fast.ts';

test('udpPlan shares the cores out: a thread per core, CPU steering when the sockets match the cores', () => {
  delete process.env.VIGIL_DNS_THREADS;
  delete process.env.VIGIL_DNS_STEER;
  assert.deepEqual(udpPlan(1, 0, 2), { threads: 2, group: 2, first: 0, steer: 'cpu' });
  // Two workers on two cores: one thread each, the second worker's socket is the group's second.
  assert.deepEqual(udpPlan(2, 1, 2), { threads: 1, group: 2, first: 1, steer: 'cpu' });
  // More processes than cores: at least a thread each, spread at random (CPU steering would starve some).
  assert.deepEqual(udpPlan(4, 3, 2), { threads: 1, group: 4, first: 3, steer: 'random' });
  // The addon's limit of 16 threads a process.
  assert.deepEqual(udpPlan(1, 0, 64), { threads: 16, group: 16, first: 0, steer: 'random' });
});

test('VIGIL_DNS_THREADS and VIGIL_DNS_STEER override the plan (the benches compare)', () => {
  process.env.VIGIL_DNS_THREADS = '1';
  process.env.VIGIL_DNS_STEER = 'hash';
  try {
    assert.deepEqual(udpPlan(1, 0, 2), { threads: 1, group: 1, first: 0, steer: 'hash' });
  } finally {
    delete process.env.VIGIL_DNS_THREADS;
    delete process.env.VIGIL_DNS_STEER;
  }
});

test('clearZones removes the replies of the zones named and keeps every other one findable', {
  skip: fastUdpAvailable() ? false : 'the native UDP I/O is not built',
}, async () => {
  const misses = new Set<number>();
  const fast = openFastUdp('127.0.0.1', 0, { threads: 1, group: 1, first: -1, steer: 'hash' }, (msg) =>
    misses.add(msg.readUInt16BE(0)),
  );
  const client = createSocket('udp4');
  try {
    fast.rateLimit(0, 2, []);
    // 3,000 questions of 60 zones (and some of no zone), stored in an order that mixes the zones in each
    // probe run: removing one zone's entries moves others back into the holes (backward-shift deletion).
    const zoneOf = (i: number) => (i % 61 === 60 ? '' : `z${i % 61}.example`);
    const query = (i: number) =>
      dnsPacket.encode({ type: 'query', id: i, questions: [{ type: 'A', name: `h${i}.${zoneOf(i) || 'none'}` }] });
    for (let i = 0; i < 3000; i++)
      fast.store(query(i), Buffer.concat([query(i), Buffer.from([i & 255])]), 'k', zoneOf(i));
    const gone = new Set(['z3.example', 'z17.example', 'z40.example', '']);
    const removed = fast.clearZones([...gone]);
    const expected = Array.from({ length: 3000 }, (_, i) => i).filter((i) => gone.has(zoneOf(i)));
    assert.equal(removed, expected.length);
    assert.equal(fast.stats().entries, 3000 - expected.length);
    // Every question is asked again: the removed ones reach JavaScript, every other one is answered from the cache.
    const answered = new Set<number>();
    client.on('message', (m) => answered.add(m.readUInt16BE(0)));
    // In batches of 100: 3,000 replies at once would overflow the client's receive buffer.
    for (let from = 0; from < 3000; from += 100) {
      for (let i = from; i < from + 100; i++) client.send(query(i), fast.port, '127.0.0.1');
      await eventually(async () => answered.size + misses.size >= from + 100, `questions ${from}-${from + 99}`);
    }
    assert.deepEqual(
      [...misses].sort((a, b) => a - b),
      expected,
    );
    assert.equal(answered.size, 3000 - expected.length);
  } finally {
    client.close();
    fast.close();
  }
});
