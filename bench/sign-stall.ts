/**
 * Does signing stall the main thread? (issue 32.) The p99 latency of a
 * cheap authenticated call (dnsGetDomainList.php, c=4) and of name-server
 * answers that need JavaScript (random names, so no reply cache helps)
 * while the distribution cycle signs a 100,000-record zone and the name
 * server loads the signed version, next to the same with nothing to sign.
 * Serves in one run, each a way of doing it: signing on the main thread
 * (VIGIL_SIGN_INLINE=1), on the signing thread (src/dns/sign-thread.ts)
 * with the signed version indexed in one piece (VIGIL_DNS_LOAD=whole), and
 * on the thread with the version indexed in slices (src/dns/server/slices.ts,
 * the default); each round signs the zone anew on each (round 1 from cold;
 * later rounds switch NSEC and NSEC3, so the whole chain is new), the
 * order turning. Each serve's peak resident memory (VmHWM) is printed too.
 *
 *   node --import tsx bench/sign-stall.ts [--records 100000] [--rounds 2] [--sides inline,whole,sliced]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeForm } from '../src/client/index.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import { addAccount, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { bulkARecords, median, until } from './dnsperf-kit.ts';
import { largeZoneCaps, measureStall, type StallSide } from './stall-kit.ts';

const arg = (name: string, fallback: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const N = arg('--records', 100_000);
const rounds = arg('--rounds', 2);
const ZONE = 'stall.example';
const PASSWORD = 'stall password';

interface Side extends StallSide {
  expect: string;
}

async function side(name: string, env: Record<string, string>): Promise<Side> {
  const dnsPort = await freePort();
  const s = await serve({
    env,
    logFile: join(tempDir('vigil-stall-'), 'vigil.log'),
    args: [
      ...['--dns-port', String(dnsPort), '--publish-interval', '1s', '--domain-hold', 'none', '--dns-rrl-rate', '0'],
      ...largeZoneCaps(N),
    ],
  });
  const key = await addAccount(s.dataDir, 'stall', PASSWORD, '--dns-credits', '2');
  const c = s.client();
  const token = await c.login(key, 'stall', PASSWORD);
  const call = (script: string, fields: Record<string, string>) => c.call(script, fields);
  await call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
  bulkARecords(s.dataDir, ZONE, N);
  const pub = await call('dnsPublish.php', { domain: ZONE });
  if (pub.errors) throw new Error(String(pub.errors));
  await until(async () => (await udpQuery(dnsPort, `host1.${ZONE}`, 'A')).answers?.length === 1, `${name} serves`);
  const sample = await c.post('dnsGetDomainList.php', { apikey: key, sessionToken: token });
  return {
    name,
    s,
    dnsPort,
    body: encodeForm({ apikey: key, sessionToken: token }),
    expect: JSON.stringify(sample.body),
    call,
  };
}

const serial = async (port: number) =>
  ((await udpQuery(port, ZONE, 'SOA')).answers?.[0] as { data: { serial: number } } | undefined)?.data.serial ?? 0;

/** Load on the cheap call and the DNS probe until `done` resolves; their latencies. */
const measure = (x: Side, done: Promise<unknown>) =>
  measureStall({ httpsUrl: x.s.httpsUrl, body: x.body, expect: x.expect, dnsPort: x.dnsPort, zone: ZONE }, () => done);

const SIDES: Record<string, [string, Record<string, string>]> = {
  inline: ['main thread', { VIGIL_SIGN_INLINE: '1' }],
  whole: ['thread, loaded in one piece', { VIGIL_DNS_LOAD: 'whole' }],
  sliced: ['thread, loaded in slices', {}],
};
const wanted = process.argv.includes('--sides')
  ? process.argv[process.argv.indexOf('--sides') + 1]!.split(',')
  : ['inline', 'whole', 'sliced'];
const sides: Side[] = [];
for (const w of wanted) sides.push(await side(...SIDES[w]!));
/** The serve's peak resident memory so far, MB (it signs on a thread of the same process). */
const peakMb = (x: Side) =>
  Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${x.s.proc.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
interface Row {
  quiet: number[];
  signing: number[];
  max: number[];
  timeouts: number[];
  dns: number[];
  dnsMax: number[];
  dnsQuiet: number[];
  ms: number[];
  peak: number[];
}
const rows = new Map<string, Row>(
  sides.map((x) => [
    x.name,
    { quiet: [], signing: [], max: [], timeouts: [], dns: [], dnsMax: [], dnsQuiet: [], ms: [], peak: [] },
  ]),
);
try {
  for (let r = 0; r < rounds; r++) {
    for (const x of r % 2 ? [...sides].reverse() : sides) {
      const row = rows.get(x.name)!;
      const quiet = await measure(x, new Promise((res) => setTimeout(res, 5000)));
      row.quiet.push(quiet.api);
      row.dnsQuiet.push(quiet.dns);
      const before = await serial(x.dnsPort);
      // Round 1 turns signing on (a cold signing); later rounds switch the denial, so every proof is new.
      await x.call('dnsSetDNSSEC.php', { domain: ZONE, enable: 'YES', ...(r ? { nsec3: r % 2 ? 'YES' : 'NO' } : {}) });
      await x.call('dnsPublish.php', { domain: ZONE });
      const busy = await measure(
        x,
        until(async () => (await serial(x.dnsPort)) > before, `${x.name} signed`, 6000),
      );
      row.signing.push(busy.api);
      row.max.push(busy.apiMax);
      row.timeouts.push(busy.timeouts);
      row.dns.push(busy.dns);
      row.dnsMax.push(busy.dnsMax);
      row.ms.push(busy.ms);
      row.peak.push(peakMb(x));
      console.log(
        `round ${r + 1} ${x.name}: signed in ${Math.round(busy.ms)} ms; cheap call p99 ${busy.api} ms (quiet ${quiet.api}), max ${busy.apiMax}, timed out ${busy.timeouts}; DNS miss p99 ${busy.dns.toFixed(1)} ms (quiet ${quiet.dns.toFixed(1)}), max ${busy.dnsMax.toFixed(0)}; peak RSS ${peakMb(x)} MB`,
      );
    }
  }
  console.log(
    `\n${N}-record zone signed by the distribution cycle; dnsGetDomainList.php at c=4; medians of ${rounds} rounds\n`,
  );
  console.log(
    '| signing on | signing took s | cheap call p99 ms, quiet | while signing: p99 | max | timed out (10 s) | DNS miss p99 ms, quiet | while signing: p99 | max | peak RSS MB |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, v] of rows)
    console.log(
      `| ${name} | ${(median(v.ms) / 1000).toFixed(1)} | ${median(v.quiet)} | ${median(v.signing)} | ${median(v.max)} | ${median(v.timeouts)} | ${median(v.dnsQuiet).toFixed(1)} | ${median(v.dns).toFixed(1)} | ${median(v.dnsMax).toFixed(0)} | ${Math.max(...v.peak)} |`,
    );
} finally {
  for (const x of sides) await x.s.stop();
}
