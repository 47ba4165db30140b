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
import dnsPacket from 'dns-packet';
import type { Check, HostFacts, Net } from '../types.ts';
import { portCheck, portsOf, shown, talk } from './services-kit.ts';
import { WIRE } from '../../../dns/rr/wire-names.ts';

type Msg = ReturnType<typeof dnsPacket.decode>;
const AA = 1 << 10;

/** One query over TCP (2-byte length framing, RFC 1035 §4.2.2); the whole reply stream for AXFR. */
function tcpQuery(
  net: Net,
  port: number,
  name: string,
  type: string,
  klass = 'IN',
  axfr = false,
): Promise<Msg[] | null> {
  return talk(
    net,
    port,
    async (c) => {
      const id = Math.floor(Math.random() * 65535);
      const q = dnsPacket.streamEncode({
        type: 'query',
        id,
        flags: 0,
        questions: [{ name, type: type as typeof WIRE.SOA, class: klass as 'IN' }],
      });
      // AXFR: messages until a second SOA closes the zone, or the server closes, or 64 KB.
      const msgs = (b: Buffer) => {
        const out: Buffer[] = [];
        for (let at = 0; at + 2 <= b.length && at + 2 + b.readUInt16BE(at) <= b.length; at += 2 + b.readUInt16BE(at))
          out.push(b.subarray(at + 2, at + 2 + b.readUInt16BE(at)));
        return out;
      };
      const soaCount = (b: Buffer) =>
        msgs(b).reduce((n, m) => n + (m.toString('latin1').match(/\x00\x06\x00\x01/g)?.length ?? 0), 0);
      const r = await c.ask(q, 4000, (b) => msgs(b).length > 0 && (!axfr || soaCount(b) >= 2));
      return msgs(r).flatMap((m) => {
        try {
          const d = dnsPacket.decode(m);
          return d.id === id ? [d] : [];
        } catch {
          return [];
        }
      });
    },
    8000,
  );
}

const reverseName = (address: string) =>
  address.includes(':') ? null : `${address.split('.').reverse().join('.')}.in-addr.arpa`;
const hostName = /\b((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})\b/gi;

/** Host names the audit saw on this host: banners, certificate names, HTTP headers. */
function namesSeen(host: HostFacts): string[] {
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
async function zonesOf(net: Net, port: number, host: HostFacts): Promise<string[]> {
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

export const dnsZoneTransfer: Check = portCheck(
  {
    id: 'vigil.dns.axfr',
    shortid: 'DNS-AXFR',
    title: 'DNS zone transfer (AXFR) allowed to anyone',
    category: 'DNS',
    risk: 'medium',
    cves: ['CVE-1999-0532'],
    type: 'HOLE',
    qod: 99,
    description:
      'The name server sends a whole zone to anyone who asks for a transfer (AXFR): every host name and address in it is handed to attackers at once, including internal names.',
    solution: 'Allow transfers only to the secondaries (BIND: allow-transfer { <secondaries>; }; or TSIG keys).',
  },
  (h) => portsOf(h, ['domain'], [53]),
  async (net, port, host) => {
    const open: string[] = [];
    for (const zone of await zonesOf(net, port, host)) {
      const msgs = await tcpQuery(net, port, zone, 'AXFR', 'IN', true);
      const records = (msgs ?? [])
        .filter((m) => (m as { rcode?: string }).rcode === 'NOERROR')
        .flatMap((m) => m.answers ?? []);
      if (records[0]?.type === WIRE.SOA && records.length > 1)
        open.push(
          `${zone} (${records.length} records, e.g. ${shown(
            records
              .slice(1, 4)
              .map((r) => `${r.name} ${r.type}`)
              .join(', '),
            100,
          )})`,
        );
    }
    return open.length ? `AXFR answered for: ${open.join('; ')}` : null;
  },
);

export const DNS_CHECKS: readonly Check[] = [dnsZoneTransfer];
