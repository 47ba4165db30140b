import type { Answer, SoaData } from 'dns-packet';
import type { Clock } from '../../clock.ts';
import { compareLabels, labels, labelsWire } from './canonical.ts';
import { dnssecFail } from './errors.ts';
import { dnskeyData, type ZoneKey } from './keys.ts';
import { nsecChain } from './nsec.ts';
import { nsec3Chain, nsec3paramRdata } from './nsec3.ts';
import { SignatureCache } from './reuse.ts';
import { DEFAULT_TIMERS, signatureWindow, type Timers } from './sign.ts';
import { WIRE } from '../rr/wire-names.ts';

/** A key given to the signer: every key given is published in the DNSKEY set; `sign` says whether it also signs. */
export interface KeyUse {
  readonly key: ZoneKey;
  /**
   * false: published only. That is the pre-publish state of a new ZSK and the
   * retired state of an old one (RFC 6781 4.1.1.1), and how a KSK waits for
   * its DS during a roll.
   */
  readonly sign: boolean;
}

export interface SignOptions {
  readonly clock: Clock;
  readonly timers?: Timers;
  /**
   * TTL of the DNSKEY set. An hour, not the zone's day-long default: a key
   * roll waits this long for caches to see the new set (RFC 7583), so a
   * short TTL keeps ZSK rolls quick at the cost of a few more DNSKEY queries.
   */
  readonly dnskeyTtl?: number;
  /**
   * Authenticated denial: NSEC (the default, nsec.ts) or NSEC3 with RFC
   * 9276's parameters (nsec3.ts) for a zone whose names should not be walked.
   */
  readonly denial?: 'nsec' | 'nsec3';
  /** The previous signing's signatures (its SignedZone.signatures): unchanged RRsets keep theirs (reuse.ts). */
  readonly previous?: SignatureCache;
}

export interface SignedZone {
  /**
   * The zone's records (DNSSEC types given in are dropped and remade), DNSKEY, NSEC and every RRSIG, in
   * canonical order.
   */
  readonly records: Answer[];
  /** When the signatures made now must be re-made (ms since 1970; the caller's timer). */
  readonly refreshAt: number;
  /** What the next signing passes as `previous`. */
  readonly signatures: SignatureCache;
}

export const DEFAULT_DNSKEY_TTL = 3600;
/**
 * Sets the KSK signs: DNSKEY, and CDS/CDNSKEY, which RFC 7344 4.1 says must
 * be signed by a key the parent's DS names (Knot's kzonecheck refuses a
 * ZSK-only signature on them).
 */
const KSK_SIGNED = new Set(['DNSKEY', 'CDS', 'CDNSKEY']);
/** Made by the signer, so never taken from the records given in. */
const SIGNER_TYPES = new Set(['RRSIG', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'DNSKEY']);

interface Owner {
  readonly name: string;
  readonly labels: Buffer[];
  /** Canonical wire form, made once for all the owner's sets. */
  wire?: Buffer;
  readonly sets: Map<string, Answer[]>;
}

/**
 * Signs a zone: pure over the records (dns-packet answers, names without a
 * trailing dot, as the serving index holds them) with the keys passed in,
 * so publish, transfers and the API can each call it with the store's keys.
 *
 * What is signed follows RFC 4035 2.2: every authoritative RRset once per
 * signing key of its role (KSKs: the DNSKEY, CDS and CDNSKEY sets; ZSKs:
 * everything else).
 * At a delegation only DS and NSEC are the parent's and signed; the NS set
 * there and glue below it are not, and occluded names get no NSEC
 * (RFC 4035 2.3).
 */
