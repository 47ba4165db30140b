/**
 * Provider scale (issue 32): many zones and records, side by side with
 * Knot and NSD loading the same zones, all on loopback.
 *
 *   node --import tsx bench/scale-zones.ts [--small] [--zones N] [--records N] [--catalog N] [--seconds 10]
 *     [--no-dnsperf]
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
 *   serves the last of `--catalog` member zones (all of them by default).
 * Response rate limiting is off (dnsperf sends from one address).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { buildZone, type ZoneModel } from '../src/dns/zone.ts';
import { startBindSecondary } from '../test/helpers/bind.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import { addAccount, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { dnsperfTarget, RRL_OFF, roundsTable, type Target, until } from './dnsperf-kit.ts';

const arg = (name: string, fallback: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const small = process.argv.includes('--small');
const ZONES = arg('--zones', small ? 2_000 : 100_000);
const RECORDS = arg('--records', small ? 25 : 50);
const CATALOG_MEMBERS = arg('--catalog', ZONES);
const seconds = arg('--seconds', small ? 5 : 10);
const withDnsperf = !process.argv.includes('--no-dnsperf');
const CATALOG = 'catalog.vigil.invalid';
const zoneName = (i: number) => `z${i}.scale.example`;
const dir = tempDir('vigil-scale-');
const t0 = performance.now();
const since = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const answers = async (port: number, name: string) => (await udpQuery(port, name, 'A')).answers?.length === 1;

// A template domain through the API: its default records (SOA, NS) are what every zone gets.
const secondaryPort = await freePort();
const args = ['--publish-interval', '1s', '--domain-hold', 'none', '--secondaries', `127.0.0.1:${secondaryPort}`];
let dnsPort = await freePort();
let vigil = await serve({ args: ['--dns-port', String(dnsPort), ...args, ...RRL_OFF] });
const dataDir = vigil.dataDir;
const c = vigil.client();
const apikey = await addAccount(dataDir, 'scale', 'scale password', '--dns-credits', '1');
await c.login(apikey, 'scale', 'scale password');
await c.call('dnsAddDomain.php', { domain: 'template.example', domaintype: 'master', aup: 'YES' });
await c.call('dnsPublish.php', { domain: 'template.example' });
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
    store.prepare("SELECT pending_snapshot FROM zone_publications WHERE zone = 'template.example'").get() as {
      pending_snapshot: string;
    }
  ).pending_snapshot,
) as ZoneModel;
const models: ZoneModel[] = [];
store.transaction(() => {
  const addDomain = store.prepare(
    'INSERT INTO domains (account_id, name, type, state, on_hold, serial, created_at) VALUES (?, ?, ?, 2, 0, ?, ?)',
  );
  const addRecord = store.prepare('INSERT INTO records (domain_id, type, data, owner) VALUES (?, ?, ?, ?)');
  const publish = store.prepare(
    'INSERT INTO zone_publications (zone, domain_id, pending_serial, pending_snapshot, removing, changed_at) VALUES (?, ?, ?, ?, 0, ?)',
  );
  for (let z = 0; z < ZONES; z++) {
    const zone = zoneName(z);
    const id = Number(addDomain.run(template.account_id, zone, 'master', snapshot.serial, Date.now()).lastInsertRowid);
    for (const r of templateRecords) addRecord.run(id, r.type, r.data, r.owner);
    const model: ZoneModel = { zone, serial: snapshot.serial, records: [...snapshot.records] };
    for (let i = 0; i < RECORDS - templateRecords.length; i++) {
      const data = { name: `host${i}`, data: `10.${(z >> 8) & 255}.${z & 255}.${i & 255}` };
      addRecord.run(id, 'A', JSON.stringify(data), `host${i}`);
      model.records.push({ seq: 1000 + i, type: 'A', data });
    }
    publish.run(zone, id, model.serial, JSON.stringify(model), Date.now());
    models.push(model);
  }
})();
store.close();
const importTime = since(started);
const total = ZONES * RECORDS;
const last = `host${RECORDS - templateRecords.length - 1}.${zoneName(ZONES - 1)}`;

// The first cycle serves them all; then a restart: the time to the first answer.
started = performance.now();
vigil = await serve({
  dataDir,
  args: ['--dns-port', String(dnsPort), ...args, ...RRL_OFF],
  logFile: join(dir, 'v1.log'),
  readyMs: 600_000,
});
await until(() => answers(dnsPort, last), 'the first cycle serves every zone', 6000);
const firstCycle = since(started);
await vigil.stop();
dnsPort = await freePort();
const log = join(dir, 'vigil.log');
started = performance.now();
vigil = await serve({
  dataDir,
  logFile: log,
  readyMs: 600_000,
  env: { VIGIL_LOG_LEVEL: 'info', VIGIL_LOG_FORMAT: 'json' },
  args: ['--dns-port', String(dnsPort), '--catalog-zone', CATALOG, ...args, ...RRL_OFF],
});
await until(() => answers(dnsPort, last), 'served after a restart', 6000);
const firstAnswer = since(started);
const vigilRss = rssKb(vigil.proc.pid!);

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
await until(() => answers(dnsPort, `warm.${zone5}`), 'the first change is served', 600);
// The log is written asynchronously (pino): wait for its line.
await until(async () => nowServing().length > 0, 'the first change is logged', 600);
const seen = nowServing().length;
const reloadsBefore = nowServing().at(-1)?.reloads;
const zone7 = zoneName(7);
started = performance.now();
await owner.call('dnsAddA.php', { domain: zone7, name: 'changed', ip: '192.0.2.77' });
await owner.call('dnsPublish.php', { domain: zone7 });
await until(() => answers(dnsPort, `changed.${zone7}`), 'the change is served', 600);
const changeTime = since(started);
await until(async () => nowServing().length > seen, 'the change is logged', 600);
const rebuilt = nowServing()
  .slice(seen)
  .reduce((n, l) => n + l.zones, 0);
const reloadsAfter = nowServing().at(-1)?.reloads;
const work = (k: keyof Reloads) => (reloadsBefore && reloadsAfter ? String(reloadsAfter[k] - reloadsBefore[k]) : 'n/a');

// Knot and NSD loading the same zones.
const zonesDir = join(dir, 'zones');
mkdirSync(zonesDir);
for (const m of models) writeFileSync(join(zonesDir, `${m.zone}.zone`), buildZone(m));
const peers: { name: string; port: number; proc: ChildProcess; rss: number; load: string }[] = [];
async function peer(
  name: string,
  tool: string,
  conf: (port: number) => [string, string],
  argv: (f: string) => string[],
) {
  if (!hasTool(tool)) return console.log(`${name}: not installed, left out`);
  const port = await freePort();
  const [file, text] = conf(port);
  writeFileSync(join(dir, file), text);
  const t = performance.now();
  const proc = spawn(tool, argv(join(dir, file)), { stdio: 'ignore' });
  await until(() => answers(port, last), `${name} serves every zone`, 6000);
  const pids = [proc.pid!, ...childPids(proc.pid!)];
  peers.push({ name, port, proc, rss: pids.reduce((n, p) => n + rssKb(p), 0), load: since(t) });
}
const childPids = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const zoneList = (line: (zone: string) => string) => models.map((m) => line(m.zone)).join('');
await peer(
  'Knot',
  'knotd',
  (p) => [
    'knot.conf',
    `server:\n  listen: 127.0.0.1@${p}\n  rundir: "${dir}"\n  udp-workers: 2\n  background-workers: 1\ndatabase:\n  storage: "${dir}/knot"\n` +
      `template:\n  - id: default\n    storage: "${zonesDir}"\n    file: "%s.zone"\n    journal-content: none\n    zonefile-sync: -1\n` +
      `zone:\n${zoneList((z) => `  - domain: ${z}\n`)}`,
  ],
  (f) => ['-c', f],
);
await peer(
  'NSD',
  'nsd',
  (p) => [
    'nsd.conf',
    `server:\n  ip-address: 127.0.0.1@${p}\n  do-ip6: no\n  server-count: 1\n  username: ""\n  chroot: ""\n  zonesdir: "${zonesDir}"\n` +
      `  database: ""\n  pidfile: "${dir}/nsd.pid"\n  xfrdfile: "${dir}/xfrd.state"\n  zonelistfile: "${dir}/zone.list"\n  rrl-ratelimit: 0\n` +
      `remote-control:\n  control-enable: no\n${zoneList((z) => `zone:\n  name: ${z}\n  zonefile: "${z}.zone"\n`)}`,
  ],
  (f) => ['-d', '-c', f],
);

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
for (const p of peers) p.proc.kill('SIGTERM');

// The catalog: a BIND secondary following Vigil's catalog zone until it serves the last member.
let catalogTime = 'BIND not installed';
if (hasTool('named')) {
  started = performance.now();
  const bind = await startBindSecondary(secondaryPort, dnsPort, CATALOG);
  await until(() => answers(secondaryPort, `host0.${zoneName(CATALOG_MEMBERS - 1)}`), 'BIND follows the catalog', 6000);
  catalogTime = since(started);
  await bind.stop();
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
console.log(
  `| resident memory, MB | ${(vigilRss / 1024).toFixed(0)} (empty: ${(baseRss / 1024).toFixed(0)}) | ${peerCol((p) => (p.rss / 1024).toFixed(0))} |`,
);
console.log(
  `| bytes per record | ${Math.round(((vigilRss - baseRss) * 1024) / total)} | ${peerCol((p) => String(Math.round((p.rss * 1024) / total)))} |`,
);
console.log(`| one change in one zone: served after | ${changeTime}; zone versions re-indexed: ${rebuilt} | | |`);
console.log(
  `| that change's reload: serials read, snapshots read, versions indexed, full serial reads | ${work('serials')}, ${work('reads')}, ${work('builds')}, ${work('fullReads')} | | |`,
);
console.log(`| BIND secondary serving ${CATALOG_MEMBERS} catalog members | ${catalogTime} | | |`);
console.log(`total ${since(t0)}`);
await vigil.stop();
