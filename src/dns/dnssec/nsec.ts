import type { Answer } from 'dns-packet';
import { typeName, typeNumber } from './canonical.ts';

/**
 * Authenticated denial with NSEC (RFC 4034 4, RFC 4035 2.3), not NSEC3:
 * the choice RFC 9276 3.1 recommends unless zone walking matters. A hosted
 * zone's names are already public through the records the user publishes
 * (and certificate logs); NSEC needs no hashing, gives the smallest
 * answers, and lets resolvers synthesize negative answers from cache
 * (RFC 8198). docs/dnssec.md has the full reasoning.
 *
 * Empty non-terminals get no NSEC: they fall between two names of the
 * chain, which proves they exist without data (RFC 4035 3.1.3.2 / 5.4).
 */
export interface ChainOwner {
  /** Lowercase, no trailing dot, in canonical order (the caller sorts). */
  readonly name: string;
  /** Types present at the name (a delegation: NS, and DS when there is one). */
  readonly types: readonly string[];
}

/**
 * One NSEC per owner, each to the next, the last back to the apex (the first). Types as dns-packet names,
 * sorted by number.
 */
export function nsecChain(owners: readonly ChainOwner[], ttl: number): Map<string, Answer> {
  const out = new Map<string, Answer>();
  for (let i = 0; i < owners.length; i++) {
    const o = owners[i]!;
    const next = owners[(i + 1) % owners.length]!.name;
    const numbers = new Set(o.types.map(typeNumber));
    numbers.add(typeNumber('NSEC'));
    numbers.add(typeNumber('RRSIG'));
    const rrtypes = [...numbers].sort((a, b) => a - b).map(typeName);
    out.set(o.name, { type: 'NSEC', name: o.name, ttl, class: 'IN', data: { nextDomain: next, rrtypes } });
  }
  return out;
}
