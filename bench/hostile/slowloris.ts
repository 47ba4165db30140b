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
 * [--server-fd-limit N] [--vigil PATH]
 *
 * --server-fd-limit starts the server under `prlimit --nofile=N:N` (the
 * issue's run had a low descriptor limit; this machine's may be high);
 * --vigil runs another checkout's bin/vigil (a "before" run). The forwarder
 * and the metrics listener have their own bench, slowloris-listeners.ts.
 *
 * Stops by itself: at most 2000 slow connections per protocol, 60 s.
 */
import { postHead } from '../../test/helpers/raw.ts';
import { apiProbe, arg, dnsProbe, fdsOf, Flood, probe, startServer } from './slow-kit.ts';

const connections = arg('connections', 400, 2000);
const addresses = arg('addresses', 1, 100);
const seconds = arg('seconds', 10, 60);
const fdLimit = process.argv.includes('--server-fd-limit') ? arg('server-fd-limit', 1024, 1 << 20) : null;
const NORMAL = '127.0.0.200';

const vigilAt = process.argv.indexOf('--vigil');
const s = await startServer({ fdLimit, vigil: vigilAt > 0 ? process.argv[vigilAt + 1] : undefined });
const flood = new Flood();
const probes = { api: apiProbe(s.tls, NORMAL), dns: dnsProbe(s.dns, NORMAL) };
const slowly = async (target: typeof s.tls, bytes: Buffer) => {
  const r = await flood.open(target, connections, addresses, bytes);
  return { ...r, refused: r.attempted - r.kept };
};

try {
  const fdsIdle = fdsOf(s.pid);
  const before = await probe(probes, 2_000);
  const api = await slowly(s.tls, Buffer.from(postHead('/api/auth.php', 0, `X-Slow: ${'a'.repeat(200)}\r\n`)));
  const dnsFlood = await slowly(s.dns, Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.alloc(1000)]));
  const fdsUnderAttack = fdsOf(s.pid);
  const during = await probe(probes, seconds * 1000);
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
  flood.release();
  await s.stop();
}
