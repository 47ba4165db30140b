/**
 * Detection benchmark on real Debian daemons: weak configurations, each
 * with a hardened twin (bench/detection/fleet/, one file per daemon kind),
 * scored for Vigil (each audit type) and for nmap, side by side in the same
 * run. A measurement: it never asserts.
 *   node --import tsx bench/detection.ts [results.json]
 *   VIGIL_BENCH_KINDS=nginx,samba …   only those daemon kinds
 *   VIGIL_BENCH_TYPES=standard,advanced   only those audit types
 *   VIGIL_BENCH_NMAP=0   no nmap column
 *
 * Runs as root (daemons bind port < 1024, nmap -sU, loopback aliases).
 * The daemons (not in .ci/run: the bench is not run in CI):
 *   DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends \
 *     nginx php-fpm apache2 openssl postfix dovecot-imapd dovecot-pop3d vsftpd openssh-server bind9 \
 *     postgresql mariadb-server redis-server memcached slapd ldap-utils rsync samba xvfb socat \
 *     tftpd-hpa snmpd nmap git \
 *     rpcbind rusersd rsh-redone-server openbsd-inetd fingerd finger tgt \
 *     and the later kinds' packages, as .ci/run's TOOLS lists them (ypserv xrdp zookeeper prosody kamailio
 *     cups icecast2 libcoap3-bin ngircd beanstalkd gearman-job-server graphite-carbon varnish subversion
 *     docker-registry nagios4 phpmyadmin cacti …)
 * Debian's policy-rc.d in containers keeps the packages' own instances from
 * starting; elsewhere stop them (`service X stop`): the fleet binds
 * 127.14.K.N only, and anything on 0.0.0.0 shows on every address.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { Fence } from '../src/audit/engine/fence.ts';
import { runAudit } from '../src/audit/engine/run.ts';
import { CHECKS } from '../src/audit/checks/catalogue.ts';
import type { AuditType } from '../src/audit/types.ts';
import { wildcardListeners } from '../test/helpers/targets.ts';
import { killNmap, nmapAvailable, runNmapPerHost } from './detection/nmap.ts';
import { ADDRESSES, DAEMONS, WEAKNESSES, daemonAt } from './detection/fleet/index.ts';
import { judgeNmap, judgeVigil, type Score } from './detection/judge.ts';
import { report } from './detection/report.ts';
import { benchCaCert } from './detection/certs.ts';
import { FLEET_TAG_ENV, fleetTag, reapFleet } from './detection/fleet/reap.ts';

const ALL_TYPES: AuditType[] = ['basic', 'norisk', 'desktop', 'standard', 'advanced'];
const TYPES = process.env.VIGIL_BENCH_TYPES ? (process.env.VIGIL_BENCH_TYPES.split(',') as AuditType[]) : ALL_TYPES;
/** Per address: one nmap process per target address, six at a time, each bounded. */
const NMAP_LIMIT_MS = 3 * 60_000;
/**
 * nmap's `default,vuln,safe` (the outside benchmark's yardstick), minus scripts that would leave loopback
 * (external, broadcast, and fcrdns, which asks the system's resolver for the target's PTR: seen sending a
 * query to the host's resolver). `--dns-servers` points any other lookup of a script at loopback, where
 * nothing answers.
 */
const NMAP_SCRIPTS = '(default or vuln or safe) and not (external or broadcast or fcrdns)';
const NMAP_DNS = '127.0.30.7';
const jsonPath = process.argv[2];
const log = (s: string) => process.stderr.write(`${s}\n`);

let fleet: ChildProcess | null = null;
let groups: number[] = [];
let fleetDied: string | null = null;

async function startFleetProcess(): Promise<{ up: string[]; skipped: string[]; notes: string[] }> {
  const serve = fileURLToPath(new URL('./detection/serve.ts', import.meta.url));
  // The fleet's tag (reap.ts) is chosen here, so that this process can find the fleet's daemons even when the
  // fleet process dies or is interrupted before it reports its groups.
  fleet = spawn(process.execPath, ['--import', 'tsx', serve], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, [FLEET_TAG_ENV]: fleetTag() },
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: fleet!.stdout! }).once('line', resolve);
    fleet!.once('exit', (code) => reject(new Error(`fleet process exited (${code})`)));
  });
  fleet.once('exit', (code) => {
    if (fleet) (fleetDied = `fleet process exited early (${code})`), log(`warning: ${fleetDied}`);
  });
  const msg = JSON.parse(first);
  if (!msg.ready) throw new Error(`fleet failed: ${msg.error}`);
  groups = msg.groups ?? [];
  return msg;
}

let stopping: Promise<void> | null = null;
/** Once, however many signals arrive: a second Ctrl-C must not exit before the fleet is down. */
function stopFleetProcess(): Promise<void> {
  stopping ??= stopFleetNow();
  return stopping;
}

async function stopFleetNow(): Promise<void> {
  killNmap();
  const child = fleet;
  fleet = null;
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  // What the fleet process did not stop (it died first, or was cut short): its groups and tagged processes.
  await reapFleet(groups, fleetTag(), 2000);
}

