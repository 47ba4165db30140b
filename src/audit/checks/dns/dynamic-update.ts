import { randomBytes } from 'node:crypto';
import { WIRE } from '../../../dns/rr/wire-names.ts';
import { dnsAsk } from '../../proto/dns.ts';
import { dnsUpdateTxt } from '../../proto/dns-update.ts';
import { defineCheck } from '../kit.ts';
import { zonesOf } from './lib/zones.ts';

const txtOf = (data: unknown) =>
  ([] as unknown[])
    .concat(data)
    .map((p) => (Buffer.isBuffer(p) ? p.toString('latin1') : String(p)))
    .join('');

/**
 * Dynamic update from anyone (RFC 2136): for each zone the server serves
 * (found as for AXFR), an UPDATE adding one TXT record under a unique name.
 * An rcode alone proves nothing (a forwarder may relay, a server may answer
 * NOERROR to what it drops): the record must then be served back by the
 * server. It is deleted again at once; its text says what it is.
 */
export default defineCheck({
  id: 'vigil.dns.dynamic-update',
  shortid: 'DNS-UPDATE-ANY',
  title: 'DNS server accepts dynamic updates from anyone',
  family: 'DNS',
  categories: ['intrusive', 'vuln', 'auth'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The name server applies DNS UPDATE messages (RFC 2136) without a key or an address restriction: anyone can add, change or delete records of its zones, redirecting mail and web traffic or taking over names.',
  solution:
    'Allow updates only with TSIG keys (BIND: allow-update { key <name>; }; or update-policy; Knot: acl with a key; PowerDNS: ALLOW-DNSUPDATE-FROM and TSIG-ALLOW-DNSUPDATE), never { any; }.',
  references: ['https://www.rfc-editor.org/rfc/rfc2136', 'https://www.rfc-editor.org/rfc/rfc3007'],
  ports: { services: ['domain'], ports: [53] },
  run: async ({ net, port, host }) => {
    for (const zone of await zonesOf(net, port, host)) {
      const name = `vigil-update-${randomBytes(6).toString('hex')}.${zone}`;
      const text = `vigil audit probe ${randomBytes(6).toString('hex')}, safe to delete`;
      const rcode = await dnsUpdateTxt(net, port, zone, { name, text });
      if (rcode !== 'NOERROR') continue;
      const back = await dnsAsk(net, port, name, WIRE.TXT);
      const served = back?.answers.some((a) => a.type === WIRE.TXT && txtOf(a.data) === text);
      const removed = await dnsUpdateTxt(net, port, zone, { name, text: null });
      if (!served) continue;
      return `UPDATE of zone ${zone} adding ${name} TXT "${text}" (no TSIG key) answered NOERROR, and the server then served that record back to a query. It was deleted again (UPDATE answered ${removed ?? 'nothing'}).`;
    }
    return null;
  },
});
