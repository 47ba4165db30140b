import { parse } from 'tldts';
import type { AllowDomain } from '../config.ts';
import type { SpecCode } from '../errors.ts';

export interface NamePolicySettings {
  readonly nsDomain: string;
  readonly catalogZone: string;
  readonly allowDomains: readonly AllowDomain[];
}

/** Why a name may not be added, before any other account is asked about. */
export type NameRefusal = 'service' | 'public-suffix' | 'reverse';

/** The spec code each refusal answers (docs/security.md, "Domain names"). */
export const REFUSAL_CODE: Readonly<Record<NameRefusal | 'nested', SpecCode>> = {
  // The name is taken, by the service itself or by another account.
  service: 'unableToAddDuplicate',
  nested: 'unableToAddDuplicate',
  // Not a name an account holder can hold: no valid domain to add.
  'public-suffix': 'syntaxInvalidDomain',
  reverse: 'syntaxInvalidDomain',
};

const REVERSE_TREES = ['in-addr.arpa', 'ip6.arpa'];

/** `a` is `b` or a name below it (both lower case, no trailing dot). */
export const atOrBelow = (a: string, b: string) => a === b || a.endsWith(`.${b}`);
/** `a` and `b` share a branch of the tree: one is at or below the other. */
export const nested = (a: string, b: string) => atOrBelow(a, b) || atOrBelow(b, a);

/**
 * What no tenant may add, whoever else holds what (normalized name in):
 * - the service's own names, the NS domain and the catalog zone, and
 *   anything above or below them: a tenant's `vigil.example` made
 *   `ns1.vigil.example` answer the tenant's address;
 * - public suffixes (`co.uk`, `github.io`), from the Public Suffix List
 *   (tldts, ICANN and private sections), unless `--allow-domains public-suffix`;
 * - the reverse trees, unless `--allow-domains reverse`: nothing here can
 *   check that a tenant holds the addresses a reverse zone speaks for.
 */
export function refusal(name: string, settings: NamePolicySettings): NameRefusal | null {
  const own = [settings.nsDomain, settings.catalogZone].map((n) => n.toLowerCase().replace(/\.$/, ''));
  if (own.some((o) => nested(name, o))) return 'service';
  const allow = new Set(settings.allowDomains);
  if (!allow.has('reverse') && REVERSE_TREES.some((t) => atOrBelow(name, t))) return 'reverse';
  if (!allow.has('public-suffix')) {
    const p = parse(name, { allowPrivateDomains: true });
    if (p.publicSuffix === name) return 'public-suffix';
  }
  return null;
}

/** Each proper ancestor of a name (`a.b.c` gives `b.c`, `c`). */
export function ancestors(name: string): string[] {
  const out: string[] = [];
  for (let at = name.indexOf('.'); at >= 0; at = name.indexOf('.', at + 1)) out.push(name.slice(at + 1));
  return out;
}
