import { parsePattern, patternContains, type Pattern } from '../audit/patterns.ts';
import { parseIP } from '../ip.ts';
import type { Peer } from './peers.ts';

/**
 * The DNS egress fence: the only addresses the name server sends traffic to
 * on a tenant's behalf (SOA queries and transfers to a slave domain's
 * `masters`, NOTIFY to in-zone NS hosts and `alsonotify`). A tenant types
 * those addresses, so without a fence any account could make Vigil send
 * packets anywhere. `--dns-peers-allow` (default loopback only) is the
 * list; the operator's own `--secondaries` are always allowed.
 */
export class DnsEgress {
  private readonly allow: readonly Pattern[];
  private readonly always: ReadonlySet<string>;

  constructor(allow: readonly string[], secondaries: readonly Peer[] = []) {
    this.allow = allow.map((c) => parsePattern(c)).filter((p): p is Pattern => p !== null);
    this.always = new Set(secondaries.map((s) => canonical(s.address)));
  }

  allows(address: string): boolean {
    return this.always.has(canonical(address)) || this.allow.some((p) => patternContains(p, address));
  }

  /** The peers the fence lets through, and those it refuses. */
  split(peers: readonly Peer[]): { allowed: Peer[]; refused: Peer[] } {
    const allowed: Peer[] = [];
    const refused: Peer[] = [];
    for (const p of peers) (this.allows(p.address) ? allowed : refused).push(p);
    return { allowed, refused };
  }
}

/** One spelling per address, so `::1` and `0:0::1` are the same secondary. */
const canonical = (address: string) => parseIP(address)?.toString() ?? address;

/** How a refused peer reads in a publish warning and a log line. */
export const peerText = (p: Peer) => (p.address.includes(':') ? `[${p.address}]:${p.port}` : `${p.address}:${p.port}`);
