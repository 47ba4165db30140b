/**
 * Detection benchmark: planted weaknesses on loopback targets, found by
 * Vigil (each audit type) and by nmap, side by side, plus what both flag
 * on hardened twins (false positives). A measurement: it never asserts.
 *   node --import tsx bench/detection.ts [results.json]
 * Targets: bench/detection/plan.ts (weaknesses, matchers) and serve.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { Fence } from '../src/audit/engine/fence.ts';
import { runAudit } from '../src/audit/engine/run.ts';
import { CHECKS } from '../src/audit/engine/checks/catalogue.ts';
import type { AuditType } from '../src/audit/types.ts';
import { wildcardListeners } from '../test/helpers/targets.ts';
import { killNmap, nmapAvailable, runNmapPerHost, type NmapRun } from './detection/nmap.ts';
import { ADDRESSES, ALL_PORTS, PORTS, TWINS, WEAKNESSES, type Kind } from './detection/plan.ts';

const TYPES: AuditType[] = ['basic', 'norisk', 'desktop', 'standard', 'advanced'];
/** Per address: nmap runs one process per target address, four at a time. */
const NMAP_LIMIT_MS = 5 * 60_000;
/** `--script vuln` minus the "external" scripts (vulners, http-cross-domain-policy): they would contact the internet. */
const NMAP_RUNS = { 'nmap vuln': 'vuln and not external', 'nmap default+vuln': '(default or vuln) and not external' } as const;
const jsonPath = process.argv[2];
const log = (s: string) => process.stderr.write(`${s}\n`);

let targets: ChildProcess | null = null;
let targetPids: number[] = [];
let targetsDied: string | null = null;

/** Starts serve.ts and waits for its ready line. */
async function startTargets(): Promise<{ notes: string[]; listeners: string[] }> {
  const serve = fileURLToPath(new URL('./detection/serve.ts', import.meta.url));
  targets = spawn(process.execPath, ['--import', 'tsx', serve], { stdio: ['pipe', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: targets!.stdout! }).once('line', resolve);
    targets!.once('exit', (code) => reject(new Error(`target process exited (${code})`)));
  });
  targets.once('exit', (code) => {
    if (targets) (targetsDied = `target process exited early (${code})`), log(`warning: ${targetsDied}`);
  });
  const msg = JSON.parse(first);
  if (!msg.ready) throw new Error(`targets failed: ${msg.error}`);
  targetPids = msg.pids ?? [];
  return msg;
}

