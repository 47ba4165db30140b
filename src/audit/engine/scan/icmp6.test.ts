/**
 * ICMPv6 echo in host discovery (native/scan-raw.c), on ::1: a raw ICMPv6
 * socket where the process has CAP_NET_RAW, else Linux's ICMPv6 datagram
 * socket where net.ipv4.ping_group_range admits its group, else none (the
 * TCP probes alone find the host). The last two run in a network namespace
 * of the test's own (ping_group_range is per namespace) without
 * CAP_NET_RAW (setpriv); without root or unshare(1) they are skipped.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { eventually } from '../../../../test/helpers/wait.ts';
import { Fence } from '../fence.ts';
import { nativeAvailable, nativeIo } from './probes.ts';
import { scanHosts } from './scan.ts';

const here = new URL('.', import.meta.url).pathname;

/** What a process sees: the ICMPv6 mode, whether ::1 answered an echo, and how discovery found it. */
const probe = `
  const { nativeIo } = await import('${here}probes.ts');
  const { scanHosts } = await import('${here}scan.ts');
  const { Fence } = await import('${here}../fence.ts');
  const io = nativeIo(16);
  const mode = io.icmp(6);
  const h = io.host('::1');
  const sent = io.ping(h, 8);
  const out = new Int32Array(64);
  let reply = null;
  for (let t = 0; t < 100 && reply === null && sent === 0; t++) {
    const n = io.poll(out, 20);
    for (let k = 0; k < n; k++) if (out[2 * k] === -1 - h) reply = out[2 * k + 1];
  }
  io.close();
  const [host] = await scanHosts(new Fence(['::1'], ['::1/128']), ['::1'], [1]);
  console.log(JSON.stringify({ mode, sent, reply, up: host.up, reason: host.reason }));
  process.exit(0);`;

test('an ICMPv6 echo to ::1 is answered, and discovery finds ::1 up', async (t) => {
  if (!nativeAvailable()) return t.skip('the scan addon is not built here (no ICMP without it)');
  const io = nativeIo(16);
  try {
    const mode = io.icmp(6);
    if (!mode) return t.skip('this process may open no ICMPv6 socket (not root, ping_group_range excludes it)');
    const h = io.host('::1');
    assert.equal(io.ping(h, 8), 0);
    assert.equal(io.ping(h, 13), -22, 'IPv6 has no timestamp request');
    const out = new Int32Array(64);
    let reply: number | null = null;
    await eventually(async () => {
      const n = io.poll(out, 0);
      for (let k = 0; k < n; k++) if (out[2 * k] === -1 - h) reply = out[2 * k + 1]!;
      return reply !== null;
    }, 'the echo reply from ::1');
    assert.equal(reply, 129, 'ICMPv6 echo reply (RFC 4443 §4.2)');
  } finally {
    io.close();
  }
  const server = createServer((s) => s.destroy());
  await new Promise<void>((r) => server.listen(0, '::1', r));
  const port = (server.address() as { port: number }).port;
  try {
    const [host] = await scanHosts(new Fence(['::1'], ['::1/128']), ['::1'], [port]);
    assert.equal(host!.up, true);
    assert.ok(host!.reason === 'icmp' || host!.reason === 'tcp', String(host!.reason));
    assert.deepEqual(host!.open, [port]);
  } finally {
    server.close();
  }
});

test('without CAP_NET_RAW: the ICMPv6 datagram socket where ping_group_range allows it, else TCP alone', (t) => {
  if (!nativeAvailable()) return t.skip('the scan addon is not built here');
  if (
    process.getuid?.() !== 0 ||
    spawnSync('unshare', ['--help']).status !== 0 ||
    spawnSync('setpriv', ['--help']).status !== 0
  )
    return t.skip('needs root, unshare(1) and setpriv(1) for a namespace without CAP_NET_RAW');
  const run = (range: string) => {
    const sh = `ip link set lo up && sysctl -qw net.ipv4.ping_group_range="${range}" && exec setpriv --bounding-set=-net_raw --inh-caps=-net_raw "$0" --import tsx --input-type=module -e "$1"`;
    const r = spawnSync('unshare', ['-n', 'sh', '-c', sh, process.execPath, probe], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
  };
  // Every group may open ping sockets: the datagram socket, whose replies the kernel routes to it. (Discovery
  // takes whichever answer comes first, the echo reply or a RST from ::1's closed ports.)
  const datagram = run('0 2147483647');
  assert.deepEqual(datagram, { mode: 'datagram', sent: 0, reply: 129, up: true, reason: datagram.reason });
  assert.ok(datagram.reason === 'icmp' || datagram.reason === 'tcp', String(datagram.reason));
  // Debian's default, nobody may: no ICMPv6 at all, and ::1 is still found, by its RST.
  assert.deepEqual(run('1 0'), { mode: null, sent: -22, reply: null, up: true, reason: 'tcp' });
});
