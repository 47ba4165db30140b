import { WIRE } from '../../../dns/rr/wire-names.ts';
import { AMPLIFICATION_MIN } from './lib/amplify.ts';
import { defineCheck } from '../kit.ts';
import type { HostFacts, Net, Service } from '../../engine/types.ts';
import { dnsAsk } from '../../proto/dns.ts';

/**
 * DNS amplification: an authoritative server that answers ANY for its
 * zones with every RRset returns kilobytes for a 40-byte query (US-CERT
 * TA14-017A: factor 28–54). RFC 8482 lets servers answer ANY minimally
 * (BIND `minimal-any yes;`, one RRset). The zones are found the way an
 * attacker would: names the host itself shows (its PTR as this server
 * answers it, hostname.bind, banners, certificate names), each ancestor
 * confirmed by an authoritative SOA answer. An open resolver is reported
 * by the open-recursion check; offline (loopback audits) it cannot be
 * made to fetch a large answer, so it is not measured here.
 */
const HOSTNAME = /\b((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{1,62})\b/gi;

function namesIn(s: Service): string[] {
  const texts = [
    s.banner ?? '',
    s.http?.headers['location'] ?? '',
    s.tls?.certificate?.subject ?? '',
    ...(s.tls?.certificate?.altNames ?? []),
  ];
  return texts.flatMap((t) => [...t.matchAll(HOSTNAME)].map((m) => m[1]!.toLowerCase()));
}

/** Candidate zone names: every ancestor (two labels or more) of the names the host shows. */
async function candidates(host: HostFacts, net: Net, port: number): Promise<string[]> {
  const names = host.services.flatMap(namesIn);
  const v4 = /^\d+\.\d+\.\d+\.\d+$/.test(host.address);
  if (v4) {
    const reverse = `${host.address.split('.').reverse().join('.')}.in-addr.arpa`;
    names.push(reverse);
    const ptr = await dnsAsk(net, port, reverse, WIRE.PTR);
    for (const a of ptr?.answers ?? []) if (a.type === WIRE.PTR) names.push(String(a.data));
  }
  const hostname = await dnsAsk(net, port, 'hostname.bind', WIRE.TXT, 'CH');
  for (const a of hostname?.answers ?? []) if (a.type === WIRE.TXT) names.push([a.data].flat().map(String).join(''));
  const out = new Set<string>();
  for (const n of names) {
    const labels = n.replace(/\.$/, '').split('.');
    for (let i = 0; i + 2 <= labels.length; i++) out.add(labels.slice(i).join('.'));
  }
  return [...out].filter((n) => !/^(com|net|org|in-addr\.arpa|arpa)$/.test(n)).slice(0, 16);
}

export default defineCheck({
  id: 'vigil.dos.dns-any-amplification',
  shortid: 'DOS-DNS-ANY',
  title: 'DNS server answers ANY in full (amplification)',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'The name server answers an ANY query for one of its zones with every record set, many times the size of the query: with a spoofed source address it becomes a traffic amplifier.',
  solution:
    'Answer ANY minimally as RFC 8482 allows (BIND: minimal-any yes; Knot and NSD do so by default) and enable response rate limiting (BIND: rate-limit { responses-per-second 10; }).',
  ports: { services: ['domain'], udp: [53], via: 'udp' },
  async run({ host, net, port }) {
    const probe = await dnsAsk(net, port, '.', WIRE.NS);
    if (!probe) return null; // nothing answers DNS here
    // The SOA questions in parallel: a server that drops questions for zones it lacks costs one timeout, not sixteen.
    const names = await candidates(host, net, port);
    const soas = await Promise.all(names.map((zone) => dnsAsk(net, port, zone, WIRE.SOA)));
    const zones = names.filter(
      (zone, i) => soas[i]?.aa && soas[i]!.answers.some((a) => a.type === WIRE.SOA && a.name.toLowerCase() === zone),
    );
    for (const zone of zones) {
      const any = await dnsAsk(net, port, zone, 'ANY', 'IN', true);
      if (!any || any.rcode !== 'NOERROR') continue;
      const factor = any.size / any.querySize;
      if (factor < AMPLIFICATION_MIN) continue;
      const sets = new Set(any.answers.map((a) => a.type)).size;
      return `UDP ${port}: ANY ${zone} (a ${any.querySize}-byte query) was answered with ${any.size} bytes, ${any.answers.length} records in ${sets} record sets (factor ${factor.toFixed(1)}).`;
    }
    return null;
  },
});
