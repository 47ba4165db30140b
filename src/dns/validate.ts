import { fqdn, looksLikeIp } from './names.ts';
import {
  isRecordType,
  isZoneRecord,
  RECORD_TYPES,
  type RecordTypeName,
  type Role,
  type StoredData,
  ttlOf,
} from './records.ts';
import { soaOf, type ZoneModel } from './zone.ts';

export interface ValidationResult {
  errors: string[];
  warnings: string[];
}

interface Entry {
  type: RecordTypeName;
  data: StoredData;
}

/** The records at one owner name, with a bit per type they hold (checks are bit tests, not scans). */
interface Node {
  entries: Entry[];
  bits: number;
}

const ADDR = 1;
const CNAME = 2;
const NS = 4;
/** The bits of the roles these checks look at. */
const BIT: Partial<Record<Role, number>> = { address: ADDR, alias: CNAME, delegation: NS };
const bitOf = (type: RecordTypeName) => BIT[RECORD_TYPES[type].role!] ?? 0;
const is = (e: Entry, role: Role) => RECORD_TYPES[e.type].role === role;

/** Below this zone TTL (SOA minimum) resolvers refetch everything too often. */
const LOW_TTL = 300;

const show = (name: string) => (name.endsWith('.') ? name.slice(0, -1) : name);

/** The names a record points at (absolute, trailing dot). */
const targetsOf = (e: Entry): readonly string[] => RECORD_TYPES[e.type].targets?.(e.data) ?? [];

/** Each proper ancestor of `name` down to the apex, nearest first. */
function ancestors(name: string, apex: string): string[] {
  const out: string[] = [];
  for (let at = name.indexOf('.'); at >= 0 && name.length - at - 1 >= apex.length; at = name.indexOf('.', at + 1))
    out.push(name.slice(at + 1));
  return out;
}

/**
 * Publish validation: what a resolver or a secondary would trip over.
 * Errors stop a publish; warnings are told and let it through. Linear in
 * the records: one pass indexes them by owner (a Map), one checks.
 */
