/**
 * Range scan across an emulated WAN, Vigil vs nmap -sS and -sT (issue 26).
 *   node --import tsx bench/wan.ts            full matrix, ports 1-65535 (hours for nmap)
 *   node --import tsx bench/wan.ts --quick    ports: the `standard` list + every planted port
 *   --setting N (0, 1, 2): that setting only; --vigil-only: no nmap runs (nmap's full range takes hours)
 *   --audit basic,standard,advanced: the whole audit (runAudit: scan, detection, checks) of each type
 *     instead of the scanner alone, next to nmap -sS on the type's ports (wan/audit-mode.ts);
 *     --nmap-full: nmap on 1-65535 for `advanced` too (else the --quick list); --profile: then each
 *     check alone on the busiest host; --host-concurrency N: the engine's hosts at once; --nmap-only:
 *     nmap's rows alone (its full range at 200 ms runs over half an hour: start it apart)
 * Needs root, ip(8), /dev/net/tun, cc and nmap. Builds its own two network
 * namespaces (wan/netns.ts): no default route, no other interface, routes
 * printed; 198.18.1.0/24 exists only in there. The /24 holds 40 live
 * hosts speaking real banners (HTTP, SSH, SMTP, TLS; wan/targets.ts), 7
 * filtered ports, one ping-deaf host, two hosts that drop everything but
 * their open ports (one of them on 22 only: nmap's default discovery,
 * ICMP + SYN 443 + ACK 80, cannot see it), and 214 empty addresses.
 * Settings: 50 ms RTT with 0% and 2% loss, 200 ms RTT; jitter ±10%.
 */
import { portsFor } from '../src/audit/engine/ports.ts';
import { portRanges } from '../src/audit/report-ports.ts';
import type { HostScan } from '../src/audit/engine/scan/scan.ts';
import type { AuditType } from '../src/audit/types.ts';
import { auditRows } from './wan/audit-mode.ts';
import { createWan, runIn, wanUnsupported } from './wan/netns.ts';
import type { Kind, TargetHost } from './wan/targets.ts';

const quick = process.argv.includes('--quick');
const NET = '198.18.1';
const KINDS: [Kind, number][] = [
  ['http', 80],
  ['ssh', 22],
  ['smtp', 25],
  ['tls', 443],
  ['http', 8080],
  ['ssh', 2222],
  ['smtp', 587],
  ['tls', 8443],
];

// Ground truth, deterministic: host k has services k % 4 + 1 of the list, rotated by k, plus an odd high port on every fifth.
const hosts: TargetHost[] = [];
for (let k = 0; k < 40; k++) {
  const services = Array.from({ length: (k % 4) + 1 }, (_, j) => {
    const [kind, port] = KINDS[(k + j * 3) % KINDS.length]!;
    return { kind, port };
  });
  if (k % 5 === 0) services.push({ kind: 'http', port: 20000 + k * 97 });
  hosts.push({ address: `${NET}.${10 + k}`, services });
}
// Two hosts drop everything but their open ports; the first only has 22 open.
hosts[38]!.services = [{ kind: 'ssh', port: 22 }];
hosts[39]!.services = [{ kind: 'tls', port: 443 }];
const rules = [
  `o:${hosts[38]!.address}:22`,
  `o:${hosts[39]!.address}:443`,
  `d:${hosts[37]!.address}`,
  ...[3, 7, 11, 15, 19, 23, 27].map((k) => `f:${hosts[k]!.address}:${k % 2 ? 3306 : 139}`),
];
const filteredTruth = rules.filter((r) => r.startsWith('f:')).map((r) => r.slice(2));
const openTruth = new Set(hosts.flatMap((h) => h.services.map((s) => `${h.address}:${s.port}`)));
const live = new Set(hosts.map((h) => h.address));
const quickPorts = [
  ...new Set([...portsFor('standard'), ...hosts.flatMap((h) => h.services.map((s) => s.port)), 139, 3306]),
].sort((a, b) => a - b);
const ports = quick ? quickPorts : Array.from({ length: 65535 }, (_, i) => i + 1);
const auditArg = process.argv.indexOf('--audit');
const hc = process.argv.indexOf('--host-concurrency');
const auditTypes = auditArg > 0 ? (process.argv[auditArg + 1]!.split(',') as AuditType[]) : null;
const portArg = portRanges(ports);
const allSettings = [
  { rtt: 50, loss: 0 },
  { rtt: 50, loss: 0.02 },
  { rtt: 200, loss: 0 },
];
// --setting N: that one setting only (0, 1, 2).
const only = process.argv.indexOf('--setting');
const settings = only > 0 ? [allSettings[Number(process.argv[only + 1])]!] : allSettings;

