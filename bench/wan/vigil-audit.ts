/**
 * Vigil's real audit engine on the emulated WAN, run inside the scanner's
 * namespace (netns.ts): runAudit over the given addresses with an audit
 * type's ports and checks (what the runner runs for saRunAudit), then
 * buildReport on its result. Prints one JSON line: wall time, the phases'
 * last sightings, the hosts up and the open ports as the report lists them.
 *   node --import tsx bench/wan/vigil-audit.ts '<json: {addresses, type}>'
 */
import { type EngineProgress, runAudit } from '../../src/audit/engine/run.ts';
import { Fence } from '../../src/audit/engine/fence.ts';
import { checksFor } from '../../src/audit/engine/profiles.ts';
import { usualService } from '../../src/audit/engine/ports.ts';
import { buildReport } from '../../src/audit/report.ts';
import type { AuditType } from '../../src/audit/types.ts';

const o = JSON.parse(process.argv[2]!) as {
  addresses: string[];
  type: AuditType;
  /** The engine's hosts at once (default: the engine's own). */
  hostConcurrency?: number;
  /** Afterwards, each check of the type alone on the host with the most open ports: where a host's time goes. */
  profile?: boolean;
};

const fence = new Fence(o.addresses, ['198.18.1.0/24']);
const t0 = performance.now();
// When each phase was last seen: scanning, detecting and checking overlap (a host moves on as its scan ends).
const phases: Partial<Record<EngineProgress['phase'], number>> = {};
const result = await runAudit({ type: o.type, excludedos: false, addresses: o.addresses }, fence, {
  onProgress: (p) => (phases[p.phase] = Math.round(performance.now() - t0)),
  ...(o.hostConcurrency ? { hostConcurrency: o.hostConcurrency } : {}),
});
const ms = performance.now() - t0;
const at = Date.now();
const when = { queuedAt: at, startedAt: at, endedAt: at };
const facts = { scanuid: 1, type: o.type, hostip: '198.18.1.*', excludedos: false, notification: false, ...when };
const report = buildReport(facts, result, new Map(), usualService);
let slowest: string[] = [];
if (o.profile) {
  const host = [...result.hosts].sort((a, b) => b.openPorts.length - a.openPorts.length)[0]!;
  const net = fence.net(host.address);
  const times: [string, number][] = [];
  for (const check of checksFor(o.type, false)) {
    const t = performance.now();
    await check.runOn(host, net).catch(() => []);
    times.push([check.id, performance.now() - t]);
  }
  slowest = times
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([id, t]) => `${id} ${(t / 1000).toFixed(2)} s`);
  slowest.unshift(
    `${host.address} (${host.openPorts}), all checks one by one: ${(times.reduce((n, [, t]) => n + t, 0) / 1000).toFixed(1)} s`,
  );
}
console.log(
  JSON.stringify({
    ms,
    phases,
    ports: result.ports.length,
    checksRun: result.checksRun,
    checksFailed: result.hosts.reduce((n, h) => n + h.checksFailed.length, 0),
    findings: result.hosts.reduce((n, h) => n + h.findings.length, 0),
    nse: result.nse,
    hosts: result.hosts.filter((h) => h.scan?.up).map((h) => h.address),
    open: (report.ports ?? []).map((p) => `${p.hostip}:${p.portend}`),
    slowest,
    detected: result.hosts.flatMap((h) => h.services).filter((s) => s.name !== 'unknown').length,
  }),
);
process.exit(0);
