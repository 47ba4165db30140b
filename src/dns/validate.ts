import { looksLikeIp, fqdn } from './names.ts';
import { RECORD_TYPES, type StoredData } from './records.ts';
import { soaOf, type ZoneModel } from './zone.ts';

export interface ValidationResult {
  errors: string[];
  warnings: string[];
}

interface Entry {
  type: string;
  data: StoredData;
}

/** The name a record points at, if any (absolute, trailing dot). */
function targetOf(e: Entry): string | null {
  if (e.type === 'CNAME' || e.type === 'NS' || e.type === 'MX') return e.data.data;
  if (e.type === 'SRV') return e.data.target === '.' ? null : e.data.target;
  return null;
}

/** The nearest delegation strictly above `name` (walks up its labels). */
function cutAbove(name: string, apex: string, cuts: Set<string>): string | undefined {
  let at = name.indexOf('.');
  while (at >= 0 && name.length - at - 1 > apex.length) {
    const parent = name.slice(at + 1);
    if (cuts.has(parent)) return parent;
    at = name.indexOf('.', at + 1);
  }
  return undefined;
}

const show = (name: string) => name.replace(/\.$/, '');

/**
 * Publish validation: the checks a resolver or secondary would trip over.
 * Errors stop a publish; warnings are told and let it through. Linear in
 * the number of records (one pass to index by owner, one to check).
 */
export function validateZone(model: ZoneModel): ValidationResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const apex = `${model.zone}.`;
  const byOwner = new Map<string, Entry[]>();
  for (const r of model.records) {
    const rel = RECORD_TYPES[r.type].owner(r.data);
    if (rel === null || RECORD_TYPES[r.type].zoneLines(r.data, model.zone, 0).length === 0) continue;
    const name = fqdn(rel, model.zone);
    let list = byOwner.get(name);
    if (!list) byOwner.set(name, (list = []));
    list.push({ type: r.type, data: r.data });
  }
  // A forwarded host answers with the forwarder's address: nothing else may claim its addresses.
  for (const r of model.records) {
    if (r.type !== 'WebForwarding') continue;
    const name = fqdn(r.data.host, model.zone);
    const clash = (byOwner.get(name) ?? []).find((e) => ['A', 'AAAA', 'CNAME'].includes(e.type));
    if (clash) errors.push(`${show(name)} is web-forwarded and also has a ${clash.type} record`);
  }
  const delegations = [...byOwner].filter(([name, list]) => name !== apex && list.some((e) => e.type === 'NS')).map(([n]) => n);
  const delegationSet = new Set(delegations);
  const below = (name: string, cut: string) => name === cut || name.endsWith(`.${cut}`);
  const glueNames = new Set<string>();

  if (!(byOwner.get(apex) ?? []).some((e) => e.type === 'NS')) errors.push('the zone has no NS record at its apex');
  if (soaOf(model).min < 300) warnings.push(`the zone TTL (SOA minimum ${soaOf(model).min} s) is below 300 s`);

  for (const cut of delegations) {
    for (const ns of byOwner.get(cut)!.filter((e) => e.type === 'NS')) {
      const target = ns.data.data as string;
      if (!below(target, cut)) continue;
      glueNames.add(target);
      if (!(byOwner.get(target) ?? []).some((e) => e.type === 'A' || e.type === 'AAAA')) {
        errors.push(`delegation of ${show(cut)} to ${show(target)} needs a glue A or AAAA record for ${show(target)}`);
      }
    }
  }

  for (const [name, list] of byOwner) {
    const cnames = list.filter((e) => e.type === 'CNAME').length;
    if (cnames && name === apex) errors.push(`CNAME at the zone apex ${show(name)}`);
    else if (cnames > 1) errors.push(`more than one CNAME at ${show(name)}`);
    else if (cnames && list.length > cnames) errors.push(`CNAME at ${show(name)} beside other records`);
    const cut = cutAbove(name, apex, delegationSet);
    if (cut && !glueNames.has(name)) warnings.push(`${show(name)} is below the delegation ${show(cut)} and will not be served`);
    const seen = new Set<string>();
    for (const e of list) {
      const key = `${e.type} ${JSON.stringify(RECORD_TYPES[e.type as keyof typeof RECORD_TYPES].reply(e.data))}`;
      if (seen.has(key)) warnings.push(`duplicate ${e.type} record at ${show(name)}`);
      seen.add(key);
      const target = targetOf(e);
      if (target === null) continue;
      if (looksLikeIp(target)) errors.push(`${e.type} at ${show(name)} points at an IP address (${show(target)}); it needs a host name`);
      else if ((e.type === 'MX' || e.type === 'NS') && (byOwner.get(target) ?? []).some((t) => t.type === 'CNAME')) {
        warnings.push(`${e.type} at ${show(name)} points at ${show(target)}, which is a CNAME`);
      }
    }
  }
  return { errors, warnings };
}
