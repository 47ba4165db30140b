import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { Fence } from '../fence.ts';
import { runAudit } from '../run.ts';
import { scanHosts } from './scan.ts';

// On loopback every address answers (a RST at least), so nothing is down
// here: down hosts, filtered ports and ping-deaf hosts are in netns.test.ts.

test('discovery on loopback: every address is up, with a measured RTT; off, each is assumed up', async () => {
  const server = createServer((s) => s.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.4.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    const addresses = ['127.0.4.1', '127.0.4.2'];
    const fence = new Fence(addresses, ['127.0.0.0/8']);
    const on = await scanHosts(fence, addresses, [port, port + 1]);
    assert.deepEqual(
      on.map((h) => [h.address, h.up, h.open, h.closed, h.filtered, h.portsScanned]),
      [
        ['127.0.4.1', true, [port], 1, 0, 2],
        ['127.0.4.2', true, [], 2, 0, 2],
      ],
    );
    for (const h of on) {
      assert.ok(h.reason === 'icmp' || h.reason === 'tcp', String(h.reason));
      assert.ok(h.rttMs !== null);
    }
    const off = await scanHosts(fence, addresses, [port], { discovery: false });
    assert.deepEqual(
      off.map((h) => [h.up, h.reason]),
      [
        [true, 'assumed'],
        [true, 'assumed'],
      ],
    );
  } finally {
    server.close();
  }
});

test('the audit takes the discovery switch through: its hosts carry what the scan saw', async () => {
  const addresses = ['127.0.4.3'];
  const fence = new Fence(addresses, ['127.0.0.0/8']);
  for (const discovery of [true, false]) {
    const result = await runAudit({ type: 'basic', excludedos: false, addresses, ports: [1], discovery }, fence);
    const scan = result.hosts[0]!.scan!;
    assert.equal(scan.up, true);
    assert.equal(scan.reason === 'assumed', !discovery);
    assert.equal(scan.portsScanned, 1);
  }
});
