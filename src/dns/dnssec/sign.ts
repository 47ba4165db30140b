import { sign } from 'node:crypto';
import dnsPacket, { type Answer, type RrsigData } from 'dns-packet';
import type { Clock } from '../../clock.ts';
import { nameWire, rrsetWire, rrsigLabels } from './canonical.ts';
import type { ZoneKey } from './keys.ts';

/**
 * Signature timers, in seconds (docs/dnssec.md, "Timers"). Knot's defaults
 * (rrsig-lifetime 14 days; re-sign well before the end) rather than BIND's
 * 30 days: a shorter life bounds how long a replayed answer stays valid,
 * and a week left at refresh covers a long outage of the signer and any
 * secondary's expire (Vigil's SOA expire is 14 days, but a secondary keeps
 * answering until it, so the signatures must outlive a failed refresh by
 * a margin: 7 days is more than the usual 1-2 day retry windows).
 */
export interface Timers {
  /** How long a fresh signature is valid, from now. */
  readonly validity: number;
  /** Inception is this far in the past, for validators whose clocks run slow. */
  readonly inceptionOffset: number;
  /** A signature with less than this left is re-made at the next signing. */
  readonly refresh: number;
}

export const DEFAULT_TIMERS: Timers = { validity: 14 * 86400, inceptionOffset: 3600, refresh: 7 * 86400 };

export interface SignatureWindow {
  /** Seconds since 1970 (RRSIG fields are these modulo 2^32, RFC 4034 3.1.5). */
  readonly inception: number;
  readonly expiration: number;
}

export function signatureWindow(clock: Clock, timers: Timers = DEFAULT_TIMERS): SignatureWindow {
  const now = Math.floor(clock.now() / 1000);
  return { inception: now - timers.inceptionOffset, expiration: now + timers.validity };
}

/**
 * Whether an existing RRSIG must be re-made now: at or within the refresh margin of its end (so at a
 * SignedZone's refreshAt), or not yet valid.
 */
export function needsRefresh(rrsig: RrsigData, clock: Clock, timers: Timers = DEFAULT_TIMERS): boolean {
  const now = Math.floor(clock.now() / 1000);
  return rrsig.expiration - now <= timers.refresh || rrsig.inception > now;
}

const rrsigCodec = (dnsPacket as unknown as { record(t: string): { encode(d: RrsigData): Buffer } }).record('RRSIG');

/** The raw signature: ECDSA as r|s (RFC 6605 4, node's 'ieee-p1363'), Ed25519 as is (RFC 8080 4). */
function rawSignature(key: ZoneKey, data: Buffer): Buffer {
  return key.algorithm === 13
    ? sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
    : sign(null, data, key.privateKey);
}

/** An RRset as a signature covers it: its TTL (one per set) and its records in canonical form. */
export interface CanonicalSet {
  readonly ttl: number;
  readonly wire: Buffer;
}

/**
 * `ownerWire`: the owner's canonical wire form when the caller has it already (signZone computes each owner's
 * once).
 */
export function canonicalSet(owner: string, type: string, rrset: readonly Answer[], ownerWire?: Buffer): CanonicalSet {
  // One TTL per set (RFC 2181 5.2); the index already evens them out, the lowest is what a resolver would keep anyway.
  let ttl = Infinity;
  for (const r of rrset) ttl = Math.min(ttl, (r as { ttl?: number }).ttl ?? 0);
  return { ttl, wire: rrsetWire(ownerWire ?? nameWire(owner), type, ttl, rrset) };
}

/**
 * One RRSIG over one RRset (RFC 4034 3.1.8.1): the RRSIG RDATA without its
 * signature, then the set in canonical form with the original TTL. `owner`
 * and `zone` in dns-packet's form (no trailing dot).
 */
export function signRRset(
  owner: string,
  type: string,
  rrset: readonly Answer[],
  zone: string,
  key: ZoneKey,
  window: SignatureWindow,
): Answer {
  return signCanonical(owner, type, canonicalSet(owner, type, rrset), zone, key, window);
}

export function signCanonical(
  owner: string,
  type: string,
  set: CanonicalSet,
  zone: string,
  key: ZoneKey,
  window: SignatureWindow,
): Answer {
  const data: RrsigData = {
    typeCovered: type,
    algorithm: key.algorithm,
    labels: rrsigLabels(owner),
    originalTTL: set.ttl,
    expiration: window.expiration >>> 0,
    inception: window.inception >>> 0,
    keyTag: key.tag,
    signersName: zone.toLowerCase(),
    signature: Buffer.alloc(0),
  };
  const head = rrsigCodec.encode(data).subarray(2);
  data.signature = rawSignature(key, Buffer.concat([head, set.wire]));
  return { type: 'RRSIG', name: owner, ttl: set.ttl, class: 'IN', data };
}
