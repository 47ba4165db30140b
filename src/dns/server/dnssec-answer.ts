import type { Answer } from 'dns-packet';
import { compareLabels, labels } from '../dnssec/canonical.ts';
import { nsec3AtCut, nsec3Proof } from './nsec3-answer.ts';
import type { Proof, Resolution } from './resolve.ts';
import type { ZoneIndex } from './zone-index.ts';
import { WIRE } from '../rr/wire-names.ts';

/**
 * A resolution made verifiable, for a query with the DO bit to a signed
 * zone (RFC 4035 3.1): each RRset with its RRSIGs, and the NSEC records
 * that prove what is not there, with theirs:
 *
 * - NODATA: the NSEC at the name (its bitmap lacks the type); at an empty
 *   non-terminal, the NSEC that covers the name (3.1.3.1);
 * - NXDOMAIN: the NSEC covering the name and the one covering the wildcard
 *   at the closest encloser, so no wildcard could have answered (3.1.3.2);
 * - an answer from a wildcard: the NSEC covering the name asked, so the
 *   name itself does not exist (3.1.3.3); NODATA from a wildcard adds the
 *   wildcard's own NSEC (3.1.3.4);
 * - a referral: the DS set with its RRSIG, or the NSEC at the delegation
 *   that proves there is none (3.1.4).
 *
 * A zone signed with NSEC3 gets RFC 5155 7.2's proofs instead (nsec3-answer.ts).
 */
export function withDnssec(z: ZoneIndex, r: Resolution): Resolution {
  const proof = r.proof;
  if ((!z.nsecChain && !z.nsec3) || !proof) return r;
  const answers = signSets(z, r.answers, proof.wild);
  const authorities: Answer[] = [...r.authorities];
  const add = (rrs: readonly Answer[]) => {
    for (const a of rrs) if (!authorities.includes(a)) authorities.push(a);
  };
  const nsecAt = (name: string) => [...(z.nodes.get(name)?.get('NSEC') ?? []), ...sigs(z, name, 'NSEC')];
  const covering = (name: string) => nsecAt(cover(z, name));
  if (proof.kind === 'referral') {
    const ds = z.nodes.get(proof.at!)?.get(WIRE.DS);
    const none = z.nsec3 ? nsec3AtCut(z.nsec3, proof.at!) : nsecAt(proof.at!);
    add(ds ? [...ds, ...sigs(z, proof.at!, WIRE.DS)] : none);
    return { ...r, answers, authorities };
  }
  const negative = proof.kind === 'nodata' || proof.kind === 'nxdomain';
  if (negative) add(sigs(z, z.zone, WIRE.SOA));
  if (z.nsec3) {
    nsec3Proof(z.nsec3, proof, add);
    return { ...r, answers, authorities };
  }
  for (const w of proof.wild) if (w.qname !== proof.name || !negative) add(covering(w.qname));
  if (negative) {
    const wildcard = proof.wild.find((w) => w.qname === proof.name);
    if (proof.kind === 'nxdomain') {
      add(covering(proof.name));
      add(covering(`*.${proof.at}`));
    } else if (wildcard) {
      add(covering(proof.name));
      add(nsecAt(wildcard.wildcard));
    } else add(proof.empty ? covering(proof.name) : nsecAt(proof.name));
  }
  return { ...r, answers, authorities };
}

/** The RRSIGs over one RRset. */
function sigs(z: ZoneIndex, owner: string, type: string): Answer[] {
  return (z.nodes.get(owner)?.get('RRSIG') ?? []).filter(
    (s) => (s as { data: { typeCovered: string } }).data.typeCovered === type,
  );
}

/**
 * Each RRset of a section followed by its signatures; a set made from a wildcard takes the wildcard's,
 * renamed (RFC 4035 3.1.3.3).
 */
function signSets(z: ZoneIndex, rrs: readonly Answer[], wild: Proof['wild']): Answer[] {
  const out: Answer[] = [];
  const seen = new Set<Answer>(rrs);
  const done = new Set<string>();
  for (const a of rrs) {
    const key = `${a.name.toLowerCase()}|${a.type}`;
    out.push(a);
    if (done.has(key) || a.type === 'RRSIG') continue;
    done.add(key);
    const name = a.name.toLowerCase();
    const from = wild.find((w) => w.qname === name)?.wildcard;
    // An ANY answer holds the owner's RRSIGs already: each once.
    for (const s of from ? sigs(z, from, a.type).map((s) => ({ ...s, name: a.name })) : sigs(z, name, a.type))
      if (!seen.has(s)) out.push(s);
  }
  // Signatures after their whole set: move each set's RRSIGs behind its last record.
  return regroup(out);
}

/** Records of one set together, each set's RRSIGs right after it (order of first appearance). */
function regroup(list: Answer[]): Answer[] {
  const sets = new Map<string, Answer[]>();
  for (const a of list) {
    const covered = a.type === 'RRSIG' ? (a as { data: { typeCovered: string } }).data.typeCovered : a.type;
    const key = `${a.name.toLowerCase()}|${covered}`;
    const set = sets.get(key);
    if (set) set.push(a);
    else sets.set(key, [a]);
  }
  return [...sets.values()].flatMap((set) => [
    ...set.filter((a) => a.type !== 'RRSIG'),
    ...set.filter((a) => a.type === 'RRSIG'),
  ]);
}

/**
 * The owner of the NSEC that covers `name`: the last chain name at or before it in canonical order (the chain
 * wraps to its last).
 */
function cover(z: ZoneIndex, name: string): string {
  const chain = z.nsecChain!;
  const want = labels(name);
  let lo = 0;
  let hi = chain.length - 1;
  let found = chain.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (compareLabels(chain[mid]!.labels, want) <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return chain[found]!.name;
}
