import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { test } from 'node:test';
import { wildcardListeners } from '../../../test/helpers/targets.ts';
import { Fence } from './fence.ts';
import { portsFor } from './ports.ts';
import { runAudit } from './run.ts';

test('several addresses audited at once: each host keeps its own ports, in the order asked', async () => {
  const busy = wildcardListeners();
  const ports = portsFor('basic').filter((p) => p > 1024 && !busy.has(p)).slice(0, 6);
  const addresses = ports.map((_, i) => `127.0.3.${i + 1}`);
  // Address i listens on ports[i] only (and address 4 on nothing), so a mix-up between concurrent hosts shows.
  const servers: Server[] = [];
  for (const [i, address] of addresses.entries()) {
    if (i === 4) continue;
    const server = createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(ports[i], address, r));
    servers.push(server);
  }
  try {
    const result = await runAudit({ type: 'basic', excludedos: false, addresses }, new Fence(addresses, ['127.0.0.0/8']));
    assert.deepEqual(result.hosts.map((h) => h.address), addresses);
    const own = (ports: number[]) => ports.filter((p) => !busy.has(p));
    assert.deepEqual(result.hosts.map((h) => own(h.openPorts)), ports.map((p, i) => (i === 4 ? [] : [p])));
    assert.deepEqual(result.hosts.map((h) => h.services.map((s) => s.port).filter((p) => !busy.has(p))), ports.map((p, i) => (i === 4 ? [] : [p])));
  } finally {
    servers.forEach((s) => s.close());
  }
});
