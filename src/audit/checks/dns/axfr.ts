import { WIRE } from '../../../dns/rr/wire-names.ts';
import { zonesOf } from './lib/zones.ts';
import { defineCheck } from '../kit.ts';
import { tcpQuery } from '../../proto/dns.ts';
import { shown } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.dns.axfr',
  shortid: 'DNS-AXFR',
  title: 'DNS zone transfer (AXFR) allowed to anyone',
  family: 'DNS',
  categories: ['safe', 'discovery', 'vuln', 'default'],
  risk: 'medium',
  cves: ['CVE-1999-0532'],
  type: 'HOLE',
  qod: 99,
  description:
    'The name server sends a whole zone to anyone who asks for a transfer (AXFR): every host name and address in it is handed to attackers at once, including internal names.',
  solution: 'Allow transfers only to the secondaries (BIND: allow-transfer { <secondaries>; }; or TSIG keys).',
  ports: { services: ['domain'], ports: [53] },
  run: async ({ net, port, host }) => {
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
});
