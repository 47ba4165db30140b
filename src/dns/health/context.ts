import { isIP } from 'node:net';
import type { Answer } from 'dns-packet';
import type { ZoneIndex } from '../server/zone-index.ts';
import type { HostProbes, SmtpSeen, HttpsSeen } from './hosts.ts';
import type { World } from './world.ts';
import { rdata } from './wire.ts';

/** How a name another record points at resolves. */
export interface Target {
  /** `ok`: it has addresses; `nxdomain`: it does not exist; `noaddress`: it exists without A/AAAA;
   * `unserved`: its servers fail or refuse (SERVFAIL/REFUSED: nobody serves it); `unknown`: no answer in time. */
  state: 'ok' | 'nxdomain' | 'noaddress' | 'unserved' | 'unknown';
  addresses: string[];
  /** The name itself is a CNAME (RFC 2181 §10.3: an MX or NS target must not be). */
  cname: boolean;
}

/**
 * What every check reads: the zone as a publish now would serve it (the
 * name server's own index of it), the world through `--resolver` (null:
 * the zone alone, as a publish without a named resolver checks it), and
 * the hosts the account may audit. Look-ups are shared: each target, each
 * host is asked once however many checks need it.
 */
export class HealthContext {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    readonly zone: string,
    readonly index: ZoneIndex,
    /** Vigil signs this zone (dnsSetDNSSEC.php). */
    readonly signing: boolean,
    readonly now: number,
    readonly world: World | null,
    readonly hosts: HostProbes | null,
  ) {}

  rrs(name: string, type: string): Answer[] {
    return this.index.nodes.get(name.toLowerCase())?.get(type) ?? [];
  }

  apex(type: string): Answer[] {
    return this.rrs(this.zone, type);
  }

  /** TXT strings at a name, each record's strings joined (RFC 7208 §3.3). */
  txt(name: string): string[] {
    return this.rrs(name, 'TXT').map((a) => {
      const d = rdata<Buffer | string | (Buffer | string)[]>(a);
      return (Array.isArray(d) ? d : [d]).map((s) => s.toString()).join('');
    });
  }

  /** The zone's mail exchangers: (preference, target) without the final dot; a null MX (RFC 7505) is left out. */
  mx(): { preference: number; exchange: string }[] {
    return this.apex('MX')
      .map((a) => rdata<{ preference: number; exchange: string }>(a))
      .map((d) => ({ preference: d.preference, exchange: d.exchange.replace(/\.$/, '').toLowerCase() }))
      .filter((d) => d.exchange !== '');
  }

  inZone(name: string): boolean {
    const n = name.toLowerCase();
    return n === this.zone || n.endsWith(`.${this.zone}`);
  }

  /** At or below a delegation inside the zone: the child zone, not this one, answers for it. */
  belowCut(name: string): boolean {
    const n = name.toLowerCase();
    for (const cut of this.index.cuts) if (n === cut || n.endsWith(`.${cut}`)) return true;
    return false;
  }

  /** How a target name resolves: from the zone itself when it is in it, else through the world. */
  target(name: string): Promise<Target> {
    const n = name.replace(/\.$/, '').toLowerCase();
    return this.once(`target|${n}`, () => this.resolveTarget(n, 0));
  }

  /** Looks one host up once and probes it once (hosts.ts). */
  smtp(address: string, host: string): Promise<SmtpSeen> {
    return this.once(`smtp|${address}|${host}`, () => this.hosts!.smtp(address, host));
  }

  https(address: string, host: string): Promise<HttpsSeen> {
    return this.once(`https|${address}|${host}`, () => this.hosts!.https(address, host));
  }

  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) this.memo.set(key, (p = make()));
    return p;
  }

  private async resolveTarget(n: string, depth: number): Promise<Target> {
    // A name that is an address written as a name (`192.0.2.1.`) is looked up as a name and fails.
    if (isIP(n)) return { state: 'nxdomain', addresses: [], cname: false };
    if (this.inZone(n) && !this.belowCut(n)) {
      const node = this.index.nodes.get(n) ?? this.wildcardFor(n);
      if (!node && !this.index.names.has(n)) return { state: 'nxdomain', addresses: [], cname: false };
      const cname = node?.get('CNAME')?.[0];
      if (cname) {
        if (depth > 8) return { state: 'unknown', addresses: [], cname: true };
        const next = await this.resolveTarget(String(rdata(cname)).replace(/\.$/, '').toLowerCase(), depth + 1);
        return { ...next, cname: true };
      }
      const addresses = [...(node?.get('A') ?? []), ...(node?.get('AAAA') ?? [])].map((a) => String(rdata(a)));
      return { state: addresses.length ? 'ok' : 'noaddress', addresses, cname: false };
    }
    if (!this.world) return { state: 'unknown', addresses: [], cname: false };
    const seen = await this.world.addresses(n);
    const cname = seen.viaCname;
    if (seen.addresses.length) return { state: 'ok', addresses: seen.addresses, cname };
    if (seen.rcode === 'NXDOMAIN') return { state: 'nxdomain', addresses: [], cname };
    if (seen.rcode === 'SERVFAIL' || seen.rcode === 'REFUSED') return { state: 'unserved', addresses: [], cname };
    if (seen.rcode === null) return { state: 'unknown', addresses: [], cname };
    return { state: 'noaddress', addresses: [], cname };
  }

  /** The wildcard node that answers for a name that does not exist (RFC 4592 §3.3.1: at its closest encloser). */
  private wildcardFor(n: string) {
    if (this.index.names.has(n)) return undefined;
    let parent = n;
    while (parent.includes('.') && parent !== this.zone) {
      parent = parent.slice(parent.indexOf('.') + 1);
      if (this.index.names.has(parent)) return this.index.nodes.get(`*.${parent}`);
    }
    return undefined;
  }
}

export const bare = (name: string) => name.replace(/\.$/, '').toLowerCase();
