import assert from 'node:assert/strict';
import { test } from 'node:test';
import { udpPlan } from './udp-fast.ts';

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
