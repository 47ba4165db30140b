/**
 * Name-server benchmark (issue 4): dnsperf against Vigil and, in the same
 * run on loopback, BIND 9, NSD and Knot serving the same 10,000-record zone
 * (the zone text Vigil's dnsBuildZone.php writes). Queries: 80% existing
 * names, 20% NXDOMAIN. Servers that are not installed are left out.
 * Response rate limiting is off for every server (dnsperf-kit.ts RRL_OFF).
 *
 *   node --import tsx bench/dnsperf.ts [--seconds 10] [--rounds 3] [--only vigil,knot]
 *
 * Each round runs every server once, the order turning (dnsperf-kit.ts
 * roundsTable): the machine is shared, so medians of alternating rounds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addAccount, freePort, serve, tempDir } from '../test/helpers/server.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import {
  bulkARecords,
  dnsperfTarget,
  knotConfig,
  queryFile,
  RRL_OFF,
  roundsTable,
  type Target,
  until,
} from './dnsperf-kit.ts';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 10;
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 3;
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

/** The same data directory served by another serve, DNS only, with these flags and environment. */
async function sibling(what: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const port = await freePort();
  const s = await serve({
    dataDir: vigil.dataDir,
    env,
    args: ['--dns-port', String(port), '--https-port', '0', '--http-port', '0', ...RRL_OFF, ...args],
  });
  siblings.push(s);
  await until(async () => (await udpQuery(port, `host9999.${ZONE}`, 'A')).answers?.length === 1, what);
  return port;
}
const siblings: Awaited<ReturnType<typeof serve>>[] = [];
// Two name-server worker processes sharing the port (each a receive thread: the cores shared out).
const workersPort = await sibling('Vigil workers', ['--dns-workers', '2']);
// Before issue 32, in the same run: one receive thread on one socket, the kernel's hash (udp-fast.ts udpPlan).
const beforePort = await sibling('Vigil as before', [], { VIGIL_DNS_THREADS: '1', VIGIL_DNS_STEER: 'hash' });
const beforeWorkersPort = await sibling('Vigil workers as before', ['--dns-workers', '2'], {
  VIGIL_DNS_THREADS: '1',
  VIGIL_DNS_STEER: 'hash',
});
// And two workers on node:dgram, the fallback where the native UDP I/O is not built.
const dgramPort = await sibling('Vigil node:dgram workers', ['--dns-workers', '2'], { VIGIL_DNS_IO: 'node' });

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
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]!.split(',') : [];
  const targets: Target[] = [
    dnsperfTarget('Vigil (1 process)', true, dnsPort, queries, seconds),
    dnsperfTarget('Vigil (2 workers)', true, workersPort, queries, seconds),
    dnsperfTarget('Vigil (1 process), before: 1 thread, hash', true, beforePort, queries, seconds),
    dnsperfTarget('Vigil (2 workers), before: hash', true, beforeWorkersPort, queries, seconds),
    dnsperfTarget('Vigil (2 workers, node:dgram)', true, dgramPort, queries, seconds),
    ...peers.map((p) => dnsperfTarget(p.name, false, p.port, queries, seconds)),
  ].filter((t) => !only.length || only.some((o) => t.name.toLowerCase().includes(o.toLowerCase())));
  roundsTable(
    targets,
    rounds,
    `dnsperf -c 8 -T 2 -q 1000 -l ${seconds}, ${N}-record zone, 80% hits / 20% NXDOMAIN, unsigned`,
  );
} finally {
  for (const p of peers) p.proc.kill('SIGTERM');
  for (const s of siblings) await s.stop();
  await vigil.stop();
}
