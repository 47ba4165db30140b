import dnsPacket, { type Answer } from 'dns-packet';
import type { Node, ZoneIndex } from './zone-index.ts';
import { WIRE } from '../rr/wire-names.ts';
import { typeByWire } from '../records.ts';
import { bare } from '../rr/kit.ts';
import { typeNumber } from '../dnssec/canonical.ts';

export type Rcode = 'NOERROR' | 'NXDOMAIN' | 'REFUSED';

export interface Resolution {
  rcode: Rcode;
  /** Authoritative: false only for referrals and refusals. */
  aa: boolean;
  answers: Answer[];
  authorities: Answer[];
  additionals: Answer[];
  /** What a signed answer must prove (dnssec-answer.ts); absent on REFUSED. */
  proof?: Proof;
}

/** The facts of a resolution that DNSSEC's proofs are made from (RFC 4035 3.1.3). */
export interface Proof {
  readonly kind: 'answer' | 'nodata' | 'nxdomain' | 'referral';
  /** The last name looked up (after CNAMEs). */
  readonly name: string;
  /** Answers made from a wildcard: the name asked and the wildcard's owner. */
  readonly wild: { qname: string; wildcard: string }[];
  /** nxdomain: the closest encloser (RFC 4592); referral: the delegation point. */
  readonly at?: string;
  /** nodata: the name exists only as an empty non-terminal. */
  readonly empty?: boolean;
}

/** Finds the zone a name belongs to: the longest served zone it ends in. */
export interface ZoneFinder {
  find(name: string): ZoneIndex | undefined;
  /** Whether `address` may transfer the zone (AXFR/IXFR). */
  transferAllowed(zone: ZoneIndex, address: string): boolean;
  /** A NOTIFY for `zone` from `address`; true when it is accepted (a slave zone's master). */
  notified?(zone: string, address: string): boolean;
}

const MAX_CHAIN = 8;
const parent = (name: string) => name.slice(name.indexOf('.') + 1);

/** The highest delegation point at or above `name`, below the apex. */
function cutFor(z: ZoneIndex, name: string): string | undefined {
  let found: string | undefined;
  for (let n = name; n !== z.zone && n.length > z.zone.length; n = parent(n)) if (z.cuts.has(n)) found = n;
  return found;
}

/** A/AAAA of in-zone targets, for the additional section. */
function addressesOf(z: ZoneIndex, targets: string[]): Answer[] {
  const out: Answer[] = [];
  for (const t of targets) {
    const node = z.nodes.get(t.toLowerCase());
    if (node) out.push(...(node.get(WIRE.A) ?? []), ...(node.get(WIRE.AAAA) ?? []));
  }
  return out;
}

/**
 * The in-zone names whose addresses go in the additional section: the
 * targets of NS (referral glue), MX and SRV (RFC 1035 3.3.9, RFC 2782),
 * SVCB and HTTPS (RFC 9460 4.1), as each record type declares them. A
 * CNAME's target is chased, not added.
 */
function targetsOf(rrs: Answer[]): string[] {
  return rrs.flatMap((a) => {
    const def = typeByWire(a.type);
    if (!def?.targets || !def.wire || def.role === 'alias') return [];
    const d = def.wire.decode((a as { data: unknown }).data, a.name);
    return d ? def.targets(d).map(bare) : [];
  });
}

const renamed = (rrs: Answer[], name: string) => rrs.map((a) => ({ ...a, name }));

/** dns-packet's record codec (`answer`), which @types/dns-packet leaves out. */
const answerCodec = (dnsPacket as unknown as { answer: { encodingLength(a: Answer): number } }).answer;

/** DNSSEC's own records: never the one RRset of a minimal ANY answer (the chosen set brings its RRSIGs). */
const NOT_FOR_ANY = new Set(['RRSIG', 'NSEC', 'NSEC3']);

/**
 * The RRset a minimal ANY answer carries (RFC 8482 4.1): one set that
 * exists at the name, the smallest on the wire (ties: the lower type
 * number), so the answer to a spoofable question is as small as the zone
 * allows and is still real data a resolver may cache. A name whose only
 * set is large answers with it: a question for that type would too, and
 * rate limiting bounds both.
 */