interface Score {
  tool: string;
  ms: number;
  hosts: string[];
  open: string[];
  detected?: number;
}

/** nmap's grepable output: the hosts it calls up, and the open ports. */
function readNmap(text: string): { hosts: string[]; open: string[] } {
  const up = new Set<string>();
  const open: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^Host: (\S+) .*Status: Up/.exec(line);
    if (m) up.add(m[1]!);
    const p = /^Host: (\S+) .*Ports: (.*)/.exec(line);
    if (p) {
      up.add(p[1]!);
      for (const e of p[2]!.matchAll(/(\d+)\/open\/tcp/g)) open.push(`${p[1]}:${e[1]}`);
    }
  }
  return { hosts: [...up], open };
}

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await f();
  return [performance.now() - t0, v];
}

/**
 * One table row per tool and setting, printed as soon as it is known.
 * `scope`: the ports that tool scanned, when not all of the planted ones
 * (an audit type's list): the truth it is scored on is what lies in there.
 */
function row(setting: string, sc: Score, scope?: ReadonlySet<number>): void {
  const inScope = (o: string) => !scope || scope.has(Number(o.split(':')[1]));
  const truth = new Set([...openTruth].filter(inScope));
  const filtered = filteredTruth.filter(inScope);
  const found = sc.open.filter((o) => truth.has(o)).length;
  const falseOpen = sc.open.filter((o) => !openTruth.has(o)).length;
  const filteredOk = filtered.filter((f) => !sc.open.includes(f)).length;
  const hostsFound = sc.hosts.filter((h) => live.has(h)).length;
  const extra = sc.hosts.length > hostsFound ? ` (+${sc.hosts.length - hostsFound} empty)` : '';
  const missed = [...truth].filter((o) => !sc.open.includes(o));
  if (missed.length) console.error(`${sc.tool}, ${setting}: missed ${missed.join(' ')}`);
  console.log(
    `| ${setting} | ${sc.tool} | ${(sc.ms / 1000).toFixed(1)} s | ${hostsFound}/40${extra} | ${found}/${truth.size} | ${falseOpen} | ${filteredOk}/${filtered.length} | ${sc.detected ?? '–'} |`,
  );
}

