import { createHash } from 'node:crypto';
import type { Answer } from 'dns-packet';
import { labels, labelsWire } from '../dnssec/canonical.ts';
import { base32hex } from '../dnssec/nsec3.ts';
import type { Proof } from './resolve.ts';
import type { Node } from './zone-index.ts';
import { inOrder, STEP, type Steps } from './slices.ts';

/**
 * Denial of existence for a zone signed with NSEC3 (RFC 5155 7.2), the
 * counterpart of the NSEC proofs in dnssec-answer.ts. The chain is
 * Vigil's own (src/dns/dnssec/nsec3.ts): SHA-1, no salt, 0 extra
 * iterations, opt-out off, so every name that exists (empty non-terminals
 * and delegations included) has an NSEC3 and a proof never needs opt-out's
 * "closest provable encloser".
 */
export interface Nsec3Link {
  /** The owner's first label: base32hex of the hash, 32 characters, lower case. */
  readonly label: string;
  /** The NSEC3 record and its RRSIGs. */
  readonly records: readonly Answer[];
}

/** The chain in hash order: base32hex keeps the order of the bytes and every label has the same length. */
export type Nsec3Chain = readonly Nsec3Link[];

/**
 * Takes the NSEC3 owners (`<hash>.<zone>`) out of the zone's nodes and
 * names, and returns them as the chain. RFC 5155 7.2.9: a query for an
 * NSEC3 owner name is answered as if the NSEC3 did not exist (NXDOMAIN,
 * with proofs); the records stay in the zone's transfers, which are made
 * before this (zone-index.ts, `all`). Yields every STEP owners (slices.ts).
 */
export function* nsec3ChainSteps(
  zone: string,
  nodes: Map<string, Node>,
  names: { delete(name: string): unknown },
): Steps<Nsec3Chain> {
  const chain: Nsec3Link[] = [];
  let n = 0;
  for (const [name, node] of nodes) {
    if (++n % STEP === 0) yield;
    if (!node.has('NSEC3')) continue;
    let only = true;
    for (const t of node.keys()) if (t !== 'NSEC3' && t !== 'RRSIG') only = false;
    const dot = name.indexOf('.');
    if (!only || name.slice(dot + 1) !== zone) continue;
    chain.push({ label: name.slice(0, dot), records: [...node.get('NSEC3')!, ...(node.get('RRSIG') ?? [])] });
    nodes.delete(name);
    names.delete(name);
  }
  const byLabel = (a: Nsec3Link, b: Nsec3Link) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
  // The signer writes the chain in hash order (dnssec/nsec3.ts): a check, and a sort only when it is not.
  return inOrder(chain, byLabel) ? chain : chain.sort(byLabel);
}

/**
 * The owner label of a name's NSEC3, hashed as the signer hashes (nsec3Hash
 * with no salt, no extra rounds), or null for a name the canonical form
 * refuses (a label of a query that is not a host name): no proof, rather
 * than a failure of the whole answer.
 */
function hashLabel(name: string): string | null {
  try {
    return base32hex(
      createHash('sha1')
        .update(labelsWire(labels(name)))
        .digest(),
    );
  } catch {
    return null;
  }
}

/** The NSEC3 whose owner hash equals the name's (RFC 5155 7.2.1: "matches"). */
function matching(chain: Nsec3Chain, name: string): readonly Answer[] {
  const h = hashLabel(name);
  let lo = 0;
  let hi = chain.length - 1;
  while (h !== null && lo <= hi) {
    const mid = (lo + hi) >> 1;
    const l = chain[mid]!.label;
    if (l === h) return chain[mid]!.records;
    if (l < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return [];
}

/** The NSEC3 whose owner hash and next hash surround the name's ("covers"): the last before it, else the last. */
function covering(chain: Nsec3Chain, name: string): readonly Answer[] {
  const h = hashLabel(name);
  if (h === null || !chain.length) return [];
  let lo = 0;
  let hi = chain.length - 1;
  let found = chain.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (chain[mid]!.label < h) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return chain[found]!.records;
}

/** The ancestor of `name` one label longer than `encloser` (RFC 5155 1.3, "next closer name"). */
function nextCloser(name: string, encloser: string): string {
  const rest = name.slice(0, name.length - encloser.length - 1);
  return `${rest.slice(rest.lastIndexOf('.') + 1)}.${encloser}`;
}

const parent = (name: string) => name.slice(name.indexOf('.') + 1);

/** The NSEC3 at a delegation with no DS: proves the referral insecure (RFC 5155 7.2.7, opt-out off). */
export function nsec3AtCut(chain: Nsec3Chain, cut: string): readonly Answer[] {
  return matching(chain, cut);
}

/**
 * The NSEC3 records a negative or wildcard answer needs (RFC 5155 7.2),
 * given to `add` (which drops repeats):
 *
 * - NXDOMAIN (7.2.2): the closest encloser proof (7.2.1: the NSEC3
 *   matching the closest encloser, the one covering the next closer name)
 *   and the one covering the wildcard at the closest encloser;
 * - NODATA (7.2.3; DS, 7.2.4), an empty non-terminal included: the NSEC3
 *   matching the name;
 * - wildcard NODATA (7.2.5): the closest encloser proof and the NSEC3
 *   matching the wildcard;
 * - an answer from a wildcard (7.2.6), also one a CNAME chain went
 *   through: the NSEC3 covering the next closer name, so the name asked
 *   does not exist (the RRSIG's label count names the closest encloser).
 */
export function nsec3Proof(chain: Nsec3Chain, proof: Proof, add: (rrs: readonly Answer[]) => void): void {
  const negative = proof.kind === 'nodata' || proof.kind === 'nxdomain';
  for (const w of proof.wild)
    if (w.qname !== proof.name || !negative) add(covering(chain, nextCloser(w.qname, parent(w.wildcard))));
  if (!negative) return;
  const wildcard = proof.wild.find((w) => w.qname === proof.name);
  if (proof.kind === 'nxdomain') {
    const encloser = proof.at!;
    add(matching(chain, encloser));
    add(covering(chain, nextCloser(proof.name, encloser)));
    add(covering(chain, `*.${encloser}`));
  } else if (wildcard) {
    const encloser = parent(wildcard.wildcard);
    add(matching(chain, encloser));
    add(covering(chain, nextCloser(proof.name, encloser)));
    add(matching(chain, wildcard.wildcard));
  } else add(matching(chain, proof.name));
}
