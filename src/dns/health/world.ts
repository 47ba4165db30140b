import type { Answer } from 'dns-packet';
import type { Peer } from '../peers.ts';
import { ask, rdata, type Reply } from './wire.ts';

export interface WorldOptions {
  /** `--resolver`: where names are looked up (a recursive resolver, or a root to resolve from). */
  resolvers: readonly Peer[];
  /** Whether an authoritative server at this address may be asked directly (the account's audit permission). */
  mayAsk: (address: string) => boolean;
  /** Date.now() after which nothing more is sent: a check of any zone ends in bounded time. */
  deadline: number;
  /**
   * One attempt's wait. 1.2 s: a resolver on the same network answers a
   * cached name in under 10 ms and resolves a new one in a few hundred;
   * what has not come back by then is asked once more, not waited for.
   */
  attemptMs?: number;
}

const FAILED = new Set(['SERVFAIL', 'REFUSED']);
/**
 * Questions in flight at once. Enough that a zone's few dozen targets go
 * out together (20 names into a black hole: 2.4 s, docs/dns.md "Time"),
 * few enough that a zone of thousands of CNAMEs does not open thousands of
 * sockets at its resolver; what waits past the deadline is not asked.
 */
const IN_FLIGHT = 64;
/** Referrals followed at most (a root, a TLD, a parent, the zone: 4 is usual; RFC 1034 §5.3.3 bounds the work). */
const MAX_REFERRALS = 10;

export const isReferral = (r: Reply) =>
  !r.aa && r.rcode === 'NOERROR' && r.answers.length === 0 && r.authorities.some((a) => a.type === 'NS');

/**
 * The world as Vigil's checks see it: every question goes to `--resolver`
 * (all of them at once, the first good answer wins) and is asked once per
 * check; questions run in parallel and each attempt is short, so a zone's
 * checks take the time of their slowest chain of look-ups, not the sum.
 * A resolver that answers without recursion (a root, RFC 1035 §4.1.1 RA
 * clear) is resolved from: its referrals are followed. An authoritative
 * server is asked directly only when it was reached that way or the
 * account may audit its address; nothing else is ever sent anywhere.
 */
