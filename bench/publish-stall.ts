/**
 * Does a publish stall the main thread? (issue 32.) The p99 and maximum
 * latency of a cheap authenticated call (dnsGetDomainList.php, c=4) and of
 * name-server answers for another zone that need JavaScript (random names
 * in a small served zone: NXDOMAIN made per question, no reply cache
 * helps) while dnsPublish.php runs on a 100,000-record zone, next to the
 * same with nothing running. Serves in one run, one per way of publishing:
 * the checks on the main thread (VIGIL_PUBLISH_INLINE=1, as before) and on
 * the publish thread (src/dns/publish-thread.ts, the default); each round
 * publishes the large zone once on each, the order turning. The large zone
 * is only published, never distributed (a 1 h interval): what is measured
 * is dnsPublish.php alone, not the cycle's reload (bench/sign-stall.ts).
 *
 *   node --import tsx bench/publish-stall.ts [--records 100000] [--rounds 3] [--sides inline,thread] [--cpu-prof DIR]
 *
 * `--cpu-prof DIR` runs each serve under `node --cpu-prof` (one profile per
 * thread, written when the serve stops) for where the time goes.
 */
import { join } from 'node:path';
import { encodeForm } from '../src/client/index.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import { addAccount, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { bulkARecords, median, RRL_OFF, until } from './dnsperf-kit.ts';
import { largeZoneCaps, measureStall, type StallSide } from './stall-kit.ts';

const arg = (name: string, fallback: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1]! : fallback;
const N = Number(arg('--records', '100000'));
const rounds = Number(arg('--rounds', '3'));
const profileDir = arg('--cpu-prof', '');
const BIG = 'big.example';
const OTHER = 'other.example';
const PASSWORD = 'publish stall password';

type Side = StallSide;

async function side(name: string, env: Record<string, string>): Promise<Side> {
  const dnsPort = await freePort();
  const logFile = join(tempDir('vigil-publish-stall-'), 'vigil.log');
  const base = ['--dns-port', String(dnsPort), '--domain-hold', 'none', ...RRL_OFF, ...largeZoneCaps(N)];
  // First serve: the small zone published and distributed (1 s cycles), the large one filled.
  // A start from the TypeScript sources on a loaded machine can pass the helper's 30 s.
  const readyMs = 180_000;
  const first = await serve({ logFile, readyMs, args: [...base, '--publish-interval', '1s'] });
  const key = await addAccount(first.dataDir, 'stall', PASSWORD, '--dns-credits', '2');
  const c1 = first.client();
  await c1.login(key, 'stall', PASSWORD);
  for (const domain of [BIG, OTHER]) await c1.call('dnsAddDomain.php', { domain, domaintype: 'master', aup: 'YES' });
  await c1.call('dnsAddA.php', { domain: OTHER, name: 'www', ip: '192.0.2.1' });
  await c1.call('dnsPublish.php', { domain: OTHER });
  bulkARecords(first.dataDir, BIG, N);
  await until(async () => (await udpQuery(dnsPort, `www.${OTHER}`, 'A')).answers?.length === 1, `${name} serves`);
  await first.stop();
  // The measured serve: the same store, no cycle during the bench (the large zone's versions only wait).
  // Node refuses --cpu-prof in NODE_OPTIONS: the serve runs under `node --cpu-prof` instead.
  const prefix = profileDir
    ? [process.execPath, '--cpu-prof', `--cpu-prof-dir=${join(profileDir, name.replaceAll(' ', '-'))}`]
    : [];
  const s = await serve({
    dataDir: first.dataDir,
    env,
    prefix,
    logFile,
    readyMs,
    args: [...base, '--publish-interval', '1h'],
  });
  await until(async () => (await udpQuery(dnsPort, `www.${OTHER}`, 'A')).answers?.length === 1, `${name} serves`);
  const c = s.client();
  const token = await c.login(key, 'stall', PASSWORD);
  const call = (script: string, fields: Record<string, string>) => c.call(script, fields);
  // A first publish warms the path (the thread's start, JIT) on both sides alike.
  await publish({ name, call });
  return { name, s, dnsPort, body: encodeForm({ apikey: key, sessionToken: token }), call };
}

async function publish(x: Pick<Side, 'name' | 'call'>): Promise<void> {
  const pub = await x.call('dnsPublish.php', { domain: BIG });
  if (pub.errors) throw new Error(`${x.name}: ${JSON.stringify(pub.errors)}`);
}

/** The load and the probe (the small zone's random names) until `done`, after 300 ms of load to settle in. */
const measure = (x: Side, done: () => Promise<unknown>) =>
  measureStall({ httpsUrl: x.s.httpsUrl, body: x.body, dnsPort: x.dnsPort, zone: OTHER }, done, 300);

const SIDES: Record<string, [string, Record<string, string>]> = {
  inline: ['main thread', { VIGIL_PUBLISH_INLINE: '1' }],
  thread: ['publish thread', {}],
};
const wanted = arg('--sides', 'inline,thread').split(',');
const sides: Side[] = [];
for (const w of wanted) sides.push(await side(...SIDES[w]!));
type Stall = Awaited<ReturnType<typeof measure>>;
/** Each side's rounds: the quiet measure and the one over the publish. */
const results = new Map<string, { quiet: Stall; busy: Stall }[]>(sides.map((x) => [x.name, []]));
try {
  for (let r = 0; r < rounds; r++) {
    for (const x of r % 2 ? [...sides].reverse() : sides) {
      const quiet = await measure(x, () => new Promise((res) => setTimeout(res, 3000)));
      const busy = await measure(x, () => publish(x));
      results.get(x.name)!.push({ quiet, busy });
      console.log(
        `round ${r + 1} ${x.name}: published in ${Math.round(busy.ms)} ms; cheap call p99 ${busy.api} ms (quiet ${quiet.api}), max ${busy.apiMax}, timed out ${busy.timeouts}, failed ${busy.failed}; DNS miss p99 ${busy.dns.toFixed(1)} ms (quiet ${quiet.dns.toFixed(1)}), max ${busy.dnsMax.toFixed(0)}`,
      );
    }
  }
  console.log(`\ndnsPublish.php on a ${N}-record zone; dnsGetDomainList.php at c=4; medians of ${rounds} rounds\n`);
  console.log(
    '| publish checks on | dnsPublish.php ms | cheap call p99 ms, quiet | while publishing: p99 | max | timed out (10 s) | DNS miss p99 ms, quiet | while publishing: p99 | max |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [name, rs] of results) {
    const quiet = (f: (m: Stall) => number) => median(rs.map((r) => f(r.quiet)));
    const busy = (f: (m: Stall) => number) => median(rs.map((r) => f(r.busy)));
    console.log(
      `| ${name} | ${Math.round(busy((m) => m.ms))} | ${quiet((m) => m.api)} | ${busy((m) => m.api)} | ${busy((m) => m.apiMax)} | ${busy((m) => m.timeouts)} | ${quiet((m) => m.dns).toFixed(1)} | ${busy((m) => m.dns).toFixed(1)} | ${busy((m) => m.dnsMax).toFixed(0)} |`,
    );
  }
} finally {
  for (const x of sides) await x.s.stop();
}
