import { isIPv4, isIPv6 } from 'node:net';

/**
 * SPF records read as RFC 7208 writes them: the terms of one record, the
 * syntax faults, and the terms that cost a DNS look-up (§4.6.4: at most
 * 10 per check, counting include, a, mx, ptr, exists and redirect).
 */
export interface SpfRecord {
  /** Faults of syntax (§12 grammar), in plain words. */
  faults: string[];
  /** The `all` mechanism's qualifier, if there is one. */
  all: '+' | '-' | '~' | '?' | null;
  /** Targets of include: and redirect=, which are SPF records of their own. */
  includes: string[];
  redirect: string | null;
  /** Terms that cost a look-up here, the includes and redirect among them. */
  lookups: number;
}

export const isSpf = (txt: string) => /^v=spf1(\s|$)/i.test(txt);

/** RFC 7208 §7.1 macro-string, loosely: what may follow `include:` and friends. */
const DOMAIN_SPEC = /^[!-~]+$/;
const CIDR4 = /^\/(\d{1,2})$/;
const DUAL_CIDR = /^(?:\/(\d{1,2}))?(?:\/\/(\d{1,3}))?$/;

export function parseSpf(text: string): SpfRecord {
  const r: SpfRecord = { faults: [], all: null, includes: [], redirect: null, lookups: 0 };
  const [version, ...terms] = text.trim().split(/ +/);
  if (version?.toLowerCase() !== 'v=spf1') r.faults.push('the record does not begin with v=spf1');
  const seen = new Set<string>();
  for (const term of terms) {
    const mod = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(term);
    if (mod) {
      const name = mod[1]!.toLowerCase();
      if ((name === 'redirect' || name === 'exp') && seen.has(name)) r.faults.push(`${name}= appears twice (§6)`);
      seen.add(name);
      if ((name === 'redirect' || name === 'exp') && !DOMAIN_SPEC.test(mod[2]!))
        r.faults.push(`${name}= has no domain`);
      if (name === 'redirect') {
        r.redirect = mod[2]!.replace(/\.$/, '').toLowerCase();
        r.lookups++;
      }
      continue;
    }
    const m = /^([+\-~?]?)([a-z0-9]+)(?::([^/]*))?(\/.*)?$/i.exec(term);
    if (!m) {
      r.faults.push(`"${term}" is not an SPF term`);
      continue;
    }
    const qualifier = (m[1] || '+') as SpfRecord['all'];
    const mech = m[2]!.toLowerCase();
    const arg = m[3];
    const cidr = m[4] ?? '';
    const needsArg = (ok: (a: string) => boolean) => {
      if (arg === undefined || !ok(arg))
        r.faults.push(`"${term}": ${mech} needs ${mech.startsWith('ip') ? 'an address' : 'a domain'}`);
    };
    switch (mech) {
      case 'all':
        if (arg !== undefined || cidr) r.faults.push(`"${term}": all takes no argument`);
        r.all = qualifier;
        break;
      case 'include':
        needsArg((a) => DOMAIN_SPEC.test(a));
        if (arg) r.includes.push(arg.replace(/\.$/, '').toLowerCase());
        r.lookups++;
        break;
      case 'exists':
        needsArg((a) => DOMAIN_SPEC.test(a));
        r.lookups++;
        break;
      case 'a':
      case 'mx': {
        const c = DUAL_CIDR.exec(cidr);
        if (!c || Number(c[1] ?? 0) > 32 || Number(c[2] ?? 0) > 128) r.faults.push(`"${term}": bad prefix length`);
        if (arg !== undefined && !DOMAIN_SPEC.test(arg)) r.faults.push(`"${term}": bad domain`);
        r.lookups++;
        break;
      }
      case 'ptr':
        r.lookups++;
        break;
      case 'ip4': {
        const c = cidr ? CIDR4.exec(cidr) : null;
        needsArg(isIPv4);
        if (cidr && (!c || Number(c[1]) > 32)) r.faults.push(`"${term}": bad prefix length`);
        break;
      }
      case 'ip6': {
        // An IPv6 address holds colons: the whole rest of the term after "ip6:" is the address.
        const rest = term.slice(term.toLowerCase().indexOf('ip6:') + 4);
        const [addr, bits] = rest.split('/');
        if (!isIPv6(addr ?? '')) r.faults.push(`"${term}": ip6 needs an address`);
        if (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= 128))
          r.faults.push(`"${term}": bad prefix length`);
        break;
      }
      default:
        r.faults.push(`"${term}": unknown mechanism ${mech}`);
    }
  }
  return r;
}

/** RFC 7208 §4.6.4. */
export const SPF_LOOKUP_LIMIT = 10;

/**
 * Look-ups a check of `record` costs, following include: and redirect= to
 * their records (fetched by `txt`), stopping past the limit or at depth 10.
 */
export async function countLookups(
  record: SpfRecord,
  txt: (name: string) => Promise<string[]>,
  depth = 0,
  seen = new Set<string>(),
): Promise<number> {
  let total = record.lookups;
  for (const target of [...record.includes, ...(record.redirect ? [record.redirect] : [])]) {
    if (total > SPF_LOOKUP_LIMIT || depth >= 10 || target.includes('%') || seen.has(target)) continue;
    seen.add(target);
    const spf = (await txt(target)).find(isSpf);
    if (spf) total += await countLookups(parseSpf(spf), txt, depth + 1, seen);
  }
  return total;
}