export class World {
  private readonly memo = new Map<string, Promise<Reply | null>>();
  /** Addresses reached by following the resolver's referrals (iterative mode). */
  private readonly learned = new Set<string>();
  private readonly attemptMs: number;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly o: WorldOptions) {
    this.attemptMs = o.attemptMs ?? 1200;
  }

  remaining(): number {
    return this.o.deadline - Date.now();
  }

  /** Whether an authoritative server at `address` may be asked. */
  mayAsk(address: string): boolean {
    return this.o.resolvers.some((r) => r.address === address) || this.learned.has(address) || this.o.mayAsk(address);
  }

  /** A question through the resolvers, asked once per check whatever the number of checks that need it. */
  resolve(name: string, type: string, dnssec = false): Promise<Reply | null> {
    const key = `r|${name.toLowerCase()}|${type}|${dnssec}`;
    let p = this.memo.get(key);
    if (!p) this.memo.set(key, (p = this.viaResolvers(name, type, dnssec)));
    return p;
  }

  /** A question to one authoritative server without recursion; null when it may not be asked or did not answer. */
  direct(address: string, name: string, type: string, dnssec = false, port = 53): Promise<Reply | null> {
    if (!this.mayAsk(address)) return Promise.resolve(null);
    const key = `d|${address}|${port}|${name.toLowerCase()}|${type}|${dnssec}`;
    let p = this.memo.get(key);
    if (!p) this.memo.set(key, (p = this.once([{ address, port }], name, type, false, dnssec)));
    return p;
  }

  /** IPv4 and IPv6 addresses of a host name, with how the look-up ended. */
  async addresses(name: string, depth = 0): Promise<{ addresses: string[]; rcode: string | null; viaCname: boolean }> {
    const [a, aaaa] = await Promise.all([this.resolve(name, 'A'), this.resolve(name, 'AAAA')]);
    const answers = [...(a?.answers ?? []), ...(aaaa?.answers ?? [])];
    const addresses = answers.filter((x) => x.type === 'A' || x.type === 'AAAA').map((x) => String(rdata(x)));
    const cname = answers.find((x) => x.type === 'CNAME' && x.name.toLowerCase() === name.toLowerCase());
    const rcode = a?.rcode ?? aaaa?.rcode ?? null;
    // An authoritative server (iterative mode) answers a CNAME without chasing it out of its zone.
    if (cname && !addresses.length && depth < 8) {
      const next = await this.addresses(String(rdata(cname)).replace(/\.$/, ''), depth + 1);
      return { ...next, viaCname: true };
    }
    return { addresses: [...new Set(addresses)], rcode, viaCname: cname !== undefined };
  }

  private async viaResolvers(name: string, type: string, dnssec: boolean): Promise<Reply | null> {
    const first = await this.once(this.o.resolvers, name, type, true, dnssec);
    // REFUSED is the resolver refusing us (a resolver turns its servers' refusals into SERVFAIL): no answer.
    if (first?.rcode === 'REFUSED') return null;
    if (!first || first.ra || !isReferral(first)) return first;
    return this.iterate(first, name, type, dnssec, 0);
  }

  /** Follows a referral (the resolver is a root or another authoritative server). */
  private async iterate(ref: Reply, name: string, type: string, dnssec: boolean, depth: number): Promise<Reply | null> {
    if (depth >= MAX_REFERRALS) return ref;
    const nsNames = ref.authorities.filter((a) => a.type === 'NS').map((a) => String(rdata(a)).toLowerCase());
    const glue = ref.additionals.filter(
      (a) => (a.type === 'A' || a.type === 'AAAA') && nsNames.includes(a.name.toLowerCase()),
    );
    let addresses = glue.map((a) => String(rdata(a)));
    // No glue (the servers are named outside the delegated zone): their addresses from the root again.
    if (!addresses.length)
      addresses = (await Promise.all(nsNames.slice(0, 4).map((n) => this.addresses(n)))).flatMap((x) => x.addresses);
    for (const a of addresses) this.learned.add(a);
    const next = await this.once(
      addresses.map((address) => ({ address, port: 53 })),
      name,
      type,
      false,
      dnssec,
    );
    if (!next || !isReferral(next)) return next;
    return this.iterate(next, name, type, dnssec, depth + 1);
  }

  /** Asks every server at once, twice at most; the first answer that is not a failure wins. */
  private async once(
    servers: readonly Peer[],
    name: string,
    type: string,
    recurse: boolean,
    dnssec: boolean,
  ): Promise<Reply | null> {
    for (let attempt = 0; attempt < 2; attempt++) {
      if (this.inFlight >= IN_FLIGHT) await new Promise<void>((r) => this.waiting.push(r));
      const timeoutMs = Math.min(this.attemptMs, this.remaining());
      if (timeoutMs < 50 || !servers.length) {
        this.waiting.shift()?.();
        return null;
      }
      this.inFlight++;
      const r = await firstGood(servers.map((s) => ask(s, name, type, { recurse, dnssec, timeoutMs }))).finally(() => {
        this.inFlight--;
        this.waiting.shift()?.();
      });
      if (r) return r;
    }
    return null;
  }
}

/** The first reply that is not SERVFAIL/REFUSED; else a failure if any came; else null. */
function firstGood(asks: Promise<Reply | null>[]): Promise<Reply | null> {
  return new Promise((resolve) => {
    let left = asks.length;
    let failure: Reply | null = null;
    for (const p of asks)
      void p.then((r) => {
        if (r && !FAILED.has(r.rcode)) return resolve(r);
        if (r) failure = r;
        if (--left === 0) resolve(failure);
      });
  });
}

/** The records of `type` owned by `name` in a reply's answer. */
export const answersOf = (r: Reply | null, name: string, type: string): Answer[] =>
  (r?.answers ?? []).filter((a) => a.type === type && a.name.toLowerCase() === name.toLowerCase());
