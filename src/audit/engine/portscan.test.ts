import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { after, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { Fence, FenceError } from './fence.ts';
import { scanPorts } from './portscan.ts';
import { OPEN, PENDING, ScanEngine } from './scan/engine.ts';
import { portsFor, usualService } from './ports.ts';

const fence = new Fence(['127.0.0.1', '127.0.0.3'], ['127.0.0.0/8']);
const servers: Server[] = [];
after(() => servers.forEach((s) => s.close()));

async function listen(host = '127.0.0.1'): Promise<number> {
  const s = createServer((c) => c.destroy());
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, host, r));
  return (s.address() as { port: number }).port;
}

/** Ports around the listeners that nothing listens on (checked by the test itself). */
function rangeAround(open: number[], span = 400): number[] {
  const lo = Math.max(1, Math.min(...open) - span);
  const hi = Math.min(65535, Math.max(...open) + span);
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

test('finds exactly the open ports among closed ones (fast path, one thread and threads)', async () => {
  const open = await Promise.all(Array.from({ length: 20 }, () => listen('127.0.0.3')));
  open.sort((a, b) => a - b);
  const ports = rangeAround(open).filter((p) => p % 7 !== 0 || open.includes(p));
  for (const threads of [1, 2]) {
    // threads: 2 with few ports still scans in-thread; force the split with a big set.
    const list =
      threads === 2
        ? [...ports, ...Array.from({ length: 5000 }, (_, i) => 1000 + i).filter((p) => !ports.includes(p))]
        : ports;
    const found = await scanPorts({ fence, address: '127.0.0.3' }, list, { threads });
    // Other processes may listen on 127.0.0.3 wildcard ports; ours must all be there.
    assert.deepEqual(
      found.filter((p) => ports.includes(p)),
      open.filter((p) => ports.includes(p)),
    );
  }
});

test('the plain Net path (fence.net) finds the same ports', async () => {
  const open = await Promise.all(Array.from({ length: 5 }, () => listen('127.0.0.3')));
  const ports = rangeAround(open, 50);
  const found = await scanPorts(fence.net('127.0.0.3'), ports, { concurrency: 64 });
  for (const p of open) assert.ok(found.includes(p), `port ${p}`);
  assert.deepEqual(
    found,
    [...found].sort((a, b) => a - b),
  );
});

test('an address outside the fence is refused before any socket', async () => {
  await assert.rejects(scanPorts({ fence, address: '127.0.0.9' }, [80]), FenceError);
  await assert.rejects(scanPorts({ fence, address: '192.0.2.1' }, portsFor('advanced')), FenceError);
  assert.throws(() => fence.net('10.0.0.1'), FenceError);
});

test('an aborted signal stops the scan', async () => {
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(scanPorts({ fence, address: '127.0.0.1' }, [1, 2, 3], { signal: ac.signal }));
  const ac2 = new AbortController();
  const p = scanPorts({ fence, address: '127.0.0.1' }, portsFor('advanced'), { signal: ac2.signal });
  ac2.abort();
  await assert.rejects(p);
});

test('a port that never answers is retried, then left out, without hanging', async () => {
  // A listener whose thread never accepts: once its backlog is full the
  // kernel drops further SYNs, so a connect there just waits (filtered-like).
  const src = `
    const { parentPort } = require('node:worker_threads');
    const s = require('node:net').createServer();
    const lock = new Int32Array(new SharedArrayBuffer(4));
    s.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {
      parentPort.postMessage({ port: s.address().port, lock });
      Atomics.wait(lock, 0, 0, 20000);
      process.exit(0);
    });`;
  const w = new Worker(src, { eval: true, execArgv: [] });
  const { port, lock } = await new Promise<{ port: number; lock: Int32Array }>((r) => w.once('message', r));
  const held: Socket[] = [];
  try {
    for (let i = 0; i < 2; i++)
      held.push(
        await new Promise<Socket>((r, j) => {
          const s = connect(port, '127.0.0.1', () => r(s));
          s.once('error', j);
        }),
      );
    const other = await listen();
    const found = await scanPorts({ fence, address: '127.0.0.1' }, [port, other], {
      initialTimeoutMs: 150,
      minTimeoutMs: 50,
      maxTimeoutMs: 150,
      retries: 1,
    });
    assert.ok(!found.includes(port));
    assert.ok(found.includes(other));
  } finally {
    held.forEach((s) => s.destroy());
    Atomics.store(lock, 0, 1);
    Atomics.notify(lock, 0);
    await w.terminate();
  }
});

/**
 * Drives an engine on its own clock, 50 ms a round (past any attempt-0 timeout): port 2 never answers, 3 is
 * open, the others refuse; `late` answers only its second attempt. Returns each port's attempts.
 */
function attemptsOf(late: number | null) {
  const attempts = new Map<number, number>();
  const done: number[] = [];
  const probes = {
    connect(slot: number, _host: number, port: number) {
      const n = (attempts.get(port) ?? 0) + 1;
      attempts.set(port, n);
      if (port !== 2 && (port !== late || n > 1)) done.push(slot, port === 3 ? OPEN : -111);
      return PENDING;
    },
    cancel() {},
  };
  const opts = {
    budget: 8,
    perHost: 8,
    burst: 8,
    initialTimeoutMs: 40,
    minTimeoutMs: 20,
    maxTimeoutMs: 40,
    retries: 2,
  };
  const engine = new ScanEngine([{ address: '127.0.0.1' }], [1, 2, 3, 4], opts, probes);
  for (let now = 0; !engine.finished && now < 10_000; now += 50) {
    engine.pump(now);
    while (done.length) engine.complete(done.shift()!, done.shift()!, now);
    engine.expire(now + 49);
  }
  const [r] = engine.results();
  assert.deepEqual(r!.open, [3]);
  assert.equal(r!.filtered, 1);
  assert.equal(r!.closed, 2);
  return [...attempts].sort((a, b) => a[0] - b[0]);
}

test('scan loop: a silent port gets one retry, `retries` once the host needed one, then a last look', () => {
  // The host answers every port at once: its silent port is filtered, not lost (nmap's allowedTryno).
  assert.deepEqual(attemptsOf(null), [
    [1, 1],
    [2, 3], // 1 + 1 retry + the last look
    [3, 1],
    [4, 1],
  ]);
  // Port 4 answered only its retry: this host loses packets, so its silent port gets every retry.
  assert.deepEqual(attemptsOf(4), [
    [1, 1],
    [2, 4], // 1 + 2 retries + the last look
    [3, 1],
    [4, 2],
  ]);
});

test('port sets per audit type and usual services', () => {
  assert.equal(portsFor('basic').length, 100);
  // nmap's top 1000 plus the checked ports it lacks (databases, brokers, agents, MQTT, 2525, Privoxy, job queues,
  // Varnish's CLI, ZooKeeper).
  assert.equal(portsFor('standard').length, 1044);
  for (const p of [
    6379, 11211, 27017, 27018, 2323, 2525, 9200, 1883, 2379, 5672, 10050, 15672, 15692, 61616, 8118, 4730, 6082, 11300,
    2181, 7505, 8953, 9051, 6600, 9093, 9094, 4200, 7681, 9191, 10809, 2019, 9901,
  ])
    assert.ok(portsFor('standard').includes(p), String(p));
  assert.deepEqual(portsFor('norisk'), portsFor('standard'));
  assert.equal(portsFor('advanced').length, 65535);
  for (const p of [135, 139, 445, 3389, 5900, 5910, 22, 80]) assert.ok(portsFor('desktop').includes(p), String(p));
  assert.ok(portsFor('basic').every((p) => portsFor('desktop').includes(p) && portsFor('standard').includes(p)));
  assert.equal(usualService(22), 'ssh');
  assert.equal(usualService(443), 'https');
  assert.equal(usualService(3389), 'ms-wbt-server');
  assert.equal(usualService(64999), 'unknown');
});

/**
 * The phantom ports of issue 14: in a network namespace of its own whose
 * only ephemeral port is 40000 (net.ipv4.ip_local_port_range is per
 * namespace), a connect to 127.0.0.1:40000 must use 40000 as its source
 * port and meets itself (TCP simultaneous open). Without the fix both paths
 * reported 40000 open; nothing listens there.
 */
test('a TCP self-connect is not an open port (fast path and Net path)', async (t) => {
  const { spawnSync } = await import('node:child_process');
  if (process.getuid?.() !== 0 || spawnSync('unshare', ['--help']).status !== 0)
    return t.skip('needs root and unshare(1) for a network namespace');
  const engine = new URL('.', import.meta.url).pathname;
  for (const path of ['fast', 'net']) {
    const target = path === 'fast' ? "{ fence: f, address: '127.0.0.1' }" : "f.net('127.0.0.1')";
    const code = `const { scanPorts } = await import('${engine}portscan.ts'); const { Fence } = await import('${engine}fence.ts');
      const f = new Fence(['127.0.0.1'], ['127.0.0.0/8']); console.log(JSON.stringify(await scanPorts(${target}, [40000], { threads: 1 })));`;
    const sh = `ip link set lo up && sysctl -qw net.ipv4.ip_local_port_range='40000 40000' && exec "$0" --import tsx --input-type=module -e "$1"`;
    const r = spawnSync('unshare', ['-n', 'sh', '-c', sh, process.execPath, code], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.status !== 0 && /unshare failed|Operation not permitted/.test(r.stderr))
      return t.skip(`no network namespace here: ${r.stderr.trim()}`);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').pop()!), [], `${path} path`);
  }
});
