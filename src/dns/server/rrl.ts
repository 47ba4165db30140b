import type { Clock } from '../../clock.ts';
import { parseIP } from '../../ip.ts';
import type { Resolution } from './resolve.ts';

/**
 * Response rate limiting (RRL) for DNS over UDP, as BIND's `rate-limit`,
 * Knot's `mod-rrl` and NSD's `rrl-ratelimit` do it: a spoofed source can
 * turn a name server into an amplifier aimed at a victim, so at most
 * `rate` identical responses a second go to one client network; beyond
 * that, one limited response in `slip` is sent empty with TC (a real
 * client retries over TCP, which a spoofer cannot) and the others are
 * dropped. TCP is never limited: its handshake proves the source.
 *
 * This is the limiter of the node:dgram path. The native UDP I/O keeps the
 * same buckets with the same arithmetic in C (native/rrl.c), because its
 * cache hits never reach JavaScript; the tests run against both.
 */
export type RrlVerdict = 'answer' | 'slip' | 'drop';

/** BIND's and Knot's default slip: every second limited response goes out as TC. */
export const RRL_SLIP = 2;
/** Buckets held before stale ones are swept (a bucket is ~100 bytes: ~10 MB at most). */
const MAX_BUCKETS = 100_000;
/** Fixed point: a token is 1000 milli-tokens, so a bucket refills `rate` milli-tokens per ms, in integers. */
const TOKEN = 1000;

interface Bucket {
  /** Milli-tokens left, at most rate * TOKEN. */
  milli: number;
  /** Clock time of the last refill. */
  at: number;
  /** Responses limited so far, for the slip's one in `slip`. */
  limited: number;
}

/**
 * One token bucket per (client network, response key): it holds `rate`
 * tokens (one second's worth, the burst allowed), refills `rate` a second
 * and each response takes one. Unlike BIND there is no debt ("window"):
 * a bucket never goes below zero, so a victim whose address was spoofed
 * gets answers again one second after the flood stops, as with Knot.
 */
export class ResponseRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly exempt: ReadonlySet<string>;

  constructor(
    private readonly rate: number,
    exempt: readonly string[],
    private readonly clock: Clock,
    private readonly slip = RRL_SLIP,
  ) {
    this.exempt = new Set(exempt.map(canonicalAddress));
  }

  /** What to do with one UDP response of `key` to `address`. */
  check(address: string, key: string): RrlVerdict {
    if (this.exempt.size && this.exempt.has(canonicalAddress(address))) return 'answer';
    const id = `${clientNetwork(address)}|${key}`;
    const now = this.clock.now();
    const full = this.rate * TOKEN;
    let b = this.buckets.get(id);
    if (!b) {
      if (this.buckets.size >= MAX_BUCKETS) this.sweep(now);
      b = { milli: full, at: now, limited: 0 };
      this.buckets.set(id, b);
    } else if (now > b.at) {
      b.milli = Math.min(full, b.milli + (now - b.at) * this.rate);
      b.at = now;
    } else b.at = now; // the clock went back: no refill, and none owed later
    if (b.milli >= TOKEN) {
      b.milli -= TOKEN;
      return 'answer';
    }
    return this.slip > 0 && b.limited++ % this.slip === 0 ? 'slip' : 'drop';
  }

  /** Buckets held now (for tests of the bound). */
  get size(): number {
    return this.buckets.size;
  }

  /**
   * Age-out: a bucket idle for a second is full again, the same as no
   * bucket, so it goes. If every bucket is busy (a flood from more
   * networks than the bound), the oldest half goes: those networks start
   * again with a full bucket, which bounds memory at the cost of letting
   * them through for a second.
   */
  private sweep(now: number): void {
    for (const [id, b] of this.buckets) if (now - b.at >= 1000) this.buckets.delete(id);
    if (this.buckets.size < MAX_BUCKETS / 2) return;
    let drop = this.buckets.size / 2;
    for (const id of this.buckets.keys()) {
      if (drop-- <= 0) break;
      this.buckets.delete(id);
    }
  }
}

/** One spelling per address (an IPv4-mapped IPv6 address is its IPv4), for the exemptions. */
function canonicalAddress(address: string): string {
  const v4 = mappedV4(address);
  if (v4 !== null) return v4;
  return parseIP(address)?.toString() ?? address;
}

function mappedV4(address: string): string | null {
  if (!address.includes(':')) return address;
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : null;
}

/** The client network RRL counts by: an IPv4 /24 (`a.b.c`), an IPv6 /56 (its first 56 bits in hex). */
export function clientNetwork(address: string): string {
  const v4 = mappedV4(address);
  if (v4 !== null) return v4.slice(0, v4.lastIndexOf('.'));
  const ip = parseIP(address);
  if (!ip || ip.kind() !== 'ipv6') return address;
  const b = ip.toByteArray();
  return Buffer.from(b.slice(0, 7)).toString('hex');
}

/**
 * What makes two responses "identical" for RRL: the name, the type and
 * the kind of answer, as BIND counts them (its ARM, "Response Rate
 * Limiting"), so that a flood of varied questions still lands in one
 * bucket where the answer is the same:
 *
 * - an answer: the name asked and the type; an answer made from a
 *   wildcard counts under the wildcard, so random names below it
 *   (random.wild.example) share one bucket;
 * - NODATA: the name, whatever the type;
 * - NXDOMAIN: the zone, whatever the name and type (a random-subdomain
 *   flood is one bucket);
 * - a referral: the delegation point;
 * - REFUSED (a name we do not serve): one bucket per RCODE, whatever the
 *   name (responseKeyOf covers the other errors the same way).
 */
export function responseKey(qname: string, qtype: string, zone: string | undefined, r: Resolution): string {
  const p = r.proof;
  if (r.rcode === 'REFUSED' || !p || !zone) return `!${r.rcode}`;
  const name = p.wild.find((w) => w.qname === qname)?.wildcard ?? qname;
  switch (p.kind) {
    case 'answer':
      return `${name}|${qtype}`;
    case 'nodata':
      return `${name}|NODATA`;
    case 'nxdomain':
      return `${zone}|NXDOMAIN`;
    case 'referral':
      return `${p.at}|REFERRAL`;
  }
}

/** The key of a reply that did not come from a lookup (FORMERR, NOTIMP, NOTIFY, …): its opcode and RCODE. */
export function responseKeyOf(reply: Buffer): string {
  return `!${(reply[2]! >> 3) & 15}|${reply[3]! & 15}`;
}

/**
 * The "slip": the reply cut to its header and question, TC set and every
 * count but the question's zero (what BIND and Knot send), so a real
 * client asks again over TCP. Our replies write the question's name
 * uncompressed, so it ends at its zero label.
 */
export function slipReply(reply: Buffer): Buffer {
  let end = 12;
  if (reply.readUInt16BE(4) > 0) {
    // A name is at most 255 bytes (RFC 1035 3.1): the question then ends at 12 + 255 + 4 at the latest.
    let p = 12;
    while (p < reply.length && p < 12 + 255 && reply[p] !== 0) p += reply[p]! + 1;
    if (p < reply.length && reply[p] === 0 && p + 5 <= reply.length) end = p + 5; // the zero label, QTYPE, QCLASS
  }
  const out = Buffer.from(reply.subarray(0, end));
  out[2]! |= 0x02;
  out.writeUInt16BE(end > 12 ? 1 : 0, 4);
  out.fill(0, 6, 12);
  return out;
}