export function validateZone(model: ZoneModel): ValidationResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const apex = `${model.zone}.`;
  const nodes = new Map<string, Node>();
  for (const r of model.records) {
    if (!isRecordType(r.type) || !isZoneRecord(RECORD_TYPES[r.type])) continue;
    const def = RECORD_TYPES[r.type];
    const name = fqdn(def.owner(r.data) ?? '', model.zone);
    const node = nodes.get(name);
    if (node) {
      node.entries.push(r);
      node.bits |= bitOf(r.type);
    } else nodes.set(name, { entries: [r], bits: bitOf(r.type) });
  }
  const bits = (name: string) => nodes.get(name)?.bits ?? 0;

  if (!(bits(apex) & NS)) errors.push(`the zone has no NS record at its apex ${show(apex)}`);
  const min = soaOf(model).min;
  if (min < LOW_TTL) warnings.push(`the zone TTL (SOA minimum ${min} s) is below ${LOW_TTL} s`);

  // A forwarded host is answered with the forwarder's address: nothing else may claim it.
  for (const r of model.records) {
    if (!isRecordType(r.type) || RECORD_TYPES[r.type].role !== 'forward') continue;
    const name = fqdn(RECORD_TYPES[r.type].owner(r.data) ?? '', model.zone);
    const clash = nodes.get(name)?.entries.find((e) => is(e, 'address') || is(e, 'alias'));
    if (clash) errors.push(`${show(name)} is web-forwarded and also has a ${clash.type} record`);
  }

  // Delegations (NS below the apex) and the glue their in-bailiwick name servers need.
  const cuts = new Set<string>();
  for (const [name, node] of nodes) if (name !== apex && node.bits & NS) cuts.add(name);
  const glue = new Set<string>();
  for (const cut of cuts) {
    for (const ns of nodes.get(cut)!.entries) {
      const target = is(ns, 'delegation') ? targetsOf(ns)[0]! : null;
      if (target === null || !(target === cut || target.endsWith(`.${cut}`))) continue;
      glue.add(target);
      if (!(bits(target) & ADDR))
        errors.push(`delegation of ${show(cut)} to ${show(target)} needs a glue A or AAAA record for ${show(target)}`);
    }
  }
  const cutAbove = (name: string): string | undefined =>
    cuts.size ? ancestors(name, apex).find((a) => cuts.has(a)) : undefined;
  /** An in-zone name that answers with an address: itself, or a wildcard above it. */
  const hasAddress = (name: string) =>
    !!(bits(name) & ADDR) || ancestors(name, apex).some((a) => bits(`*.${a}`) & ADDR);

  for (const [name, node] of nodes) {
    const list = node.entries;
    // A DS is the parent's half of a signed delegation (RFC 4035 2.4): without the NS it signs for, nothing
    // asks for it.
    if (!(node.bits & NS) && list.some((e) => is(e, 'delegationSigner')))
      errors.push(`DS at ${show(name)} without NS: a DS record belongs at a delegation (add its NS records)`);
    if (node.bits & CNAME) {
      const cnames = list.filter((e) => is(e, 'alias')).length;
      if (name === apex) errors.push(`CNAME at the zone apex ${show(name)}`);
      else if (cnames > 1) errors.push(`more than one CNAME at ${show(name)}`);
      else if (list.length > 1) errors.push(`CNAME at ${show(name)} beside other records`);
    }

    // Below a delegation only glue is served; at one, only its NS (and glue). The rest is occluded.
    const above = cutAbove(name);
    if (above || cuts.has(name)) {
      const kept = (e: Entry) =>
        (glue.has(name) && is(e, 'address')) || (!above && (is(e, 'delegation') || is(e, 'delegationSigner')));
      const where = above ? `below the delegation ${show(above)}` : `at the delegation ${show(name)}`;
      for (const type of new Set(list.filter((e) => !kept(e)).map((e) => e.type)))
        warnings.push(`${type} at ${show(name)} is ${where} and will not be served`);
    }

    // Duplicates need two records at a name; most names have one, so the key is built only then.
    const seen = list.length > 1 ? new Set<string>() : null;
    if (seen) mixedTtls(name, list);
    for (const e of list) {
      if (seen) {
        const key = `${e.type} ${JSON.stringify(RECORD_TYPES[e.type].reply(e.data))}`;
        if (seen.has(key)) warnings.push(`duplicate ${e.type} record at ${show(name)}`);
        seen.add(key);
      }
      for (const target of targetsOf(e)) checkTarget(e.type, name, target);
      const advice = RECORD_TYPES[e.type].lint?.(e.data);
      if (advice) warnings.push(`${e.type} at ${show(name)}: ${advice}`);
    }
  }

  errors.push(...cnameLoops());

  /**
   * CNAME chains inside the zone that come back to a name they passed
   * (`x CNAME x`, `a CNAME b` + `b CNAME a`): no resolver can ever answer
   * them (RFC 1034 3.6.2; they SERVFAIL), so they are errors, not
   * warnings: publishing one would replace working answers with failures.
   * named-checkzone loads such zones, so only this check catches them.
   * Each name has at most one onward step: one walk per name, linear.
   */
  function cnameLoops(): string[] {
    const next = new Map<string, string>();
    for (const [name, node] of nodes) {
      if (!(node.bits & CNAME)) continue;
      const target = targetsOf(node.entries.find((e) => is(e, 'alias'))!)[0]!;
      if ((target === apex || target.endsWith(`.${apex}`)) && !cutAbove(target) && !cuts.has(target))
        next.set(name, target);
    }
    const found: string[] = [];
    const done = new Set<string>();
    for (const start of next.keys()) {
      const path: string[] = [];
      const onPath = new Map<string, number>();
      let at: string | undefined = start;
      while (at !== undefined && !done.has(at) && !onPath.has(at)) {
        onPath.set(at, path.length);
        path.push(at);
        at = next.get(at);
      }
      if (at !== undefined && onPath.has(at)) {
        const loop = path.slice(onPath.get(at));
        found.push(
          loop.length === 1
            ? `CNAME at ${show(at)} points at itself`
            : `CNAME loop ${[...loop, at].map(show).join(' -> ')}`,
        );
      }
      for (const n of path) done.add(n);
    }
    return found;
  }

  /**
   * RFC 2181 5.2: the records of one set share one TTL. Record TTLs
   * (issue 16) can differ; the name server then serves the set with its
   * lowest (what the RFC tells a resolver to assume), so this only warns.
   */
  function mixedTtls(name: string, list: Entry[]): void {
    const ttls = new Map<string, Set<number>>();
    for (const e of list) {
      const set = ttls.get(e.type) ?? new Set<number>();
      set.add(ttlOf(e.data, min));
      ttls.set(e.type, set);
    }
    for (const [type, set] of ttls) {
      if (set.size > 1)
        warnings.push(
          `the ${type} records at ${show(name)} have different TTLs (${[...set].sort((a, b) => a - b).join(', ')} s); all are served with the lowest`,
        );
    }
  }

  function checkTarget(type: RecordTypeName, name: string, target: string): void {
    if (looksLikeIp(target)) {
      errors.push(`${type} at ${show(name)} points at an IP address (${show(target)}); it needs a host name`);
      return;
    }
    // Only names this zone answers for are checked; below a delegation the child zone answers.
    if (!(target === apex || target.endsWith(`.${apex}`)) || cuts.has(target) || cutAbove(target)) return;
    const there = bits(target);
    if (RECORD_TYPES[type].role === 'alias') {
      if (!nodes.has(target) && !hasAddress(target))
        warnings.push(`${type} at ${show(name)} points at ${show(target)}, which does not exist in the zone`);
    } else if (there & CNAME) warnings.push(`${type} at ${show(name)} points at ${show(target)}, which is a CNAME`);
    else if (!hasAddress(target))
      warnings.push(`${type} at ${show(name)} points at ${show(target)}, which has no A or AAAA record in the zone`);
  }

  return { errors, warnings };
}
