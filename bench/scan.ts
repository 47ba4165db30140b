/**
 * Port scan and service detection benchmark, Vigil vs nmap, on loopback:
 * 50 minimal Node HTTP servers on 127.0.0.2 (not 127.0.0.1, so that other
 * local listeners stay out of the count; wildcard listeners still show in
 * both tools' results alike).
 *   node --import tsx bench/scan.ts
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { detectServices } from '../src/audit/engine/detect.ts';
import { Fence } from '../src/audit/engine/fence.ts';
import { scanPorts } from '../src/audit/engine/portscan.ts';
import { portsFor } from '../src/audit/engine/ports.ts';

const ADDRESS = '127.0.0.2';
const RUNS = 3;
const run = promisify(execFile);

const servers: Server[] = [];
for (let i = 0; i < 50; i++) {
  const s = createServer((_q, r) => r.end('ok\n'));
  await new Promise<void>((r) => s.listen(0, ADDRESS, r));
  servers.push(s);
}
const ours = servers.map((s) => (s.address() as { port: number }).port).sort((a, b) => a - b);
const fence = new Fence([ADDRESS], ['127.0.0.0/8']);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await f();
  return [performance.now() - t0, v];
}

// nmap is async (execFile) so the servers in this process keep answering.
async function nmapScan(mode = '-sT'): Promise<number[]> {
  const { stdout } = await run('/usr/bin/nmap', [mode, '-p-', '-n', '-Pn', '-T4', '-oG', '-', ADDRESS], {
    maxBuffer: 1 << 24,
  });
  return [...stdout.matchAll(/(\d+)\/open\/tcp/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

const all = portsFor('advanced');
const vigil: number[] = [];
const vigil1: number[] = [];
const nmap: number[] = [];
const nmapS: number[] = [];
// Vigil sends SYN probes where it may open a raw socket (root here), as nmap -sS does; both nmap modes run.
const root = process.getuid?.() === 0;
let vigilPorts: number[] = [];
let nmapPorts: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const [tv, pv] = await timed(() => scanPorts({ fence, address: ADDRESS }, all));
  const [tn, pn] = await timed(nmapScan);
  const [t1] = await timed(() => scanPorts({ fence, address: ADDRESS }, all, { threads: 1 }));
  vigil1.push(t1);
  if (root) nmapS.push((await timed(() => nmapScan('-sS')))[0]);
  vigil.push(tv);
  nmap.push(tn);
  vigilPorts = pv;
  nmapPorts = pn;
}
const [tvNet, pvNet] = await timed(() => scanPorts(fence.net(ADDRESS), all));
const same = JSON.stringify(vigilPorts) === JSON.stringify(nmapPorts);
const ms = (x: number) => `${Math.round(x)} ms`;

// Service detection of our 50 ports.
const [td, services] = await timed(() => detectServices(fence.net(ADDRESS), ours));
const vHttp = services.filter((s) => s.name === 'http').length;
const vUnknown = services.filter((s) => s.name === 'unknown').length;
const [tnv, { stdout }] = await timed(() =>
  run('/usr/bin/nmap', ['-sV', '-n', '-Pn', '-p', ours.join(','), '-oG', '-', ADDRESS], { maxBuffer: 1 << 24 }),
);
const nmapNames = [...stdout.matchAll(/\d+\/open\/tcp\/\/([^/]*)\//g)].map((m) => m[1] || 'unknown');
const nHttp = nmapNames.filter((n) => n === 'http').length;
const nUnknown = nmapNames.filter((n) => n === 'unknown').length;

console.log(`\n50 HTTP servers on ${ADDRESS}; ${RUNS} runs each, median\n`);
console.log('| task | tool | wall time (median) | runs | result |');
console.log('|---|---|---|---|---|');
console.log(
  `| full TCP scan 1-65535 | Vigil scanPorts (native addon, 2 worker threads) | ${ms(median(vigil))} | ${vigil.map(ms).join(', ')} | ${vigilPorts.length} open |`,
);
console.log(
  `| full TCP scan 1-65535 | Vigil scanPorts (native addon, 1 thread) | ${ms(median(vigil1))} | ${vigil1.map(ms).join(', ')} | |`,
);
console.log(
  `| full TCP scan 1-65535 | nmap -sT -p- -n -Pn -T4 | ${ms(median(nmap))} | ${nmap.map(ms).join(', ')} | ${nmapPorts.length} open |`,
);
if (root)
  console.log(
    `| full TCP scan 1-65535 | nmap -sS -p- -n -Pn -T4 | ${ms(median(nmapS))} | ${nmapS.map(ms).join(', ')} | |`,
  );
console.log(
  `| full TCP scan 1-65535 | Vigil scanPorts (plain Net path, node:net) | ${ms(tvNet)} | 1 | ${pvNet.length} open |`,
);
console.log(
  `| ratio Vigil / nmap -sT (medians) | 2 threads ${(median(vigil) / median(nmap)).toFixed(2)}× | 1 thread ${(median(vigil1) / median(nmap)).toFixed(2)}× | ${root ? `vs -sS: ${(median(vigil) / median(nmapS)).toFixed(2)}×` : ''} | |`,
);
console.log(
  `| same open ports (fast path vs nmap) | | | | ${same ? 'identical' : `DIFFER: vigil-only ${vigilPorts.filter((p) => !nmapPorts.includes(p))}, nmap-only ${nmapPorts.filter((p) => !vigilPorts.includes(p))}`} |`,
);
console.log(`| detection of 50 ports | Vigil detectServices | ${ms(td)} | 1 | ${vHttp} http, ${vUnknown} unknown |`);
console.log(`| detection of 50 ports | nmap -sV -n -Pn | ${ms(tnv)} | 1 | ${nHttp} http, ${nUnknown} unknown |`);
servers.forEach((s) => s.close());
