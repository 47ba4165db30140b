import { createSocket } from 'node:dgram';
import autocannon from 'autocannon';
import { queryPacket } from '../test/helpers/dns-client.ts';
import type { Served } from '../test/helpers/server.ts';

/**
 * What the two stall benches (sign-stall.ts, publish-stall.ts) share: load
 * on a cheap authenticated call and a DNS probe while some work runs in a
 * serve, and the latencies both saw, so both measure a stall the same way.
 */

/** A serve under test: its name in the tables, its DNS port, the cheap call's body, a way to call it. */
export interface StallSide {
  name: string;
  s: Served;
  dnsPort: number;
  body: string;
  call: (script: string, fields: Record<string, string>) => Promise<Record<string, unknown>>;
}

/** A provider's large zone is above the default caps (20,000 records, 4 MiB of text): `serve` arguments for n records. */
export const largeZoneCaps = (n: number) => [
  '--max-zone-records',
  String(n + 100),
  '--max-zone-bytes',
  String(64 * 1024 * 1024),
];

/** Where the load goes: a serve's HTTPS API and name server, and the zone whose random names the probe asks. */
export interface StallTarget {
  httpsUrl: string;
  /** The cheap call's form body (apikey and sessionToken). */
  body: string;
  /** When set, a reply that differs counts as failed (autocannon's expectBody). */
  expect?: string;
  dnsPort: number;
  zone: string;
}

/** DNS questions that miss every cache (random names: NXDOMAIN made in JavaScript), one each 20 ms; ms each. */
function dnsProbe(port: number, zone: string): { stop(): Promise<number[]> } {
  const socket = createSocket('udp4');
  const sent = new Map<number, number>();
  const took: number[] = [];
  socket.on('message', (m) => {
    const at = sent.get(m.readUInt16BE(0));
    if (at !== undefined) took.push(performance.now() - at);
  });
  const timer = setInterval(() => {
    const q = queryPacket(`r${Math.random().toString(36).slice(2)}.${zone}`, 'A');
    sent.set(q.readUInt16BE(0), performance.now());
    socket.send(q, port, '127.0.0.1');
  }, 20);
  return {
    async stop() {
      clearInterval(timer);
      await new Promise((r) => setTimeout(r, 500));
      socket.close();
      return took;
    },
  };
}

export const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? Number.NaN;

/**
 * Load on dnsGetDomainList.php (c=4) and the DNS probe until `done()`
 * resolves (called after `settleMs` of load); their latencies.
 */
export async function measureStall(x: StallTarget, done: () => Promise<unknown>, settleMs = 0) {
  const probe = dnsProbe(x.dnsPort, x.zone);
  let finished: (r: autocannon.Result) => void = () => {};
  const result = new Promise<autocannon.Result>((res) => (finished = res));
  const load = autocannon(
    {
      url: `${x.httpsUrl}/api/dnsGetDomainList.php`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: x.body,
      connections: 4,
      duration: 3600,
      ...(x.expect === undefined ? {} : { expectBody: x.expect }),
    },
    (_err, r) => finished(r),
  );
  if (settleMs) await new Promise((r) => setTimeout(r, settleMs));
  const started = performance.now();
  await done();
  const ms = performance.now() - started;
  load.stop();
  const { latency, requests, timeouts, non2xx, errors } = await result;
  const dns = await probe.stop();
  // A call that waited past autocannon's 10 s timeout is not in its latencies: counted apart.
  return {
    ms,
    api: latency.p99,
    apiMax: latency.max,
    timeouts,
    // Replies other than 200 and failed connections (a timeout is one too): a stall's other trace.
    failed: non2xx + errors,
    calls: requests.total,
    dns: p99(dns),
    dnsMax: Math.max(...dns),
  };
}
