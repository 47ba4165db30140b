import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type EngineOptions, OPEN, PENDING, ScanEngine } from './engine.ts';

// The scan loop's rules on their own, on the engine's own clock (no sockets,
// no sleeping): a host that goes away is given up, a firewall that drops all
// but its open ports is not. The real sockets are in portscan.test.ts and,
// across an emulated WAN, in netns.test.ts.

const options: EngineOptions = {
  budget: 64,
  perHost: 16,
  burst: 64,
  initialTimeoutMs: 100,
  minTimeoutMs: 100,
  maxTimeoutMs: 100,
  retries: 1,
};

/** Drives the engine in 10 ms steps; `answer(port, now)` is the host's reply (null: silence). */
function run(ports: number[], answer: (port: number, now: number) => number | null) {
  const done: number[] = [];
  const engine = new ScanEngine([{ address: '198.18.1.1' }], ports, options, {
    connect(slot, _host, port) {
      const a = answer(port, now);
      if (a !== null) done.push(slot, a);
      return PENDING;
    },
    cancel() {},
  });
  let now = 0;
  for (; !engine.finished && now < 600_000; now += 10) {
    engine.pump(now);
    while (done.length) engine.complete(done.shift()!, done.shift()!, now + 5);
    engine.expire(now + 10);
  }
  return engine.results()[0]!;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

test('a host that answered with RSTs and then fell silent is given up, its unscanned ports counted', () => {
  const t = run(range(2000), (_port, now) => (now < 1000 ? -111 : null));
  assert.equal(t.dropped, true);
  assert.ok(t.closed > 0);
  assert.ok(t.left > 0, 'ports left unscanned are counted');
  assert.ok(t.closed + t.filtered + t.left <= 2000);
});

test('a firewall that drops everything but its open ports is scanned to the end, and its last open port found', () => {
  const t = run(range(3000), (port) => (port === 7 || port === 2999 ? OPEN : null));
  assert.equal(t.dropped, false);
  assert.deepEqual(t.open, [7, 2999]);
  assert.equal(t.filtered, 2998);
  assert.equal(t.closed, 0);
});

test('a port answered only late (a stalled path) is still found by the last look', () => {
  // Port 5 answers nothing for its first try (0 ms, waits 100) and its retry (~110 ms, waits 200).
  const t = run(range(10), (port, now) => (port === 5 ? (now > 300 ? OPEN : null) : -111));
  assert.deepEqual(t.open, [5]);
  assert.equal(t.filtered, 0);
});
