import dnsPacket from 'dns-packet';
import { WIRE } from '../../../dns/rr/wire-names.ts';
import { dnsQuery } from '../../proto/dns.ts';
import { defineCheck } from '../kit.ts';

/** A recursive question for a name the target is surely not authoritative for. */
export default defineCheck({
  id: 'vigil.dns.recursion',
  shortid: 'DNS-RECURSION',
  title: 'DNS server resolves for anyone (open recursion)',
  family: 'DNS',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  cves: ['CVE-2006-0987'],
  type: 'HOLE',
  description:
    'The name server performs recursive lookups for any client: it can be used to amplify denial-of-service attacks and its cache can be poisoned.',
  solution:
    'Allow recursion only for your own networks (BIND: allow-recursion { <your networks>; }; Unbound: access-control), or turn it off on an authoritative server (recursion no).',
  ports: { services: ['domain'], udp: [53], via: 'udp' },
  async run({ net, port }) {
    const ask = async () =>
      (await dnsQuery(net, port, { type: WIRE.A, name: 'www.example.com' }, { flags: dnsPacket.RECURSION_DESIRED }))
        ?.msg;
    const r = await ask();
    if (!r) return null;
    const ra = ((r.flags ?? 0) & dnsPacket.RECURSION_AVAILABLE) !== 0;
    const rcode = (r as { rcode?: string }).rcode ?? '';
    const aa = ((r.flags ?? 0) & dnsPacket.AUTHORITATIVE_ANSWER) !== 0;
    if (ra && aa && rcode === 'NOERROR' && r.answers?.length) {
      // A forwarder (dnsmasq) passes its upstream's AA bit through on the first answer, then answers the
      // same question from its cache without AA (measured: dnsmasq 2.90 in front of an NSD authoritative for
      // example.com). An authoritative server keeps AA on every answer for its own zone, so an AA that
      // disappears on the repeat is the server's cache speaking: it resolved the name for us.
      const again = await ask();
      const cached =
        again &&
        ((again.flags ?? 0) & (dnsPacket.RECURSION_AVAILABLE | dnsPacket.AUTHORITATIVE_ANSWER)) ===
          dnsPacket.RECURSION_AVAILABLE &&
        (again as { rcode?: string }).rcode === 'NOERROR' &&
        (again.answers?.length ?? 0) > 0;
      return cached
        ? `a recursive query for www.example.com was answered with RA set, and asked again it came from the server's cache (AA cleared, ${again.answers!.length} answer(s)): the server resolves for this client`
        : null;
    }
    if (!ra || aa) return null;
    if (rcode === 'NOERROR' && (r.answers?.length ?? 0) > 0)
      return `a recursive query for www.example.com was answered with RA set (${r.answers!.length} answer(s))`;
    if (rcode === 'SERVFAIL' || rcode === 'NXDOMAIN')
      // A resolver that tried for us and could not reach the Internet (the outside bench's BIND with
      // allow-recursion { any; } offline): RA set and a resolution failure, where a server that refuses
      // recursion clears RA and answers REFUSED (BIND, NSD, Knot).
      return {
        detail: `a recursive query for www.example.com got ${rcode} with RA set: the server recurses for this client`,
        qod: 80,
      };
    return null;
  },
});
