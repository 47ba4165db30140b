/**
 * Discovery and adaptive timing across a small emulated WAN (issue 26):
 * two network namespaces of the test's own joined by TUN devices and
 * bench/wan/tunfwd.c at 10 ms RTT, no default route in either (printed).
 * Results are asserted, never times. Needs root, ip(8), /dev/net/tun and
 * cc: without them the test says why and skips.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createWan, runIn, type Wan, wanUnsupported } from '../../../../bench/wan/netns.ts';
import type { HostScan } from './scan.ts';

const NET = '198.18.1';
const WEB = `${NET}.10`; // answers pings; HTTP 80, SSH 22; 8443 filtered; the rest RST
const DEAF = `${NET}.11`; // ignores pings; SMTP 25
const WALL = `${NET}.12`; // drops everything but TCP 443 (TLS)
const DEAD = `${NET}.13`; // nobody there
const PORTS = [...Array.from({ length: 200 }, (_, i) => i + 1), 443, 3389, 8080, 8443];

let wan: Wan | null = null;
after(() => wan?.close());

async function scan(w: Wan, addresses: string[], ports: number[], discovery: boolean, syn = true): Promise<HostScan[]> {
  const script = new URL('../../../../bench/wan/vigil-scan.ts', import.meta.url).pathname;
  const out = await runIn(w, w.scanNs, process.execPath, [
    '--import',
    'tsx',
    script,
    JSON.stringify({ addresses, ports, discovery, syn }),
  ]);
  return (JSON.parse(out.trim().split('\n').pop()!) as { hosts: HostScan[] }).hosts;
}

test('a small WAN: live, ping-deaf, firewalled and dead hosts; open, closed and filtered ports', async (t) => {
  const why = wanUnsupported();
  if (why) return t.skip(`no emulated WAN here: ${why}`);
  const id = `t${process.pid % 100000}`;
  wan = await createWan({
    id,
    delayMs: 5,
    jitterMs: 1,
    loss: 0,
    rules: [`f:${WEB}:8443`, `d:${DEAF}`, `o:${WALL}:443`],
    targets: [WEB, DEAF, WALL],
  });
  t.diagnostic(`routes (no default route, no other interface):\n${wan.routes()}`);
  assert.doesNotMatch(wan.routes(), /^default/m);
  const targets = JSON.stringify([
    {
      address: WEB,
      services: [
        { port: 80, kind: 'http' },
        { port: 22, kind: 'ssh' },
        { port: 8443, kind: 'http' },
      ],
    },
    { address: DEAF, services: [{ port: 25, kind: 'smtp' }] },
    { address: WALL, services: [{ port: 443, kind: 'tls' }] },
  ]);
  const servers = wan.spawnIn(wan.targetNs, process.execPath, [
    '--import',
    'tsx',
    new URL('../../../../bench/wan/targets.ts', import.meta.url).pathname,
    targets,
  ]);
  await new Promise<void>((resolve, reject) => {
    servers.stdout!.once('data', () => resolve());
    servers.once('exit', (code) => reject(new Error(`targets exited (${code})`)));
  });

  const hosts = await scan(wan, [WEB, DEAF, WALL, DEAD], PORTS, true);
  const by = new Map(hosts.map((h) => [h.address, h]));
  const web = by.get(WEB)!;
  const deaf = by.get(DEAF)!;
  const wall = by.get(WALL)!;
  const dead = by.get(DEAD)!;
  assert.deepEqual(
    hosts.map((h) => [h.address, h.up]),
    [
      [WEB, true],
      [DEAF, true],
      [WALL, true],
      [DEAD, false],
    ],
  );
  // The ping-deaf hosts were found by their open common port, not by ICMP.
  assert.equal(deaf.reason, 'tcp');
  assert.equal(wall.reason, 'tcp');
  assert.ok(web.reason === 'icmp' || web.reason === 'tcp');
  assert.equal(dead.reason, null);
  assert.deepEqual(web.open, [22, 80]);
  assert.equal(web.filtered, 1, 'port 8443 is filtered');
  assert.equal(web.closed, PORTS.length - 3);
  assert.deepEqual(deaf.open, [25]);
  assert.equal(deaf.closed, PORTS.length - 1);
  assert.deepEqual(wall.open, [443]);
  assert.equal(wall.closed, 0);
  assert.equal(wall.filtered, PORTS.length - 1, 'everything else is dropped');
  for (const h of [web, deaf, wall]) {
    assert.equal(h.portsScanned, PORTS.length);
    assert.equal(h.dropped, false);
    assert.ok(h.rttMs !== null, `${h.address} has a measured RTT`);
  }
  assert.equal(dead.portsScanned, 0);

  // Full connects instead of SYN probes (a process without a raw socket): the same answers.
  const connects = await scan(wan, [WEB, WALL, DEAD], [22, 80, 443, 8443], true, false);
  assert.deepEqual(
    connects.map((h) => [h.address, h.up, h.open, h.filtered]),
    [
      [WEB, true, [22, 80], 1],
      [WALL, true, [443], 3],
      [DEAD, false, [], 0],
    ],
  );

  // -Pn: discovery skipped, the dead address is scanned and all it gives is silence.
  const pn = await scan(wan, [WEB, DEAD], [22, 80, 8443], false);
  assert.deepEqual(
    pn.map((h) => [h.address, h.up, h.reason, h.open, h.filtered]),
    [
      [WEB, true, 'assumed', [22, 80], 1],
      [DEAD, true, 'assumed', [], 3],
    ],
  );
});