const why = wanUnsupported();
if (why) {
  console.error(`bench/wan.ts cannot run here: ${why}`);
  process.exit(1);
}
let printedRoutes = false;
const header = () => {
  console.log(
    `\n${auditTypes ? `--audit ${auditTypes.join(',')}: each type's own ports` : quick ? `--quick: ${ports.length} TCP ports` : 'full: 1-65535'} on ${NET}.0/24; 40 live hosts, ${openTruth.size} open ports, ${filteredTruth.length} filtered ports\n`,
  );
  console.log(
    '| setting | tool | wall time | hosts found | open ports found | false opens | filtered not called open | services named |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
};
for (const s of settings) {
  const wan = await createWan({
    id: `b${process.pid % 10000}`,
    delayMs: s.rtt / 2,
    jitterMs: s.rtt / 20,
    loss: s.loss,
    rules,
    targets: [...live],
  });
  // Interrupted: the namespaces, the forwarder and the servers go too.
  const stop = () => {
    wan.close();
    process.exit(130);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    if (!printedRoutes) {
      console.log(`Routes inside the bench's namespaces (no default route, nothing else attached):\n${wan.routes()}`);
      printedRoutes = true;
      header();
    }
    const servers = wan.spawnIn(wan.targetNs, process.execPath, [
      '--import',
      'tsx',
      new URL('./wan/targets.ts', import.meta.url).pathname,
      JSON.stringify(hosts),
    ]);
    await new Promise<void>((resolve, reject) => {
      servers.stdout!.once('data', () => resolve());
      servers.once('exit', (code) => reject(new Error(`targets exited (${code})`)));
    });
    const addresses = Array.from({ length: 256 }, (_, i) => `${NET}.${i}`);
    const setting = `${s.rtt} ms RTT, ${s.loss * 100}% loss`;
    if (auditTypes) {
      await auditRows({
        wan,
        setting,
        addresses,
        types: auditTypes,
        quickPorts,
        nmapFull: process.argv.includes('--nmap-full'),
        vigilOnly: process.argv.includes('--vigil-only'),
        nmapOnly: process.argv.includes('--nmap-only'),
        net: NET,
        child: {
          profile: process.argv.includes('--profile'),
          ...(hc > 0 ? { hostConcurrency: Number(process.argv[hc + 1]) } : {}),
        },
        row,
        readNmap,
      });
      continue;
    }
    const [vms, vout] = await timed(() =>
      runIn(wan, wan.scanNs, process.execPath, [
        '--import',
        'tsx',
        new URL('./wan/vigil-scan.ts', import.meta.url).pathname,
        JSON.stringify({ addresses, ports: portArg, detect: true }),
      ]),
    );
    const v = JSON.parse(vout.trim().split('\n').pop()!) as {
      scanMs: number;
      hosts: HostScan[];
      services: Record<string, string[]>;
      ended: number[];
    };
    // Where the scan's time goes: when discovery gave up on the last empty address, when live hosts ended.
    const ends = (up: boolean) => v.ended.filter((_, i) => v.hosts[i]!.up === up).sort((a, b) => a - b);
    const [down, up] = [ends(false), ends(true)];
    console.error(
      `Vigil, ${s.rtt} ms RTT, ${s.loss * 100}% loss: last empty address given up at ${down.at(-1)} ms; live hosts' scans ended at ${up[0]} (first), ${up[up.length >> 1]} (median), ${up.at(-1)} ms (last)`,
    );
    const short = (h: HostScan) =>
      [...openTruth].some((o) => o.startsWith(`${h.address}:`) && !h.open.includes(Number(o.split(':')[1])));
    for (const h of v.hosts.filter((x) => x.dropped || x.filtered > 10 || short(x)))
      console.error(
        `Vigil ${h.address}: open ${h.open}, closed ${h.closed}, filtered ${h.filtered}, dropped ${h.dropped}, rtt ${h.rttMs}`,
      );
    row(setting, {
      tool: 'Vigil (discovery + scan)',
      ms: v.scanMs,
      hosts: v.hosts.filter((h) => h.up).map((h) => h.address),
      open: v.hosts.flatMap((h) => h.open.map((p) => `${h.address}:${p}`)),
      detected: Object.values(v.services)
        .flat()
        .filter((x) => !x.endsWith('/unknown')).length,
    });
    void vms;
    for (const mode of process.argv.includes('--vigil-only') ? [] : ['-sS', '-sT']) {
      const [ms, out] = await timed(() =>
        runIn(wan, wan.scanNs, 'nmap', [mode, '-T4', '-n', '-p', portArg, '-oG', '-', `${NET}.0/24`]),
      );
      row(setting, { tool: `nmap ${mode} -T4`, ms, ...readNmap(out) });
    }
  } finally {
    process.off('SIGINT', stop).off('SIGTERM', stop);
    wan.close();
  }
}