function minimalAnySet(node: Node): Answer[] | undefined {
  let best: Answer[] | undefined;
  let bestSize = Infinity;
  let bestType = Infinity;
  for (const [type, rrs] of node) {
    if (NOT_FOR_ANY.has(type) || !rrs.length) continue;
    const size = rrs.reduce((n, a) => n + answerCodec.encodingLength(a), 0);
    const code = typeNumber(type);
    if (size < bestSize || (size === bestSize && code < bestType)) [best, bestSize, bestType] = [rrs, size, code];
  }
  return best;
}

/**
 * The authoritative answer to one question (RFC 1034 4.3.2 for an
 * authoritative-only server): exact matches, CNAME chasing inside the zone,
 * wildcards (RFC 4592), referrals at delegations, NXDOMAIN and NODATA with
 * the SOA for negative caching (RFC 2308). No recursion.
 */
export function resolve(zones: ZoneFinder, qname: string, qtype: string, minimalAny = false): Resolution {
  let name = qname.toLowerCase().replace(/\.$/, '');
  const z = zones.find(name);
  if (!z) return { rcode: 'REFUSED', aa: false, answers: [], authorities: [], additionals: [] };
  const answers: Answer[] = [];
  const wild: Proof['wild'] = [];
  const negative = (rcode: Rcode, extra: Partial<Proof> = {}): Resolution => ({
    rcode,
    aa: true,
    answers,
    authorities: [{ ...z.soa, ttl: z.negativeTtl } as Answer],
    additionals: [],
    proof: { kind: rcode === 'NXDOMAIN' ? 'nxdomain' : 'nodata', name, wild, ...extra },
  });
  const positive = (additionals: Answer[]): Resolution => ({
    rcode: 'NOERROR',
    aa: true,
    answers,
    authorities: [],
    additionals,
    proof: { kind: 'answer', name, wild },
  });

  for (let hop = 0; hop < MAX_CHAIN; hop++) {
    const cut = cutFor(z, name);
    if (cut && !(cut === name && qtype === WIRE.DS)) {
      if (answers.length) break; // a CNAME into a delegated name: the resolver follows it
      const ns = z.nodes.get(cut)!.get(WIRE.NS)!;
      return {
        rcode: 'NOERROR',
        aa: false,
        answers: [],
        authorities: ns,
        additionals: addressesOf(z, targetsOf(ns)),
        proof: { kind: 'referral', name, wild, at: cut },
      };
    }
    let node: Node | undefined = z.nodes.get(name);
    let synthesized = false;
    if (!node) {
      if (z.names.has(name)) return negative('NOERROR', { empty: true }); // empty non-terminal
      // RFC 4592: the wildcard at the closest encloser, if there is one.
      let encloser = parent(name);
      while (!z.names.has(encloser) && encloser.length > z.zone.length) encloser = parent(encloser);
      node = z.nodes.get(`*.${encloser}`);
      if (!node) return negative('NXDOMAIN', { at: encloser });
      synthesized = true;
      wild.push({ qname: name, wildcard: `*.${encloser}` });
    }
    const owner = synthesized ? name : undefined;
    // ANY: every set at the name, or over UDP just one (`minimalAny`, RFC 8482; the caller decides).
    const rrs = qtype !== 'ANY' ? node.get(qtype) : minimalAny ? minimalAnySet(node) : [...node.values()].flat();
    if (rrs && rrs.length) {
      answers.push(...(owner ? renamed(rrs, owner) : rrs));
      return positive(qtype === 'ANY' ? [] : addressesOf(z, targetsOf(rrs)));
    }
    const cname = node.get(WIRE.CNAME);
    if (!cname || qtype === WIRE.CNAME) return negative('NOERROR');
    answers.push(...(owner ? renamed(cname, owner) : cname));
    const target = String((cname[0] as any).data).toLowerCase();
    if (target !== z.zone && !target.endsWith(`.${z.zone}`)) break; // out of zone: the resolver goes on
    name = target;
  }
  return positive([]);
}
