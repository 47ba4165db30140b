/**
 * Scores one Vigil audit or one nmap run against the fleet: which planted
 * weaknesses each found (with the evidence, so that a reader can check the
 * match), what each raised on the hardened twins (false positives), which
 * CVEs it attached to a product they do not apply to, and what else it said
 * about the weak targets.
 *
 * Vigil: a weakness is found when a finding on its address and port has a
 * check id / text matching the weakness's matcher (version findings never
 * count unless asked for), or, for identification weaknesses, when service
 * detection named the port. A false positive is any HOLE or NOTE (after the
 * QoD threshold: a LOG is evidence, not an alarm) on a twin, on a port
 * the twin's daemon kind serves: other ports (0.0.0.0 listeners, test
 * daemons other people start mid-run) are not the twin's and are left out.
 */
import type { AuditResult } from '../../src/audit/engine/run.ts';
import { settle } from '../../src/audit/engine/qod.ts';
import { DAEMONS, TWIN_ADDRESSES, WEAKNESSES, daemonAt, twinAt } from './fleet/index.ts';
import type { Weakness } from './fleet/kit.ts';
import type { NmapPort, NmapRun } from './nmap.ts';

export interface Score {
  ms: number;
  found: Record<string, string | null>;
  falsePositives: string[];
  /** Findings on twins that their product cannot configure away (Twin.inherent): not counted either way. */
  inherent?: string[];
  wrongAttributions: string[];
  otherOnTargets: string[];
  ignoredWildcard: number;
  error?: string;
  [extra: string]: unknown;
}

const cut = (s: string, n = 180) => (s.length > n ? `${s.slice(0, n)}…` : s).replace(/\s+/g, ' ');

export function judgeVigil(result: AuditResult, wildcard: Set<number>, ms: number): Score {
  const score: Score & { raw: object[] } = {
    ms,
    found: {},
    falsePositives: [],
    wrongAttributions: [],
    otherOnTargets: [],
    ignoredWildcard: 0,
    ports: result.ports.length,
    checksRun: result.checksRun,
    raw: [],
  };
  const hostAt = (a: string) => result.hosts.find((h) => h.address === a);
  const hits = (w: Weakness) => {
    const host = hostAt(w.address);
    if (!host) return null;
    if (w.vigil.service) {
      const s = host.services.find((x) => x.port === w.port);
      return s && w.vigil.service.test(s.name) ? `service ${s.name}${s.product ? ` (${s.product})` : ''}` : null;
    }
    const hit = host.findings.find(
      ({ check, finding }) =>
        finding.port === w.port &&
        matches(w, check.id, `${check.id}\n${finding.title ?? check.title}\n${finding.detail}`),
    );
    return hit ? `${hit.check.id} [${settle(hit.check, hit.finding).type}]: ${cut(hit.finding.detail)}` : null;
  };
  for (const w of WEAKNESSES) score.found[w.id] = hits(w);

  for (const host of result.hosts) {
    const daemon = daemonAt(host.address);
    const planted = WEAKNESSES.filter((w) => w.address === host.address);
    for (const { check, finding } of host.findings) {
      const { type, qod } = settle(check, finding);
      const where = `${check.id} [${type}, QoD ${qod}] @${host.address}:${finding.port} (${daemon?.kind ?? '?'}): ${cut(`${finding.title ?? check.title} — ${finding.detail}`)}`;
      const cves = finding.cves ?? check.cves;
      if (daemon?.wrongCves?.(cves, `${finding.title ?? check.title} ${finding.detail}`))
        score.wrongAttributions.push(`${where} — CVEs ${cves.join(', ')}`);
      score.raw.push({
        address: host.address,
        port: finding.port,
        id: check.id,
        type,
        qod,
        cves,
        detail: cut(finding.detail, 400),
      });
      // Only the ports the address's daemon kind serves: anything else is another program's (0.0.0.0
      // listeners, started mid-run).
      if (
        wildcard.has(finding.port) ||
        (daemon && ![...daemon.ports.tcp, ...daemon.ports.udp].includes(finding.port))
      ) {
        score.ignoredWildcard++;
        continue;
      }
      if (type === 'LOG') continue;
      const inherent = twinAt(host.address)?.inherent?.find((x) => x.vigil.test(check.id));
      if (inherent) (score.inherent ??= []).push(`${where} — ${inherent.why}`);
      else if (TWIN_ADDRESSES.has(host.address)) score.falsePositives.push(where);
      else if (
        !planted.some(
          (w) =>
            w.port === finding.port &&
            !w.vigil.service &&
            matches(w, check.id, `${check.id}\n${finding.title ?? check.title}\n${finding.detail}`),
        )
      )
        score.otherOnTargets.push(where);
    }
  }
  return score;
}

function matches(w: Weakness, id: string, text: string): boolean {
  if (id.startsWith('vigil.version.') && !w.vigil.id?.source.startsWith('^vigil\\.version')) return false;
  return (!w.vigil.id || w.vigil.id.test(id)) && (!w.vigil.text || w.vigil.text.test(text));
}

/**
 * nmap: a script's or -sV's positive statement on the weakness's port; on twins, any script stating
 * VULNERABLE, or a weakness matcher of the same daemon kind firing.
 */
export function judgeNmap(run: NmapRun, wildcard: Set<number>): Score {
  const score: Score = {
    ms: run.ms,
    found: {},
    falsePositives: [],
    wrongAttributions: [],
    otherOnTargets: [],
    ignoredWildcard: 0,
    args: `nmap ${run.args.join(' ')}`,
    timedOut: run.timedOut,
  };
  const portOf = (address: string, port: number, proto: string) =>
    run.hosts.get(address)?.find((p) => p.port === port && (p.proto ?? 'tcp') === proto);
  for (const w of WEAKNESSES) {
    const p = portOf(w.address, w.port, w.proto);
    score.found[w.id] = p ? w.nmap(p) : null;
  }
  for (const d of DAEMONS)
    for (const twin of d.twins) {
      const ports = run.hosts.get(twin.address) ?? [];
      for (const p of ports) {
        if (wildcard.has(p.port)) continue;
        for (const w of d.weaknesses.filter(
          (x) => x.port === p.port && x.proto === (p.proto ?? 'tcp') && !x.vigil.service,
        )) {
          const fp = w.nmap(p);
          if (fp && twin.inherent?.some((x) => x.vigil.source === w.vigil.id?.source)) continue; // listed below
          if (fp) score.falsePositives.push(`${w.id} matcher @${twin.address}:${p.port}: ${cut(fp)}`);
        }
        for (const s of p.scripts) {
          const m = /State: (LIKELY )?VULNERABLE[^\n]*/.exec(s.output);
          if (m && twin.inherent?.some((x) => x.nmap?.test(s.id)))
            (score.inherent ??= []).push(`${s.id} @${twin.address}:${p.port}: ${m[0]}`);
          else if (m)
            score.falsePositives.push(
              `${s.id} @${twin.address}:${p.port}: ${m[0]} (${cut(s.output.trim().split('\n')[0]!, 100)})`,
            );
        }
      }
    }
  score.falsePositives = [...new Set(score.falsePositives)];
  return score;
}

export type { NmapPort };