async function stopTargets(): Promise<void> {
  killNmap();
  const child = targets;
  targets = null;
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  // nginx is the child's child: make sure it went with it.
  for (const pid of targetPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

process.on('SIGINT', () => void stopTargets().then(() => process.exit(130)));
process.on('SIGTERM', () => void stopTargets().then(() => process.exit(143)));

/** The twin's ports: those of every kind it stands for. */
const twinPorts = (address: string) => new Set((Object.entries(TWINS) as [Kind, string][]).filter(([, a]) => a === address).flatMap(([k]) => PORTS[k]));
const twinAddresses = new Set(Object.values(TWINS));

interface VigilRun {
  ms: number;
  ports: number;
  checksRun: number;
  found: Record<string, string | null>;
  falsePositives: string[];
  otherOnTargets: string[];
  ignoredOffTarget: number;
  error?: string;
}

async function vigil(type: AuditType): Promise<VigilRun> {
  const t0 = performance.now();
  const run: VigilRun = { ms: 0, ports: 0, checksRun: 0, found: {}, falsePositives: [], otherOnTargets: [], ignoredOffTarget: 0 };
  try {
    const result = await runAudit({ type, excludedos: false, addresses: ADDRESSES }, new Fence(ADDRESSES, ['127.0.0.0/8']));
    run.ports = result.ports.length;
    run.checksRun = result.checksRun;
    for (const w of WEAKNESSES) {
      const host = result.hosts.find((h) => h.address === w.address);
      const hit = host?.findings.find((f) => f.finding.port === w.port && w.vigil.test(f.check.id));
      run.found[w.id] = hit ? `${hit.check.id}: ${hit.finding.detail.slice(0, 160)}` : null;
    }
    for (const host of result.hosts) {
      const weak = WEAKNESSES.find((w) => w.address === host.address);
      const ports = twinAddresses.has(host.address) ? twinPorts(host.address) : new Set(weak ? [weak.port] : []);
      for (const { check, finding } of host.findings) {
        const where = `${check.id} [${check.type}] @${host.address}:${finding.port}: ${finding.detail.slice(0, 160)}`;
        if (!ports.has(finding.port)) run.ignoredOffTarget++;
        else if (twinAddresses.has(host.address)) {
          if (check.type !== 'LOG') run.falsePositives.push(where);
        } else if (weak && !weak.vigil.test(check.id)) run.otherOnTargets.push(where);
      }
    }
  } catch (err) {
    run.error = String((err as Error).message ?? err);
  }
  run.ms = performance.now() - t0;
  return run;
}

interface NmapResult {
  ms: number;
  timedOut: boolean;
  args: string;
  found: Record<string, string | null>;
  falsePositives: string[];
  error?: string;
}

function judgeNmap(run: NmapRun): NmapResult {
  const found: Record<string, string | null> = {};
  const falsePositives: string[] = [];
  const portOf = (address: string, port: number) => run.hosts.get(address)?.find((p) => p.port === port);
  for (const w of WEAKNESSES) {
    const p = portOf(w.address, w.port);
    found[w.id] = p ? w.nmap(p) : null;
    // The same matcher on the hardened twin: anything it sees there is a false positive.
    const twin = portOf(TWINS[w.kind], w.port);
    const fp = twin ? w.nmap(twin) : null;
    if (fp && !(w.kind === 'telnet' || w.kind === 'memcached')) falsePositives.push(`${w.id} matcher @${TWINS[w.kind]}:${w.port}: ${fp}`);
  }
  // Any script on a twin that states a vulnerability.
  for (const address of twinAddresses)
    for (const p of run.hosts.get(address) ?? [])
      for (const s of p.scripts)
        if (/State: (LIKELY )?VULNERABLE/.test(s.output)) falsePositives.push(`${s.id} @${address}:${p.port}: ${/State: (LIKELY )?VULNERABLE[^\n]*/.exec(s.output)![0]} (${s.output.trim().split('\n')[0]!.trim().slice(0, 100)})`);
  return { ms: run.ms, timedOut: run.timedOut, args: `nmap ${run.args.join(' ')}`, found, falsePositives: [...new Set(falsePositives)] };
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function table(vigilRuns: Record<string, VigilRun>, nmapRuns: Record<string, NmapResult>): string {
  const cols = [...TYPES.map((t) => ({ name: t, found: vigilRuns[t]?.found ?? {} })), ...Object.entries(nmapRuns).map(([name, r]) => ({ name, found: r.found }))];
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [row(['Weakness', 'target', ...cols.map((c) => c.name)]), row(['---', '---', ...cols.map(() => ':---:')])];
  for (const w of WEAKNESSES) lines.push(row([w.label, `${w.address}:${w.port}`, ...cols.map((c) => (c.found[w.id] ? 'yes' : 'no'))]));
  lines.push(row(['**Total found**', '', ...cols.map((c) => `**${Object.values(c.found).filter(Boolean).length}/${WEAKNESSES.length}**`)]));
  lines.push(row(['False positives (hardened twins, HOLE/NOTE)', '', ...TYPES.map((t) => String(vigilRuns[t]?.falsePositives.length ?? '–')), ...Object.values(nmapRuns).map((r) => String(r.falsePositives.length))]));
  lines.push(row(['Wall time', '', ...TYPES.map((t) => (vigilRuns[t] ? secs(vigilRuns[t]!.ms) : '–')), ...Object.values(nmapRuns).map((r) => `${secs(r.ms)}${r.timedOut ? ' (killed)' : ''}`)]));
  return lines.join('\n');
}

const t0 = performance.now();
const results: Record<string, unknown> = {};
try {
  const busy = [...wildcardListeners()].filter((p) => ALL_PORTS.includes(p));
  if (busy.length) log(`warning: ports ${busy.join(',')} listen on all addresses; they will show on every target`);
  const ready = await startTargets();
  log(`targets up: ${ready.listeners.length} listeners on ${ADDRESSES.length} addresses`);
  for (const n of ready.notes) log(`  ${n}`);

  const vigilRuns: Record<string, VigilRun> = {};
  for (const type of TYPES) {
    log(`vigil ${type} …`);
    vigilRuns[type] = await vigil(type);
    log(`  ${secs(vigilRuns[type]!.ms)}, ${Object.values(vigilRuns[type]!.found).filter(Boolean).length} found${vigilRuns[type]!.error ? `, error: ${vigilRuns[type]!.error}` : ''}`);
  }

  const nmapRuns: Record<string, NmapResult> = {};
  if (await nmapAvailable()) {
    for (const [name, scripts] of Object.entries(NMAP_RUNS)) {
      log(`${name} …`);
      const run = await runNmapPerHost(['-n', '-Pn', '-sT', '-sV', '--script', scripts, '-p', ALL_PORTS.join(',')], ADDRESSES, NMAP_LIMIT_MS);
      nmapRuns[name] = judgeNmap(run);
      if (run.exitCode !== 0) nmapRuns[name]!.error = run.stderr;
      log(`  ${secs(run.ms)}, ${run.hosts.size} hosts in the XML${run.exitCode !== 0 ? `\n  ${run.stderr.replace(/\n/g, '\n  ')}` : ''}`);
    }
  } else log('nmap not installed: no nmap columns');

  const md = table(vigilRuns, nmapRuns);
  console.log(md);
  console.log(`\nTargets: ${ready.notes.join('; ')}. Other Node imitations: HTTP/HTTPS (node:http/https), SMTP (smtp-server), DNS (dns-packet).`);
  console.log(`nmap: ${Object.values(nmapRuns).map((r) => r.args.replace(/ -oX \S+/, '')).join('\n      ')}`);
  for (const type of TYPES) {
    const r = vigilRuns[type]!;
    if (r.falsePositives.length) console.log(`\nVigil ${type} false positives:\n${r.falsePositives.map((x) => `  - ${x}`).join('\n')}`);
  }
  for (const [name, r] of Object.entries(nmapRuns)) if (r.falsePositives.length) console.log(`\n${name} false positives:\n${r.falsePositives.map((x) => `  - ${x}`).join('\n')}`);
  console.log(`\nTotal bench time ${secs(performance.now() - t0)}; catalogue: ${CHECKS.length} checks.`);

  Object.assign(results, {
    weaknesses: WEAKNESSES.map((w) => ({ id: w.id, label: w.label, address: w.address, port: w.port, vigilIds: String(w.vigil), twin: TWINS[w.kind] })),
    notes: ready.notes,
    vigil: vigilRuns,
    nmap: nmapRuns,
    totalMs: performance.now() - t0,
    targetsDied,
  });
  if (targetsDied) console.log(`\nWARNING: ${targetsDied}; results after that point are not valid.`);
} catch (err) {
  log(`bench failed: ${(err as Error).stack ?? err}`);
  results.error = String((err as Error).message ?? err);
  process.exitCode = 1;
} finally {
  await stopTargets();
}
const json = JSON.stringify(results, null, 2);
if (jsonPath) writeFileSync(jsonPath, `${json}\n`);
else console.log(`\n${json}`);
