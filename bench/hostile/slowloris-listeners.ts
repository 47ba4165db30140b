/**
 * The red team's attacks of issue 28 on the web forwarder and the metrics
 * listener, as a bounded loopback bench: N slow connections (one byte of a
 * request head every 5 s) to one of them from K attacker addresses
 * (127.0.0.1 .. 127.0.0.K), while a normal client on 127.0.0.200 makes a
 * fresh API call (TLS handshake included), a fresh DNS-over-TCP query, a
 * fresh forwarder GET and a fresh metrics /healthz every 100 ms. Measures
 * how many slow connections the server kept, its file descriptors, and
 * whether each listener still served the normal client.
 *
 *   node --import tsx bench/hostile/slowloris-listeners.ts --target forward|metrics [--connections 150]
 *     [--addresses 1] [--seconds 10] [--server-fd-limit N] [--vigil PATH]
 *
 * --server-fd-limit runs the server under `prlimit --nofile=N:N` (the red
 * team's run had 400); --vigil runs another checkout's bin/vigil (the
 * "before" figures of docs/security.md). Stops by itself: at most 2000 slow
 * connections, 60 s.
 */
import { apiProbe, arg, dnsProbe, fdsOf, Flood, httpProbe, probe, startServer } from './slow-kit.ts';

const target = process.argv[process.argv.indexOf('--target') + 1];
if (target !== 'forward' && target !== 'metrics') throw new Error('--target forward|metrics');
const connections = arg('connections', 150, 2000);
const addresses = arg('addresses', 1, 100);
const seconds = arg('seconds', 10, 60);
const fdLimit = process.argv.includes('--server-fd-limit') ? arg('server-fd-limit', 1024, 1 << 20) : null;
const vigilAt = process.argv.indexOf('--vigil');
const NORMAL = '127.0.0.200';

const s = await startServer({
  fdLimit,
  forward: true,
  metrics: true,
  vigil: vigilAt > 0 ? process.argv[vigilAt + 1] : undefined,
});
const flood = new Flood();
const probes = {
  api: apiProbe(s.tls, NORMAL),
  dnsTcp: dnsProbe(s.dns, NORMAL),
  forward: httpProbe(s.forward!, NORMAL, '/'),
  metrics: httpProbe(s.metrics!, NORMAL, '/healthz'),
};
try {
  const fdsIdle = fdsOf(s.pid);
  const before = await probe(probes, 2_000);
  const head = Buffer.from(`GET / HTTP/1.1\r\nHost: slow.example\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`);
  const slow = await flood.open(target === 'forward' ? s.forward! : s.metrics!, connections, addresses, head);
  const fdsUnderAttack = fdsOf(s.pid);
  const during = await probe(probes, seconds * 1000);
  console.log(
    JSON.stringify(
      {
        settings: { target, connections, attackerAddresses: addresses, seconds, serverFdLimit: fdLimit ?? 'inherited' },
        slow: { ...slow, stillOpenAtEnd: flood.kept() },
        serverFds: { idle: fdsIdle, underAttack: fdsUnderAttack },
        normalClient: { before, during },
      },
      null,
      2,
    ),
  );
} finally {
  flood.release();
  await s.stop();
}
