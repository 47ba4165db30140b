/**
 * The engine's side of a check's declared port rule (types.ts PortRule):
 * which ports of a host a check runs on, and running it there. Checks say
 * where they apply; they do not pick ports inside run() (issue 27).
 */
import type { Finding, HostFacts, Net, Outcome, PortRule, Target } from './types.ts';

/** The targets a rule selects on a host, TCP by port then UDP. */
export function targetsOf(rule: PortRule, host: HostFacts, net: Net): Target[] {
  if (rule.host) return [{ host, net, port: 0, protocol: 'tcp', service: null }];
  const names = rule.services ?? [];
  const ports = new Set<number>();
  for (const s of host.services) {
    if (names.includes(s.name) || rule.where?.(s)) ports.add(s.port);
  }
  // port_or_service: a usual port counts when open and detection did not name it something else (a slow or
  // odd server it missed is still tried).
  for (const p of rule.ports ?? []) {
    if (!host.openPorts.includes(p)) continue;
    const s = host.services.find((x) => x.port === p);
    if (!s || s.name === 'unknown' || names.includes(s.name)) ports.add(p);
  }
  const tcp = [...ports]
    .sort((a, b) => a - b)
    .map((port): Target => ({ host, net, port, protocol: 'tcp', service: serviceOn(host, port) }))
    .filter((t) => rule.tls === undefined || (t.service?.tls != null) === rule.tls)
    .slice(0, rule.max ?? Number.POSITIVE_INFINITY);
  if (rule.fallback && !tcp.length && !rule.udp?.length) return targetsOf(rule.fallback, host, net);
  if (rule.via !== 'udp') return [...tcp, ...(rule.udp ?? []).map((port) => udpTarget(host, net, port))];
  const udp = [...new Set([...(rule.udp ?? []), ...tcp.map((t) => t.port)])];
  return udp.sort((a, b) => a - b).map((port) => udpTarget(host, net, port));
}

const serviceOn = (host: HostFacts, port: number) => host.services.find((s) => s.port === port) ?? null;

const udpTarget = (host: HostFacts, net: Net, port: number): Target => ({
  host,
  net,
  port,
  protocol: 'udp',
  service: serviceOn(host, port),
});

/** A run's outcome as findings: a bare detail or a finding without a port is the target's. */
export function findingsOf(outcome: Outcome, target: Target): Finding[] {
  if (outcome === null || outcome === undefined) return [];
  if (typeof outcome === 'string') return outcome ? [{ port: target.port, detail: outcome }] : [];
  const list = Array.isArray(outcome) ? outcome : [outcome as Exclude<Outcome, readonly unknown[]>];
  return list.map((f) => ({ ...f, port: f.port ?? target.port }));
}

/**
 * The check on every target in turn (one port at a time: a check's load on a host stays what one client's
 * is). A throw fails the whole check, as the engine counts it (run.ts checksFailed).
 */
export async function runRule(
  rule: PortRule,
  run: (t: Target) => Promise<Outcome>,
  host: HostFacts,
  net: Net,
): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const t of targetsOf(rule, host, net)) out.push(...findingsOf(await run(t), t));
  return out;
}
