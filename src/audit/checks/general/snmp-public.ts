import { snmpGet } from '../../proto/snmp.ts';
import { shown, udpAsk } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

export default defineCheck({
  id: 'vigil.snmp.public',
  shortid: 'SNMP-PUBLIC',
  title: 'SNMP answers to the community "public"',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  cves: ['CVE-1999-0517'],
  type: 'HOLE',
  description:
    'The SNMP agent answers the default community string "public": anyone can read the device\'s configuration, interfaces and often routing tables and users.',
  solution:
    'Remove the "public" community from snmpd.conf (or restrict it to a management host) and use SNMPv3 with authentication.',
  ports: { udp: [161] },
  async run({ net, port }) {
    const raw = await udpAsk(net, port, snmpGet('public', 0x2a5c), { timeoutMs: 2500 });
    // A reply carrying our community and a GetResponse PDU (0xa2).
    if (!raw || raw[0] !== 0x30 || !raw.includes(Buffer.from('public')) || !raw.includes(0xa2)) return null;
    const text = raw.toString('latin1').replace(/[^\x20-\x7e]+/g, ' ');
    const descr = text.slice(text.lastIndexOf('public') + 6).trim();
    return `sysDescr read with community "public"${descr ? `: ${shown(descr, 120)}` : ''}`;
  },
});
