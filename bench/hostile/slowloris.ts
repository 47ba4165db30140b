/**
 * Slowloris benchmark (issue 12, item 3): a bounded, loopback-only flood of
 * slow connections against bin/vigil serve, on its default limits, while
 * a normal client from another loopback address keeps calling. Measures
 * how many slow connections the server kept, how many file descriptors it
 * used, and whether (and how fast) the normal client was still served.
 *
 * Slow API connections complete the TLS handshake and then trickle their
 * request head one byte every 5 s (the attack); slow DNS
 * connections trickle a query the same way. The attackers use
 * 127.0.0.1 .. 127.0.0.K, the normal client 127.0.0.200.
 *
 *   node --import tsx bench/hostile/slowloris.ts [--connections 400] [--addresses 1] [--seconds 10]
 * [--server-fd-limit N]
 *
 * --server-fd-limit starts the server under `prlimit --nofile=N:N` (the
 * issue's run had a low descriptor limit; this machine's may be high).
 *
 * Stops by itself: at most 2000 slow connections per protocol, 60 s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { queryPacket } from '../../test/helpers/dns-client.ts';
import { heard, open, postHead, type RawConnection, type Target } from '../../test/helpers/raw.ts';
import { freePort, tempDir, VIGIL } from '../../test/helpers/server.ts';

const arg = (name: string, def: number, max: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : def;
  if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`--${name} must be 1 to ${max}`);
  return v;
};
const connections = arg('connections', 400, 2000);
const addresses = arg('addresses', 1, 100);
const seconds = arg('seconds', 10, 60);
const fdLimit = process.argv.includes('--server-fd-limit') ? arg('server-fd-limit', 1024, 1 << 20) : null;
const NORMAL = '127.0.0.200';
const TRICKLE_MS = 5_000;

/**
 * bin/vigil serve on free loopback ports, its defaults otherwise; under prlimit when asked (prlimit execs it:
 * same pid).
 */
async function startServer() {
  const dataDir = tempDir('vigil-bench-');
  const [https, http, dnsPort] = [await freePort(), await freePort(), await freePort()];
  const args = [
    'serve',
    '--data',
    dataDir,
    '--https-port',
    String(https),
    '--http-port',
    String(http),
    '--dns-port',
    String(dnsPort),
    '--forward-port',
    '0',
  ];
  const [cmd, argv] = fdLimit ? ['prlimit', [`--nofile=${fdLimit}:${fdLimit}`, VIGIL, ...args]] : [VIGIL, args];
  const proc = spawn(cmd, argv as string[], {
    env: { ...process.env, VIGIL_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  while (!out.includes('vigil ready')) {
    if (proc.exitCode !== null) throw new Error(`vigil exited ${proc.exitCode}`);
    await sleep(50);
  }
  const stop = async () => {
    if (proc.exitCode === null) {
      proc.kill('SIGTERM');
      await once(proc, 'exit');
    }
  };
  return {
    pid: proc.pid!,
    stop,
    tls: { port: https, ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8') },
    dns: { port: dnsPort },
  };
}

const s = await startServer();
const tls: Target = s.tls;
const dns: Target = s.dns;
const fds = () => readdirSync(`/proc/${s.pid}/fd`).length;
const slow: RawConnection[] = [];
const timers: NodeJS.Timeout[] = [];

function percentile(sorted: number[], p: number): number | null {
  return sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10
    : null;
}

/** One normal API call on a fresh connection (handshake included): ms, or null when refused or unanswered. */
async function apiProbe(): Promise<number | null> {
  const started = performance.now();
  const conn = await open({ ...tls, localAddress: NORMAL }).catch(() => null);
  if (!conn) return null;
  conn.socket.write(`${postHead('/api/auth.php', 8, 'Connection: close\r\n')}apikey=x`);
  const { data } = await Promise.race([conn.closed, sleep(5_000).then(() => ({ data: Buffer.alloc(0) }))]);
  conn.socket.destroy();
  return data.includes('invalid apikey format') ? performance.now() - started : null;
}

/** One DNS query over a fresh TCP connection: ms, or null. */
async function dnsProbe(): Promise<number | null> {
  const started = performance.now();
  const conn = await open({ ...dns, localAddress: NORMAL }).catch(() => null);
  if (!conn) return null;
  const q = queryPacket('example.invalid', 'A');
  conn.socket.write(Buffer.concat([Buffer.from([q.length >> 8, q.length & 0xff]), q]));
  const got = await Promise.race([heard(conn), sleep(5_000).then(() => false)]);
  conn.socket.destroy();
  return got ? performance.now() - started : null;
}

/** Probes both protocols every 100 ms for `ms`. */
async function probe(ms: number) {
  const api: (number | null)[] = [];
  const dnsTimes: (number | null)[] = [];
  // When each protocol first served the normal client, from the start of this phase.
  const first: { api: number | null; dns: number | null } = { api: null, dns: null };
  const start = performance.now();
  for (const end = Date.now() + ms; Date.now() < end; ) {
    api.push(await apiProbe());
    if (first.api === null && api.at(-1) !== null) first.api = Math.round(performance.now() - start);
    dnsTimes.push(await dnsProbe());
    if (first.dns === null && dnsTimes.at(-1) !== null) first.dns = Math.round(performance.now() - start);
    await sleep(100);
  }
  const sum = (xs: (number | null)[], firstMs: number | null) => {
    const ok = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
    return {
      calls: xs.length,
      served: ok.length,
      firstServedAfterMs: firstMs,
      p50ms: percentile(ok, 50),
      p99ms: percentile(ok, 99),
      maxMs: percentile(ok, 100),
    };
  };
  return { api: sum(api, first.api), dns: sum(dnsTimes, first.dns) };
}

/** Opens `connections` slow connections to `target`, each trickling `bytes`; counts what the server kept. */
async function flood(target: Target, bytes: Buffer) {
  const started = slow.length;
  const opened = await Promise.all(
    Array.from({ length: connections }, (_, i) =>
      open({ ...target, localAddress: `127.0.0.${1 + (i % addresses)}` }).catch(() => null),
    ),
  );
  for (const conn of opened) {
    if (!conn) continue;
    slow.push(conn);
    let at = 0;
    const drip = () => conn.socket.destroyed || conn.socket.write(bytes.subarray(at, ++at));
    drip();
    timers.push(setInterval(drip, TRICKLE_MS));
  }
  // Refused connections are closed by the server right after the connect: give that a moment to show.
  await sleep(1_000);
  const kept = slow.slice(started).filter((c) => !c.socket.destroyed && !c.socket.readableEnded).length;
  return { attempted: connections, kept, refused: connections - kept };
}

try {
  const fdsIdle = fds();
  const before = await probe(2_000);
  const api = await flood(tls, Buffer.from(postHead('/api/auth.php', 0, `X-Slow: ${'a'.repeat(200)}\r\n`)));
  const dnsFlood = await flood(dns, Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.alloc(1000)]));
  const fdsUnderAttack = fds();
  const during = await probe(seconds * 1000);
  console.log(
    JSON.stringify(
      {
        settings: {
          connectionsPerProtocol: connections,
          attackerAddresses: addresses,
          seconds,
          serverFdLimit: fdLimit ?? 'inherited',
        },
        slow: { api, dns: dnsFlood },
        serverFds: { idle: fdsIdle, underAttack: fdsUnderAttack },
        normalClient: { before, during },
      },
      null,
      2,
    ),
  );
} finally {
  timers.forEach(clearInterval);
  slow.forEach((c) => c.socket.destroy());
  await s.stop();
}
