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

test('a held host is probed only once discovery admits it; a skipped one is neither probed nor reported', () => {
  const probed: number[] = [];
  const reported: number[] = [];
  const done: number[] = [];
  const engine = new ScanEngine(
    [
      { address: '198.18.1.1', held: true },
      { address: '198.18.1.2', held: true },
    ],
    [1, 2],
    options,
    {
      connect(slot, host) {
        probed.push(host);
        done.push(slot, -111);
        return PENDING;
      },
      cancel() {},
    },
    (i) => reported.push(i),
  );
  const step = (now: number) => {
    engine.pump(now);
    while (done.length) engine.complete(done.shift()!, done.shift()!, now);
  };
  step(0);
  assert.deepEqual(probed, [], 'nothing is probed before discovery says');
  engine.admit(1, { srtt: 20, rttvar: 5 });
  step(10);
  assert.deepEqual(probed, [1, 1]);
  assert.deepEqual(reported, [1]);
  assert.equal(engine.finished, false, 'host 0 still waits for discovery');
  engine.skip(0);
  assert.equal(engine.finished, true);
  assert.deepEqual(reported, [1], 'the down host is reported by discovery, not here');
  assert.equal(engine.results()[1]!.srtt !== null, true);
});

test('an address with nothing measured waits as long as the answering ones took (group timing), not the initial timeout', () => {
  // Host 0 answers every port in 20 ms; host 1 never answers. The initial timeout is 1 s.
  const slow = { ...options, initialTimeoutMs: 1000, minTimeoutMs: 50, maxTimeoutMs: 1000 };
  const ended = new Map<number, number>();
  const pending: [number, number, number][] = [];
  let now = 0;
  const engine = new ScanEngine(
    [{ address: '198.18.1.1' }, { address: '198.18.1.2' }],
    range(8),
    slow,
    {
      connect(slot, host) {
        if (host === 0) pending.push([now + 20, slot, -111]);
        return PENDING;
      },
      cancel() {},
    },
    (i) => ended.set(i, now),
  );
  for (; !engine.finished && now < 60_000; now += 5) {
    engine.pump(now);
    for (const p of pending.filter(([at]) => at <= now)) {
      pending.splice(pending.indexOf(p), 1);
      engine.complete(p[1], p[2], now);
    }
    engine.expire(now);
  }
  assert.equal(engine.results()[1]!.filtered, 8);
  // One try at the group's timeout (50 ms floor) and one retry at twice that: well under the first 1 s wait.
  assert.ok(ended.get(1)! < 1000, `the silent address ended at ${ended.get(1)} ms of the engine's clock`);
});
