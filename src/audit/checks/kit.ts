/**
 * The check kit: every check is one `defineCheck({...})` in a file of its
 * family folder (src/audit/checks/<family>/), after nmap's NSE scripts
 * (description, categories, portrule, action). The engine applies the
 * declared port rule and calls `run` on each matching port
 * (engine/port-rule.ts); checks reach the network only through
 * src/audit/proto/ and the fenced Net.
 */
import { runRule } from '../engine/port-rule.ts';
import type { Categories, Check, EntryType, Family, Outcome, PortRule, Risk, Target } from '../engine/types.ts';

export type { Categories, Check, Family, Finding, Found, Outcome, PortRule, Target } from '../engine/types.ts';

export interface CheckSpec {
  /** Stable forever: reports and baselines refer to it. */
  id: string;
  shortid: string;
  title: string;
  family: Family;
  /** The class first (safe, intrusive or dos), then NSE-style tags. */
  categories: Categories;
  risk: Risk;
  /** Entry type of a finding (HOLE, NOTE, LOG). */
  type: EntryType;
  /** What is wrong and why; the finding's detail follows it in the report. */
  description: string;
  solution: string;
  /** Unset: 80 for a passive check, 99 otherwise (engine/qod.ts). */
  qod?: number;
  cves?: readonly string[];
  references?: readonly string[];
  ports: PortRule;
  run(target: Target): Promise<Outcome>;
}

export function defineCheck(spec: CheckSpec): Check {
  const { run, ports } = spec;
  return Object.freeze({
    id: spec.id,
    shortid: spec.shortid,
    title: spec.title,
    family: spec.family,
    categories: spec.categories,
    risk: spec.risk,
    type: spec.type,
    description: spec.description,
    solution: spec.solution,
    ...(spec.qod !== undefined ? { qod: spec.qod } : {}),
    cves: spec.cves ?? [],
    references: spec.references ?? [],
    ports,
    runOn: (host, net) => runRule(ports, run, host, net),
  } satisfies Check);
}

/** A port rule in words, for docs/audit-checks.md: `where` predicates by their function's name. */
export function describePorts(rule: PortRule): string {
  if (rule.host) return 'host';
  const parts: string[] = [];
  if (rule.services?.length) parts.push(rule.services.join(', '));
  if (rule.ports?.length) parts.push(`tcp ${rule.ports.join(', ')}`);
  if (rule.where) parts.push(rule.where.name && rule.where.name !== 'where' ? rule.where.name : 'any service');
  if (rule.udp?.length) parts.push(`udp ${rule.udp.join(', ')}`);
  let text = parts.join(' · ');
  if (rule.tls !== undefined) text += rule.tls ? ' (TLS)' : ' (plain)';
  if (rule.via === 'udp') text += ' (asked over UDP)';
  if (rule.max) text += ` (at most ${rule.max})`;
  if (rule.fallback) text += `, else ${describePorts(rule.fallback)}`;
  return text;
}
