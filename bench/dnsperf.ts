/**
 * Name-server benchmark (issue 4): dnsperf against Vigil and, in the same
 * run on loopback, BIND 9, NSD and Knot serving the same 10,000-record zone
 * (the zone text Vigil's dnsBuildZone.php writes). Queries: 80% existing
 * names, 20% NXDOMAIN. Servers that are not installed are left out.
 * Response rate limiting is off for every server (dnsperf-kit.ts RRL_OFF).
 *
 *   node --import tsx bench/dnsperf.ts [--seconds 10]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addAccount, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import { bulkARecords, dnsperf, knotConfig, queryFile, RRL_NOTE, RRL_OFF, until } from './dnsperf-kit.ts';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
const ZONE = 'perf.example';
const N = 10_000;
const dir = tempDir('vigil-dnsperf-');

// Vigil: the zone through the API and the store, published and distributed.
const dnsPort = await freePort();
const vigil = await serve({
  args: ['--dns-port', String(dnsPort), '--publish-interval', '500ms', '--domain-hold', 'none', ...RRL_OFF],
});
const c = vigil.client();
await c.login(await addAccount(vigil.dataDir, 'perf', 'perf password', '--dns-credits', '1'), 'perf', 'perf password');
await c.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
bulkARecords(vigil.dataDir, ZONE, N);
const zoneText = (await c.call('dnsBuildZone.php', { domain: ZONE })).zone as string;
const pub = await c.call('dnsPublish.php', { domain: ZONE });
if (pub.errors) throw new Error(pub.errors[0]);
await until(
  async () => (await udpQuery(dnsPort, `host9999.${ZONE}`, 'A')).answers?.length === 1,
  'Vigil serves the zone',
);

// The same data directory served by name-server workers sharing the socket.
const workersPort = await freePort();
const vigilWorkers = await serve({
  dataDir: vigil.dataDir,
  args: ['--dns-port', String(workersPort), '--dns-workers', '2', '--https-port', '0', '--http-port', '0', ...RRL_OFF],
});
await until(
  async () => (await udpQuery(workersPort, `host9999.${ZONE}`, 'A')).answers?.length === 1,
  'Vigil workers serve the zone',
);
// And the same two workers on node:dgram, the fallback where the native UDP I/O is not built.
const dgramPort = await freePort();
const vigilDgram = await serve({
  dataDir: vigil.dataDir,
  env: { VIGIL_DNS_IO: 'node' },
  args: ['--dns-port', String(dgramPort), '--dns-workers', '2', '--https-port', '0', '--http-port', '0', ...RRL_OFF],
});
await until(
  async () => (await udpQuery(dgramPort, `host9999.${ZONE}`, 'A')).answers?.length === 1,
  'Vigil node:dgram workers serve the zone',
);

const zoneFile = join(dir, `${ZONE}.zone`);
writeFileSync(zoneFile, zoneText);
const queries = queryFile(dir, ZONE, N);

const peers: { name: string; port: number; proc: ChildProcess }[] = [];
async function start(
  name: string,
  tool: string,
  args: (port: number, d: string) => string[],
  config: (port: number, d: string) => [string, string],
) {
  if (!hasTool(tool)) return console.log(`${name}: not installed, left out`);
  const port = await freePort();
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  const [file, text] = config(port, d);
  writeFileSync(join(d, file), text);
  const proc = spawn(tool, args(port, d), { stdio: 'ignore' });
  peers.push({ name, port, proc });
  await until(
    async () => (await udpQuery(port, `host1.${ZONE}`, 'A')).answers?.length === 1,
    `${name} serves the zone`,
  );
}

await start(
  'BIND',
  'named',
  (_p, d) => ['-g', '-n', '2', '-c', join(d, 'named.conf')],
  (p, d) => [
    'named.conf',
    `
options { directory "${d}"; pid-file "${d}/pid"; session-keyfile "${d}/sk"; managed-keys-directory "${d}";
  listen-on port ${p} { 127.0.0.1; }; listen-on-v6 { none; }; recursion no; dnssec-validation no; };
controls { };
zone "${ZONE}" { type primary; file "${zoneFile}"; };
`,
  ],
);
await start(
  'NSD',
  'nsd',
  (_p, d) => ['-d', '-c', join(d, 'nsd.conf')],
  (p, d) => [
    'nsd.conf',
    `
server:
  ip-address: 127.0.0.1@${p}
  do-ip6: no
  server-count: 2
  username: ""
  chroot: ""
  zonesdir: "${d}"
  database: ""
  pidfile: "${d}/nsd.pid"
  xfrdfile: "${d}/xfrd.state"
  zonelistfile: "${d}/zone.list"
  rrl-ratelimit: 0
remote-control:
  control-enable: no
zone:
  name: ${ZONE}
  zonefile: "${zoneFile}"
`,
  ],
);
await start(
  'Knot',
  'knotd',
  (_p, d) => ['-c', join(d, 'knot.conf')],
  (p, d) => ['knot.conf', knotConfig(p, d, ZONE, zoneFile)],
);

try {
  const rows = [
    { name: 'Vigil (1 process)', ...dnsperf(dnsPort, queries, seconds) },
    { name: 'Vigil (2 workers)', ...dnsperf(workersPort, queries, seconds) },
    { name: 'Vigil (2 workers, node:dgram)', ...dnsperf(dgramPort, queries, seconds) },
  ];
  for (const p of peers) rows.push({ name: p.name, ...dnsperf(p.port, queries, seconds) });
  const vigilQps = Math.max(rows[0]!.qps, rows[1]!.qps);
  console.log(`\ndnsperf -c 8 -T 2 -q 1000 -l ${seconds}, ${N}-record zone, 80% hits / 20% NXDOMAIN`);
  console.log(`${RRL_NOTE}\n`);
  console.log('| server | queries/s | avg latency ms | lost % | best Vigil / server |\n|---|---|---|---|---|');
  for (const r of rows)
    console.log(`| ${r.name} | ${r.qps} | ${r.latencyMs} | ${r.lostPct} | ${(vigilQps / r.qps).toFixed(2)} |`);
} finally {
  for (const p of peers) p.proc.kill('SIGTERM');
  await vigilWorkers.stop();
  await vigilDgram.stop();
  await vigil.stop();
}
