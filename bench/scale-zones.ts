/**
 * Provider scale (issue 32): many zones and records, side by side with
 * Knot and NSD loading the same zones, all on loopback.
 *
 *   node --import tsx bench/scale-zones.ts [--small] [--zones N] [--records N] [--catalog N] [--seconds 10]
 *     [--no-dnsperf] [--bind-minutes 40] [--keep] [--profile] [--heap-mb N] [--from DIR]
 *
 * Full: 100,000 zones of 50 records (5,000,000); --small: 2,000 of 25,
 * under 5 minutes on the 2-core VM. It measures:
 * - the import: every zone's domain, records and published version written
 *   through the store's bulk path: one SQLite transaction of prepared
 *   inserts into Vigil's own tables (the API adds ~2k records/s, which
 *   would measure the API);
 * - the first distribution cycle serving them all, and the time to first
 *   answer after a restart (the last zone's record over UDP);
 * - resident memory per record next to knotd and nsd loading the same
 *   zones (their master files are Vigil's zone text);
 * - one cycle after one change in one zone: how many zone serials and
 *   snapshots the name server read from the store and how many versions
 *   it indexed (its 'dns: now serving' log line);
 * - dnsperf over a mix of names across all zones (dnsperf-kit.ts rounds;
 *   --no-dnsperf leaves it out, for a run on a machine others load);
 * - a BIND secondary following the catalog zone: the time until it
 *   serves the last of `--catalog` member zones (all of them by default),
 *   or how many it had transferred when `--bind-minutes` ran out. BIND runs
 *   with its zone-transfer limits raised (BIND_TUNING): its defaults (20
 *   SOA queries a second, 2 transfers at once from one primary) alone take
 *   83 minutes to 100,000 zones, whatever the primary.
 * Response rate limiting is off (dnsperf sends from one address). Without
 * dnsperf each peer is stopped once measured (they are not needed at the
 * same time, and at 100,000 zones the three together take 7 GB); `--keep`
 * keeps the logs, the store and the zone files (the directory is printed);
 * `--profile` writes a CPU profile of the restarted `serve` there (prof/);
 * `--heap-mb` gives every `serve` that much V8 heap (Node's default limit
 * is ~4 GB here); `--from DIR` starts from the store a `--keep` run left
 * in DIR, imported and served (the import and first cycle are not measured
 * again: at 100,000 zones on the loaded VM they took 11 minutes).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { buildZone, type ZoneModel } from '../src/dns/zone.ts';
import { addAccount, adminJson, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { dnsperfTarget, RRL_OFF, roundsTable, type Target, until } from './dnsperf-kit.ts';
import { answers, bindFollows, loadPeer, type Peer, statusKb } from './scale-peers.ts';

const arg = (name: string, fallback: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const small = process.argv.includes('--small');
const ZONES = arg('--zones', small ? 2_000 : 100_000);
const RECORDS = arg('--records', small ? 25 : 50);
const CATALOG_MEMBERS = arg('--catalog', ZONES);
const seconds = arg('--seconds', small ? 5 : 10);
const withDnsperf = !process.argv.includes('--no-dnsperf');
const bindMinutes = arg('--bind-minutes', small ? 10 : 40);
const CATALOG = 'catalog.vigil.invalid';
const zoneName = (i: number) => `z${i}.scale.example`;
const keep = process.argv.includes('--keep');
const dir = keep ? mkdtempSync(join(tmpdir(), 'vigil-scale-')) : tempDir('vigil-scale-');
if (keep) {
  console.log(`logs, store and zone files in ${dir}`);
  mkdirSync(join(dir, 'data'), { mode: 0o700 });
}
const t0 = performance.now();
const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
const rssKb = (pid: number) => statusKb(pid, 'VmRSS');
/** Progress lines on stderr as the run goes (a full run takes most of an hour). */
const step = (what: string) => console.error(`[${since(t0)}] ${what}`);
/** `until`, but a Vigil that exited (out of memory, say) ends the run at once rather than at the timeout. */
const vigilUntil = (pred: () => Promise<boolean>, what: string, tries: number) =>
  until(
    async () => {
      if (vigil.proc.exitCode !== null || vigil.proc.signalCode !== null) {
        console.error(`Vigil exited (${vigil.proc.exitCode ?? vigil.proc.signalCode}) waiting for: ${what}`);
        process.exit(1);
      }
      return pred();
    },
    what,
    tries,
  );

