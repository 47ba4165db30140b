import { WIRE } from '../../../../dns/rr/wire-names.ts';
import type { HostFacts, Net } from '../../../engine/types.ts';
import { AA, tcpQuery } from '../../../proto/dns.ts';

/**
 * DNS zone transfer to anyone (CVE-1999-0532): an AXFR (RFC 5936) of a zone
 * the server is authoritative for, answered with the zone's records. The
 * zone names are not given to a scanner, so they are found first, from the
 * server itself and from what the audit already saw:
 *   - the PTR of the audited address, and the SOA of its reverse zone
 *     (MNAME, RNAME: "ns1.example.com", "hostmaster.example.com");
 *   - hostname.bind / id.server (CHAOS TXT, RFC 4892);
 *   - host names in banners, TLS certificates and HTTP headers of the host.
 * Every candidate name and its parents are asked for their SOA; a name the
 * server answers with an authoritative SOA of its own is a zone apex.
 */
const reverseName = (address: string) =>
  address.includes(':') ? null : `${address.split('.').reverse().join('.')}.in-addr.arpa`;
const hostName = /\b((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})\b/gi;

/** Host names the audit saw on this host: banners, certificate names, HTTP headers. */
export function namesSeen(host: HostFacts): string[] {
  const out: string[] = [];
  for (const s of host.services) {
    for (const text of [
      s.banner ?? '',
      s.tls?.certificate?.subject ?? '',
      ...(s.tls?.certificate?.altNames ?? []),
      s.http?.headers['location'] ?? '',
      s.http?.headers['host'] ?? '',
    ]) {
      for (const m of text.matchAll(hostName)) out.push(m[1]!.toLowerCase());
    }
  }
  return out;
}

/** Zone apexes the server itself serves, found from candidate names and their parents. */
export async function zonesOf(net: Net, port: number, host: HostFacts): Promise<string[]> {
  const candidates: string[] = [...namesSeen(host)];
  const rev = reverseName(host.address);
  if (rev) {
    for (const m of (await tcpQuery(net, port, rev, WIRE.PTR)) ?? [])
      for (const a of m.answers ?? []) if (a.type === WIRE.PTR) candidates.push(String(a.data));
    candidates.push(rev);
  }
  for (const q of ['hostname.bind', 'id.server']) {
    for (const m of (await tcpQuery(net, port, q, WIRE.TXT, 'CH')) ?? [])
      for (const a of m.answers ?? [])
        if (a.type === WIRE.TXT) candidates.push(([] as unknown[]).concat(a.data).map(String).join(''));
  }
  // Last, names test and lab servers are often authoritative for (RFC 2606/6761/8375 and the usual private suffixes).
  candidates.push(
    'example.com',
    'example.net',
    'example.org',
    'example.test',
    'test',
    'local',
    'lan',
    'internal',
    'corp',
    'home.arpa',
    'localdomain',
    // Bare names a lab zone file is often given (RFC 2606's .example TLD itself, private suffixes).
    'example',
    'lab',
    'home',
    'intranet',
    'private',
  );
  const zones = new Set<string>();
  const asked = new Set<string>();
  const ask = async (name: string) => {
    if (asked.has(name) || asked.size >= 40) return;
    asked.add(name);
    for (const m of (await tcpQuery(net, port, name, WIRE.SOA)) ?? []) {
      if (!((m.flags ?? 0) & AA)) continue;
      for (const rr of [...(m.answers ?? []), ...(m.authorities ?? [])]) {
        if (rr.type !== WIRE.SOA) continue;
        zones.add(rr.name.toLowerCase());
        const soa = rr.data as { mname: string; rname: string };
        for (const n of [soa.mname, soa.rname]) if (n) candidates.push(n.toLowerCase());
      }
    }
  };
  for (let i = 0; i < candidates.length && i < 60; i++) {
    const labels = candidates[i]!.replace(/\.$/, '').toLowerCase().split('.');
    // The name and each parent with at least two labels (a bare TLD only when it was a candidate itself).
    for (let k = 0; k + (labels.length === 1 ? 1 : 2) <= labels.length; k++) await ask(labels.slice(k).join('.'));
  }
  return [...zones].slice(0, 8);
}
