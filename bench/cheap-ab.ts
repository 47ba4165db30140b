/**
 * The cheap call of two checkouts side by side (issue 13): this tree's
 * `serve`, another checkout's (built, with its own node_modules or a link to
 * these) and a bare Fastify HTTPS handler, each its own process, loaded in
 * turn for several rounds so that the machine's drift falls on all three.
 * The rounds matter more than their length: on a shared machine one round
 * to the next moves every row by up to 30%.
 *
 *   git worktree add /tmp/base <rev> && ln -s $PWD/node_modules /tmp/base/ && (cd /tmp/base && node scripts/build.mjs)
 *   node --import tsx bench/cheap-ab.ts /tmp/base [--seconds 5] [--rounds 6]
 *
 * `--db postgres://…` (a role that may CREATE DATABASE, e.g. .ci/pg-cluster's)
 * adds each tree on PostgreSQL, on a fresh database of its own, beside its
 * SQLite row (issue 32). Without a base, this tree alone beside bare Fastify.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { encodeForm, VigilClient } from '../src/client/index.ts';
import { VIGIL } from '../test/helpers/server.ts';
import { cpuOf, freshPgDatabase, startBareFastify, startVigil, type Vigil } from './reads-peers.ts';

const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const base = process.argv[2] && !process.argv[2].startsWith('--') ? resolve(process.argv[2]) : null;
const seconds = Number(arg('--seconds')) || 5;
const rounds = Number(arg('--rounds')) || 6;
const pgServer = arg('--db') ?? null;
const PASSWORD = 'benchmark password';

/** An account without domains, logged in: the body of the cheap call and its reply. */
async function cheapCall(v: Vigil, bin: string, db: string | null): Promise<{ body: string; reply: string }> {
  const { stdout } = await promisify(execFile)(bin, [
    'admin',
    'account',
    'add',
    '--userid',
    'cheap',
    '--password',
    PASSWORD,
    '--dns-credits',
    '10',
    '--data',
    v.dataDir,
    ...(db ? ['--db', db] : []),
    '--json',
  ]);
  const apikey = JSON.parse(stdout).apikey as string;
  const client = new VigilClient({ baseUrl: v.url, ca: v.ca });
  try {
    const sessionToken = await client.login(apikey, 'cheap', PASSWORD);
    const reply = await client.post('dnsGetDomainList.php', { apikey, sessionToken });
    if (reply.body.status !== '0') throw new Error(`cheap call failed: ${JSON.stringify(reply.body)}`);
    return { body: encodeForm({ apikey, sessionToken }), reply: JSON.stringify(reply.body) };
  } finally {
    client.close();
  }
}

const trees = [
  ...(base ? [{ label: `base (${base})`, bin: join(base, 'bin/vigil') }] : []),
  { label: 'this tree', bin: VIGIL },
];
const targets: { label: string; url: string; pid: number; body: string }[] = [];
const stops: (() => Promise<void>)[] = [];
try {
  let ceiling: { cert: string; key: string; body: string; reply: string } | null = null;
  for (const t of trees) {
    for (const engine of pgServer ? ['SQLite', 'PostgreSQL'] : ['SQLite']) {
      let db: string | null = null;
      if (engine === 'PostgreSQL') {
        const fresh = await freshPgDatabase(pgServer!);
        stops.push(fresh.drop);
        db = fresh.url;
      }
      const v = await startVigil({ db, logFile: '/dev/null', bin: t.bin });
      stops.push(v.stop);
      const call = await cheapCall(v, t.bin, db);
      const label = pgServer ? `${t.label}, ${engine}` : t.label;
      targets.push({ label: `Vigil ${label}`, url: v.url, pid: v.proc.pid!, body: call.body });
      ceiling = { cert: v.cert, key: v.key, ...call };
    }
  }
  const bare = await startBareFastify(ceiling!.cert, ceiling!.key, ceiling!.reply);
  stops.push(bare.stop);
  targets.push({ label: 'bare Fastify HTTPS', url: bare.url, pid: bare.proc.pid!, body: ceiling!.body });

  console.log(
    `cheap call (dnsGetDomainList.php) at c=32, ${seconds} s a row, ${rounds} rounds, ${new Date().toISOString()}\n`,
  );
  console.log('| round | ' + targets.map((t) => `${t.label}: req/s, CPU µs/req`).join(' | ') + ' |');
  console.log('|---|' + targets.map(() => '---|').join(''));
  const rates = targets.map(() => [] as number[]);
  for (let round = 1; round <= rounds; round++) {
    const cells: string[] = [];
    for (const t of targets) {
      const cpu0 = cpuOf(t.pid);
      const r = await autocannon({
        url: `${t.url}/api/dnsGetDomainList.php`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: t.body,
        connections: 32,
        duration: seconds,
      });
      const cpu1 = cpuOf(t.pid);
      rates[targets.indexOf(t)]!.push(r.requests.average);
      const errors = r.errors + r.non2xx;
      cells.push(
        `${Math.round(r.requests.average)}, ${cpu0 !== null && cpu1 !== null ? Math.round((cpu1 - cpu0) / r.requests.total) : '?'}${errors ? ` (${errors} errors)` : ''}`,
      );
    }
    console.log(`| ${round} | ${cells.join(' | ')} |`);
  }
  // Each round's rate over the bare handler's in the same round, then the median of those ratios.
  const bareRates = rates[rates.length - 1]!;
  console.log('\nof bare Fastify, per round (median):');
  for (const [i, t] of targets.slice(0, -1).entries()) {
    const ratios = rates[i]!.map((r, k) => r / bareRates[k]!).sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    console.log(`  ${t.label}: ${ratios.map((r) => r.toFixed(2)).join(' ')} (${median.toFixed(2)})`);
  }
} finally {
  for (const stop of stops.reverse()) await stop();
}