// A template domain through the API: its default records (SOA, NS) are what every zone gets.
const secondaryPort = await freePort();
const args = ['--publish-interval', '1s', '--domain-hold', 'none', '--secondaries', `127.0.0.1:${secondaryPort}`];
const heap = process.argv.includes('--heap-mb') ? `--max-old-space-size=${arg('--heap-mb', 0)}` : '';
const nodeOptions = (more = '') => ({ NODE_OPTIONS: `${heap} ${more}`.trim() });
const from = process.argv.includes('--from') ? process.argv[process.argv.indexOf('--from') + 1]! : null;
let dnsPort = await freePort();
let vigil = await serve({
  dataDir: keep && !from ? join(dir, 'data') : undefined,
  args: ['--dns-port', String(dnsPort), ...args, ...RRL_OFF],
});
const dataDir = from ? join(from, 'data') : vigil.dataDir;
let apikey: string;
if (from) apikey = (await adminJson(dataDir, 'apikey', 'rotate', '--userid', 'scale')).apikey;
else {
  const c = vigil.client();
  apikey = await addAccount(dataDir, 'scale', 'scale password', '--dns-credits', '1');
  await c.login(apikey, 'scale', 'scale password');
  await c.call('dnsAddDomain.php', { domain: 'template.example', domaintype: 'master', aup: 'YES' });
  await c.call('dnsPublish.php', { domain: 'template.example' });
}
const baseRss = rssKb(vigil.proc.pid!);
await vigil.stop();

// The bulk import: one transaction of prepared inserts.
let started = performance.now();
const store = new SqliteDatabase(join(dataDir, 'vigil.sqlite'));
const template = store.prepare("SELECT * FROM domains WHERE name = 'template.example'").get() as Record<
  string,
  unknown
>;
const templateRecords = store.prepare('SELECT type, data, owner FROM records WHERE domain_id = ?').all(template.id) as {
  type: string;
  data: string;
  owner: string | null;
}[];
const snapshot = JSON.parse(
  (
    store
      .prepare(
        "SELECT coalesce(pending_snapshot, served_snapshot) AS snapshot FROM zone_publications WHERE zone = 'template.example'",
      )
      .get() as { snapshot: string }
  ).snapshot,
) as ZoneModel;
/** Zone z as published: the template's records and its own A records (made again when needed, not kept). */
function modelOf(z: number): ZoneModel {
  const model: ZoneModel = { zone: zoneName(z), serial: snapshot.serial, records: [...snapshot.records] };
  for (let i = 0; i < RECORDS - templateRecords.length; i++)
    model.records.push({
      seq: 1000 + i,
      type: 'A',
      data: { name: `host${i}`, data: `10.${(z >> 8) & 255}.${z & 255}.${i & 255}` },
    });
  return model;
}
if (!from) step(`import of ${ZONES} zones`);
store.transaction(() => {
  if (from) return;
  const addDomain = store.prepare(
    'INSERT INTO domains (account_id, name, type, state, on_hold, serial, created_at) VALUES (?, ?, ?, 2, 0, ?, ?)',
  );
  const addRecord = store.prepare('INSERT INTO records (domain_id, type, data, owner) VALUES (?, ?, ?, ?)');
  const publish = store.prepare(
    'INSERT INTO zone_publications (zone, domain_id, pending_serial, pending_snapshot, removing, changed_at) VALUES (?, ?, ?, ?, 0, ?)',
  );
  for (let z = 0; z < ZONES; z++) {
    const model = modelOf(z);
    const id = Number(
      addDomain.run(template.account_id, model.zone, 'master', snapshot.serial, Date.now()).lastInsertRowid,
    );
    for (const r of templateRecords) addRecord.run(id, r.type, r.data, r.owner);
    for (const r of model.records.slice(snapshot.records.length))
      addRecord.run(id, 'A', JSON.stringify(r.data), (r.data as { name: string }).name);
    publish.run(model.zone, id, model.serial, JSON.stringify(model), Date.now());
  }
})();
store.close();
const importTime = from ? `(the --from run's)` : since(started);
const total = ZONES * RECORDS;
const last = `host${RECORDS - templateRecords.length - 1}.${zoneName(ZONES - 1)}`;

