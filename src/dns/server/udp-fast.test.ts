import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import dnsPacket from 'dns-packet';
import { hasTool } from '../../../test/helpers/tools.ts';
import { eventually } from '../../../test/helpers/wait.ts';
import { fastUdpAvailable, openFastUdp, SPIN_US, udpPlan } from './udp-fast.ts';

test('udpPlan shares the cores out: a thread per core, CPU steering when the sockets match the cores', () => {
  delete process.env.VIGIL_DNS_THREADS;
  delete process.env.VIGIL_DNS_STEER;
  delete process.env.VIGIL_DNS_SPIN_US;
  const spinUs = SPIN_US;
  assert.deepEqual(udpPlan(1, 0, 2), { threads: 2, group: 2, first: 0, steer: 'cpu', spinUs });
  // Two workers on two cores: one thread each, the second worker's socket is the group's second.
  assert.deepEqual(udpPlan(2, 1, 2), { threads: 1, group: 2, first: 1, steer: 'cpu', spinUs });
  // More processes than cores: at least a thread each, spread at random (CPU steering would starve some).
  assert.deepEqual(udpPlan(4, 3, 2), { threads: 1, group: 4, first: 3, steer: 'random', spinUs });
  // The addon's limit of 16 threads a process.
  assert.deepEqual(udpPlan(1, 0, 64), { threads: 16, group: 16, first: 0, steer: 'random', spinUs });
});

test('VIGIL_DNS_THREADS, VIGIL_DNS_STEER and VIGIL_DNS_SPIN_US override the plan (the benches compare)', () => {
  process.env.VIGIL_DNS_THREADS = '1';
  process.env.VIGIL_DNS_STEER = 'hash';
  process.env.VIGIL_DNS_SPIN_US = '50';
  try {
    assert.deepEqual(udpPlan(1, 0, 2), { threads: 1, group: 1, first: 0, steer: 'hash', spinUs: 50 });
  } finally {
    delete process.env.VIGIL_DNS_THREADS;
    delete process.env.VIGIL_DNS_STEER;
    delete process.env.VIGIL_DNS_SPIN_US;
  }
});

test('clearZones removes the replies of the zones named and keeps every other one findable', {
  skip: fastUdpAvailable() ? false : 'the native UDP I/O is not built',
}, async () => {
  const misses = new Set<number>();
  // spinUs 50: the receive thread polls before it sleeps (off by default), the answers are the same.
  const fast = openFastUdp('127.0.0.1', 0, { threads: 1, group: 1, first: -1, steer: 'hash', spinUs: 50 }, (msg) =>
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

/** The CPUs this process may run on, from /proc (e.g. "0-1,4"). */
function allowedCpus(): number[] {
  const list = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]!;
  return list.split(',').flatMap((part) => {
    const [a, b = a] = part.split('-').map(Number);
    return Array.from({ length: b! - a! + 1 }, (_, i) => a! + i);
  });
}

/*
 * In a child node (plain, no tsx: it only loads the addon), two receive threads under CPU steering: the CPUs
 * each may run on, read at once (affinity is set before a thread starts), and their states once they sleep.
 */
const CHILD = String.raw`
const { readdirSync, readFileSync } = require('node:fs');
const a = require(process.argv[1]);
const before = new Set(readdirSync('/proc/self/task'));
const h = a.open('127.0.0.1', 0, 2, () => {}, 1 << 20, 1, 2, 0, Number(process.argv[2]));
const mine = readdirSync('/proc/self/task').filter((t) => !before.has(t));
const field = (t, f) => new RegExp(f + ':\\s*(\\S+)').exec(readFileSync('/proc/self/task/' + t + '/status', 'utf8'))[1];
const cpus = mine.map((t) => field(t, 'Cpus_allowed_list'));
let states = [];
for (let i = 0; i < 1000 && !(states.length && states.every((s) => s === 'S')); i++) {
  states = mine.map((t) => field(t, 'State'));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
}
a.close(h);
console.log(JSON.stringify({ cpus: cpus.sort(), states }));
`;

test('receive threads start on CPUs the process may use, never outside its taskset, and idle ones sleep', {
  skip:
    !fastUdpAvailable() || !hasTool('taskset') || allowedCpus().length < 2
      ? 'needs the native UDP I/O, taskset and two CPUs'
      : false,
}, () => {
  const addon = resolve(import.meta.dirname, '../../../build/Release/udp_fast.node');
  const child = (prefix: string[]): { cpus: string[]; states: string[] } => {
    // Polling 50 µs before sleeping (VIGIL_DNS_SPIN_US, off by default): the threads still end up asleep.
    const [cmd, ...args] = [...prefix, process.execPath, '-e', CHILD, addon, '50'];
    return JSON.parse(execFileSync(cmd!, args, { encoding: 'utf8' }));
  };
  const [first, second] = allowedCpus();
  // Free to run anywhere: thread i on the i-th CPU it may use (the CPU whose datagrams its socket gets).
  assert.deepEqual(child([]), { cpus: [String(first), String(second)].sort(), states: ['S', 'S'] });
  // Under taskset -c <one CPU>: both on that CPU (before issue 32's fix thread 0 went to CPU 0 whatever the set).
  const last = String(allowedCpus().at(-1));
  assert.deepEqual(child(['taskset', '-c', last]), { cpus: [last, last], states: ['S', 'S'] });
});