process.on('SIGINT', () => void stopFleetProcess().then(() => process.exit(130)));
process.on('SIGTERM', () => void stopFleetProcess().then(() => process.exit(143)));

async function vigil(type: AuditType, addresses: string[], wildcard: Set<number>): Promise<Score> {
  const t0 = performance.now();
  try {
    // The bench CA signs the fleet's good certificates: Vigil is told to trust it, as an operator does
    // an internal CA with serve --audit-ca, so only the rogue CA's certificates are untrusted.
    const result = await runAudit({ type, excludedos: false, addresses }, new Fence(addresses, ['127.0.0.0/8']), {
      caCertificates: [await benchCaCert()],
    });
    return judgeVigil(result, wildcard, performance.now() - t0);
  } catch (err) {
    return {
      ms: performance.now() - t0,
      found: {},
      falsePositives: [],
      wrongAttributions: [],
      otherOnTargets: [],
      ignoredWildcard: 0,
      error: String((err as Error).message ?? err),
    };
  }
}

/** nmap is told each address's ports (T: and U:), which spares it the port scan Vigil does itself. */
function nmapArgs(address: string): string[] {
  const d = daemonAt(address);
  const tcp = d?.ports.tcp ?? [80];
  const udp = d?.ports.udp ?? [];
  const ports = [...(tcp.length ? [`T:${tcp.join(',')}`] : []), ...(udp.length ? [`U:${udp.join(',')}`] : [])].join(
    ',',
  );
  return [
    '-n',
    '--dns-servers',
    NMAP_DNS,
    '-Pn',
    ...(tcp.length ? ['-sT'] : []),
    ...(udp.length ? ['-sU'] : []),
    '-sV',
    '--script',
    NMAP_SCRIPTS,
    '-p',
    ports,
  ];
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const t0 = performance.now();
const results: Record<string, unknown> = {};
try {
  await benchCaCert(); // made here first: the fleet's process inherits VIGIL_BENCH_CA_DIR and signs with it
  const ready = await startFleetProcess();
  log(`fleet up: ${ready.up.join(', ')}`);
  for (const s of ready.skipped) log(`  skipped ${s}`);
  const up = new Set(ready.up.map((u) => u.replace(/ \(.*$/, '')));
  const addresses = ADDRESSES.filter((a) => up.has(daemonAt(a)?.kind ?? ''));
  const planted = WEAKNESSES.filter((w) => up.has(daemonAt(w.address)?.kind ?? ''));
  // Read after the fleet is up: 0.0.0.0 listeners then are other programs', shown on every address.
  const wildcard = wildcardListeners();
  if (wildcard.size) log(`ports listening on 0.0.0.0 (left out of the scoring): ${[...wildcard].join(',')}`);

  const runs: Record<string, Score> = {};
  for (const type of TYPES) {
    log(`vigil ${type} …`);
    runs[type] = await vigil(type, addresses, wildcard);
    log(
      `  ${secs(runs[type]!.ms)}, ${planted.filter((w) => runs[type]!.found[w.id]).length}/${planted.length} found, ${runs[type]!.falsePositives.length} false positives${runs[type]!.error ? `, error: ${runs[type]!.error}` : ''}`,
    );
  }
  if (process.env.VIGIL_BENCH_NMAP !== '0' && (await nmapAvailable())) {
    log('nmap default,vuln,safe …');
    const run = await runNmapPerHost(nmapArgs, addresses, NMAP_LIMIT_MS, 6);
    runs.nmap = judgeNmap(run, wildcard);
    if (run.exitCode !== 0) runs.nmap.error = run.stderr;
    log(
      `  ${secs(run.ms)}, ${planted.filter((w) => runs.nmap!.found[w.id]).length}/${planted.length} found, ${run.hosts.size} hosts in the XML`,
    );
  } else log('no nmap column');

  console.log(
    report(runs, planted, {
      up: ready.up,
      skipped: ready.skipped,
      notes: ready.notes,
      checks: CHECKS.length,
      scripts: NMAP_SCRIPTS,
      totalMs: performance.now() - t0,
    }),
  );
  Object.assign(results, {
    weaknesses: planted.map((w) => ({
      id: w.id,
      family: w.family,
      label: w.label,
      daemon: w.daemon,
      address: w.address,
      port: w.port,
      proto: w.proto,
    })),
    twins: DAEMONS.flatMap((d) => d.twins.map((t) => ({ kind: d.kind, ...t }))),
    fleet: ready,
    runs,
    totalMs: performance.now() - t0,
    fleetDied,
  });
  if (fleetDied) console.log(`\nWARNING: ${fleetDied}; results after that point are not valid.`);
} catch (err) {
  log(`bench failed: ${(err as Error).stack ?? err}`);
  results.error = String((err as Error).message ?? err);
  process.exitCode = 1;
} finally {
  await stopFleetProcess();
}
const json = JSON.stringify(results, null, 2);
if (jsonPath) writeFileSync(jsonPath, `${json}\n`);
else console.log(`\n${json}`);