// The first cycle serves them all; then a restart: the time to the first answer.
step(`import done (${importTime}); first cycle`);
started = performance.now();
let firstCycle = `(the --from run's)`;
if (!from) {
  vigil = await serve({
    dataDir,
    args: ['--dns-port', String(dnsPort), ...args, ...RRL_OFF],
    logFile: join(dir, 'v1.log'),
    // Its cycle's line says how long promoting every zone took.
    env: { VIGIL_LOG_LEVEL: 'info', VIGIL_LOG_FORMAT: 'json', ...nodeOptions() },
    readyMs: 600_000,
  });
  await vigilUntil(() => answers(dnsPort, last), 'the first cycle serves every zone', 6000);
  firstCycle = since(started);
  step(`first cycle served every zone (${firstCycle}); restart`);
  await vigil.stop();
}
dnsPort = await freePort();
const log = join(dir, 'vigil.log');
started = performance.now();
vigil = await serve({
  dataDir,
  logFile: log,
  readyMs: 600_000,
  env: { VIGIL_LOG_LEVEL: 'info', VIGIL_LOG_FORMAT: 'json', ...nodeOptions() },
  // NODE_OPTIONS refuses --cpu-prof: node itself runs bin/vigil then.
  prefix: process.argv.includes('--profile') ? ['node', '--cpu-prof', `--cpu-prof-dir=${join(dir, 'prof')}`] : [],
  args: ['--dns-port', String(dnsPort), '--catalog-zone', CATALOG, ...args, ...RRL_OFF],
});
await vigilUntil(() => answers(dnsPort, last), 'served after a restart', 6000);
const firstAnswer = since(started);
const vigilRss = rssKb(vigil.proc.pid!);
step(`first answer after the restart (${firstAnswer}); one change`);

// One change in one zone, through the API as its owner makes it: how many zone versions did the name server
// read and index for it? (Its 'dns: now serving' lines say.)
const owner = vigil.client();
await owner.login(apikey, 'scale', 'scale password');
interface Reloads {
  builds: number;
  reads: number;
  serials: number;
  fullReads: number;
}
const nowServing = () =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"dns: now serving"'))
    .map((l) => JSON.parse(l) as { zones: number; reloads: Reloads });
// A first change (zone 5) gives the log a line to count from: the start's own load logs none.
const zone5 = zoneName(5);
await owner.call('dnsAddA.php', { domain: zone5, name: 'warm', ip: '192.0.2.55' });
await owner.call('dnsPublish.php', { domain: zone5 });
await vigilUntil(() => answers(dnsPort, `warm.${zone5}`), 'the first change is served', 600);
// The log is written asynchronously (pino): wait for its line.
await until(async () => nowServing().length > 0, 'the first change is logged', 600);
const seen = nowServing().length;
const reloadsBefore = nowServing().at(-1)?.reloads;
const zone7 = zoneName(7);
started = performance.now();
await owner.call('dnsAddA.php', { domain: zone7, name: 'changed', ip: '192.0.2.77' });
await owner.call('dnsPublish.php', { domain: zone7 });
await vigilUntil(() => answers(dnsPort, `changed.${zone7}`), 'the change is served', 600);
const changeTime = since(started);
await until(async () => nowServing().length > seen, 'the change is logged', 600);
const rebuilt = nowServing()
  .slice(seen)
  .reduce((n, l) => n + l.zones, 0);
const reloadsAfter = nowServing().at(-1)?.reloads;
// Resident size again once settled (the load's garbage collected or not, the figure moved by ~25% at --small),
// and the peak of the start (VmHWM).
const vigilSettled = rssKb(vigil.proc.pid!);
const vigilPeak = statusKb(vigil.proc.pid!, 'VmHWM');
step(`one change served (${changeTime}); peers`);
const work = (k: keyof Reloads) => (reloadsBefore && reloadsAfter ? String(reloadsAfter[k] - reloadsBefore[k]) : 'n/a');