export function signZone(
  zone: string,
  records: readonly Answer[],
  keys: readonly KeyUse[],
  options: SignOptions,
): SignedZone {
  const apex = zone.toLowerCase().replace(/\.$/, '');
  const apexLabels = labels(apex);
  const ksks = keys.filter((k) => k.sign && k.key.role === 'ksk').map((k) => k.key);
  const zsks = keys.filter((k) => k.sign && k.key.role === 'zsk').map((k) => k.key);
  if (!ksks.length || !zsks.length) dnssecFail('noActiveKey');
  const owners = new Map<string, Owner>();
  for (const r of records) {
    if (SIGNER_TYPES.has(r.type)) continue;
    const name = r.name.toLowerCase().replace(/\.$/, '');
    let o = owners.get(name);
    if (!o) {
      const ls = labels(name);
      if (ls.length < apexLabels.length || compareLabels(ls.slice(ls.length - apexLabels.length), apexLabels) !== 0)
        dnssecFail('recordOutsideZone');
      owners.set(name, (o = { name, labels: ls, sets: new Map() }));
    }
    const set = o.sets.get(r.type);
    if (set) set.push(r);
    else o.sets.set(r.type, [r]);
  }
  const top = owners.get(apex);
  const soa = top?.sets.get(WIRE.SOA)?.[0] as { ttl?: number; data: SoaData } | undefined;
  if (!top || !soa) dnssecFail('zoneHasNoSoa');
  const dnskeyTtl = options.dnskeyTtl ?? DEFAULT_DNSKEY_TTL;
  top.sets.set(
    'DNSKEY',
    keys.map((k) => ({ type: 'DNSKEY', name: apex, ttl: dnskeyTtl, class: 'IN', data: dnskeyData(k.key) }) as Answer),
  );

  const nsec3 = options.denial === 'nsec3';
  // TTL 0 as BIND and Knot publish it: only the signer and secondaries read it.
  if (nsec3)
    top.sets.set('NSEC3PARAM', [
      { type: 'NSEC3PARAM', name: apex, ttl: 0, class: 'IN', data: nsec3paramRdata() } as unknown as Answer,
    ]);

  const sorted = [...owners.values()].sort((a, b) => compareLabels(a.labels, b.labels));
  // Delegations: NS below the apex. Sorted order puts a cut before every name under it.
  const live: Owner[] = [];
  const cuts = new Set<string>();
  let cut: Buffer[] | null = null;
  for (const o of sorted) {
    if (cut && o.labels.length > cut.length && compareLabels(o.labels.slice(o.labels.length - cut.length), cut) === 0)
      continue; // glue: occluded
    cut = o.name !== apex && o.sets.has(WIRE.NS) ? o.labels : null;
    if (cut) cuts.add(o.name);
    live.push(o);
  }

  // RFC 9077: the NSEC TTL is the lesser of the SOA's TTL and its minimum, the negative-caching TTL.
  const nsecTtl = Math.min(soa.ttl ?? soa.data.minimum ?? 0, soa.data.minimum ?? 0);
  const nsecs = nsec3
    ? new Map<string, Answer>()
    : nsecChain(
        live.map((o) => ({ name: o.name, types: [...o.sets.keys()] })),
        nsecTtl,
      );

  const timers = options.timers ?? DEFAULT_TIMERS;
  const window = signatureWindow(options.clock, timers);
  const cache = new SignatureCache();
  const sig = (o: Owner | string, type: string, set: readonly Answer[], key: ZoneKey) =>
    typeof o === 'string'
      ? cache.sign(options.previous, o, undefined, type, set, apex, key, window, options.clock, timers)
      : cache.sign(
          options.previous,
          o.name,
          (o.wire ??= labelsWire(o.labels)),
          type,
          set,
          apex,
          key,
          window,
          options.clock,
          timers,
        );
  const out: Answer[] = [];
  const kept = new Set(live);
  for (const o of sorted) {
    const delegation = cuts.has(o.name);
    for (const [type, set] of o.sets) {
      out.push(...set);
      if (!kept.has(o) || (delegation && type !== WIRE.DS)) continue;
      for (const key of KSK_SIGNED.has(type) ? ksks : zsks) out.push(sig(o, type, set, key));
    }
    const nsec = nsecs.get(o.name);
    if (nsec) {
      out.push(nsec);
      for (const key of zsks) out.push(sig(o, 'NSEC', [nsec], key));
    }
  }
  if (nsec3) {
    for (const n of nsec3Chain(apex, nsec3Owners(apex, live, cuts), nsecTtl)) {
      out.push(n);
      for (const key of zsks) out.push(sig(n.name, 'NSEC3', [n], key));
    }
  }
  // The earliest signature to re-make decides: a reused one may be older than this signing's.
  let earliest = Infinity;
  for (const r of out)
    if (r.type === 'RRSIG') earliest = Math.min(earliest, (r.data as { expiration: number }).expiration);
  return { records: out, refreshAt: (earliest - timers.refresh) * 1000, signatures: cache };
}

/**
 * The names NSEC3 covers (RFC 5155 7.1, opt-out off): every authoritative
 * owner, delegations included, and every empty non-terminal between them
 * and the apex, which NSEC3 (unlike NSEC) must list.
 */
function nsec3Owners(apex: string, live: readonly Owner[], cuts: ReadonlySet<string>) {
  const out = live.map((o) => ({
    name: o.name,
    types: [...o.sets.keys()],
    signed: !cuts.has(o.name) || o.sets.has(WIRE.DS),
  }));
  const seen = new Set(live.map((o) => o.name));
  for (const o of live) {
    // Vigil's names have no escaped dots, so a parent is the name after its first dot.
    for (let n = o.name; n !== apex && n.includes('.'); ) {
      n = n.slice(n.indexOf('.') + 1);
      if (seen.has(n)) break;
      seen.add(n);
      out.push({ name: n, types: [], signed: false });
    }
  }
  return out;
}
