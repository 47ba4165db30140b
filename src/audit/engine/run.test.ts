import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { test } from 'node:test';
import { createServer as createHttp } from 'node:http';
import { wildcardListeners } from '../../../test/helpers/targets.ts';
import { buildReport } from '../report.ts';
import { Fence } from './fence.ts';
import { portsFor } from './ports.ts';
import { runAudit } from './run.ts';

test('several addresses audited at once: each host keeps its own ports, in the order asked', async () => {
  const busy = wildcardListeners();
  const ports = portsFor('basic')
    .filter((p) => p > 1024 && !busy.has(p))
    .slice(0, 6);
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
    const result = await runAudit(
      { type: 'basic', excludedos: false, addresses },
      new Fence(addresses, ['127.0.0.0/8']),
    );
    assert.deepEqual(
      result.hosts.map((h) => h.address),
      addresses,
    );
    const own = (ports: number[]) => ports.filter((p) => !busy.has(p));
    assert.deepEqual(
      result.hosts.map((h) => own(h.openPorts)),
      ports.map((p, i) => (i === 4 ? [] : [p])),
    );
    assert.deepEqual(
      result.hosts.map((h) => h.services.map((s) => s.port).filter((p) => !busy.has(p))),
      ports.map((p, i) => (i === 4 ? [] : [p])),
    );
  } finally {
    servers.forEach((s) => s.close());
  }
});

test('end to end: findings carry their QoD into the report; a Debian package judged by its revision; undecidable backports are LOG', async (t) => {
  const address = '127.0.47.22';
  // An sshd of Debian 12 at revision deb12u2 (fixed: Terrapin, CVE-2023-38408; not yet: regreSSHion,
  // CVE-2025-26465) and an Apache that says only "(Debian)".
  const ssh = createServer((s) => s.on('error', () => {}).end('SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u2\r\n'));
  const web = createHttp((_, res) =>
    res.writeHead(200, { server: 'Apache/2.4.62 (Debian)' }).end('<html>hello</html>'),
  );
  await new Promise<void>((r) => ssh.listen(22, address, r));
  await new Promise<void>((r) => web.listen(80, address, r));
  t.after(() => {
    ssh.close();
    web.close();
  });
  const result = await runAudit(
    { type: 'basic', excludedos: true, addresses: [address] },
    new Fence([address], ['127.0.0.0/8']),
  );
  const now = Date.now();
  const report = buildReport(
    {
      scanuid: 1,
      type: 'basic',
      hostip: address,
      excludedos: true,
      notification: false,
      queuedAt: now,
      startedAt: now,
      endedAt: now,
    },
    result,
    new Map(),
    () => '',
  );
  const entries = Object.values(report.entries ?? {}).flatMap((byKey) => Object.values(byKey!));
  const on = (port: number, cve: string) =>
    entries.filter((e) => e.port === String(port) && e.cve.split(',').includes(cve));
  assert.deepEqual(
    on(22, 'CVE-2024-6387').map((e) => [e.type, e.risk]),
    [['HOLE', 'high']],
  );
  assert.match(on(22, 'CVE-2024-6387')[0]!.description, /^CVE-2024-6387 .*\[distribution fix: 9\.2p1-2\+deb12u3\]$/m);
  assert.match(on(22, 'CVE-2024-6387')[0]!.description, /Quality of detection: 80%$/);
  assert.deepEqual(on(22, 'CVE-2023-48795'), []);
  const apache = entries.filter((e) => e.port === '80' && e.id === 'vigil.version.apache');
  assert.equal(apache.length, 1);
  for (const e of apache) {
    assert.deepEqual([e.type, e.risk], ['LOG', 'other'], e.id);
    assert.match(e.description, /Quality of detection: 30%$/);
  }
});

test('an old Apache with PHP on one port: one entry per outdated product, carrying every CVE (issue 15: it was 27 + 9 entries)', async (t) => {
  const address = '127.0.47.49';
  const web = createHttp((_, res) =>
    res.writeHead(200, { server: 'Apache/2.4.49 (Unix)', 'x-powered-by': 'PHP/7.4.21' }).end('<html>hello</html>'),
  );
  await new Promise<void>((r) => web.listen(80, address, r));
  t.after(() => web.close());
  const result = await runAudit(
    { type: 'basic', excludedos: true, addresses: [address] },
    new Fence([address], ['127.0.0.0/8']),
  );
  const now = Date.now();
  const report = buildReport(
    {
      scanuid: 1,
      type: 'basic',
      hostip: address,
      excludedos: true,
      notification: false,
      queuedAt: now,
      startedAt: now,
      endedAt: now,
    },
    result,
    new Map(),
    () => '',
  );
  const entries = Object.values(report.entries ?? {}).flatMap((byKey) => Object.values(byKey!));
  const version = entries.filter((e) => e.id.startsWith('vigil.version.'));
  assert.deepEqual(version.map((e) => e.id).sort(), ['vigil.version.apache', 'vigil.version.php']);
  const apache = version.find((e) => e.id === 'vigil.version.apache')!;
  assert.equal(apache.cve.split(',').length, 27);
  assert.equal(apache.risk, 'high');
  assert.match(apache.description, /^CVE-2021-41773 \(/m);
  assert.equal(version.find((e) => e.id === 'vigil.version.php')!.cve.split(',').length, 9);
});