// Knot and NSD loading the same zones.
const zonesDir = join(dir, 'zones');
mkdirSync(zonesDir);
step('zone files for the peers');
for (let z = 0; z < ZONES; z++) writeFileSync(join(zonesDir, `${zoneName(z)}.zone`), buildZone(modelOf(z)));
const peerOptions = {
  dir,
  zonesDir,
  zones: Array.from({ length: ZONES }, (_, z) => zoneName(z)),
  probe: last,
  stopEach: !withDnsperf,
  step,
};
const peers: Peer[] = [];
for (const name of ['Knot', 'NSD'] as const) {
  const p = await loadPeer(name, peerOptions);
  if (p) peers.push(p);
}

// dnsperf over a mix of names across the zones.
const queries = join(dir, 'queries.txt');
const lines: string[] = [];
for (let i = 0; i < 20_000; i++) {
  const z = zoneName((i * 7919) % ZONES);
  lines.push(i % 5 === 4 ? `nx${i}.${z} A` : `host${(i * 31) % (RECORDS - templateRecords.length)}.${z} A`);
}
writeFileSync(queries, `${lines.join('\n')}\n`);
const targets: Target[] = [
  dnsperfTarget('Vigil (1 process)', true, dnsPort, queries, seconds),
  ...peers.map((p) => dnsperfTarget(p.name, false, p.port, queries, seconds)),
];
if (withDnsperf)
  roundsTable(
    targets,
    small ? 2 : 3,
    `dnsperf -c 8 -T 2 -q 1000 -l ${seconds}, names across ${ZONES} zones, 20% NXDOMAIN`,
  );
if (withDnsperf) for (const p of peers) p.stop();

// The catalog: a BIND secondary following Vigil's catalog zone until it serves every member.
let catalogTime = 'BIND not installed';
if (hasTool('named')) {
  step('BIND secondary following the catalog');
  started = performance.now();
  const served = await bindFollows({
    dir,
    secondaryPort,
    dnsPort,
    catalog: CATALOG,
    members: CATALOG_MEMBERS,
    lastMember: `host0.${zoneName(CATALOG_MEMBERS - 1)}`,
    minutes: bindMinutes,
    keep,
    step,
  });
  catalogTime = served === true ? since(started) : served;
}

console.log(`\n${ZONES} zones x ${RECORDS} records = ${total} records${small ? ' (--small)' : ''}`);
console.log(`| what | Vigil | Knot | NSD |\n|---|---|---|---|`);
const peerCol = (f: (p: (typeof peers)[number]) => string) =>
  ['Knot', 'NSD']
    .map((n) => peers.find((p) => p.name === n))
    .map((p) => (p ? f(p) : 'n/a'))
    .join(' | ');
console.log(`| bulk import (one transaction) | ${importTime} | | |`);
console.log(`| first cycle serving every zone | ${firstCycle} | | |`);
console.log(`| start to first answer (last zone) | ${firstAnswer} | ${peerCol((p) => p.load)} |`);
const mb = (kb: number) => (kb / 1024).toFixed(0);
console.log(
  `| resident memory at first answer, MB | ${mb(vigilRss)} (empty: ${mb(baseRss)}) | ${peerCol((p) => mb(p.rss))} |`,
);
console.log(`| resident memory settled (after the change), MB | ${mb(vigilSettled)} | | |`);
console.log(`| peak resident memory (VmHWM), MB | ${mb(vigilPeak)} | ${peerCol((p) => mb(p.peak))} |`);
const perRecord = (kb: number) => String(Math.round((kb * 1024) / total));
console.log(
  `| bytes per record (Vigil: above the empty process; first answer, settled) | ${perRecord(vigilRss - baseRss)}, ${perRecord(vigilSettled - baseRss)} | ${peerCol((p) => perRecord(p.rss))} |`,
);
console.log(`| one change in one zone: served after | ${changeTime}; zone versions re-indexed: ${rebuilt} | | |`);
console.log(
  `| that change's reload: serials read, snapshots read, versions indexed, full serial reads | ${work('serials')}, ${work('reads')}, ${work('builds')}, ${work('fullReads')} | | |`,
);
console.log(`| BIND secondary serving ${CATALOG_MEMBERS} catalog members | ${catalogTime} | | |`);
console.log(`total ${since(t0)}`);
await vigil.stop();
