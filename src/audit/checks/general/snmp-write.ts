import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import type { Net } from '../../engine/types.ts';
import { snmpMessage, snmpValue } from '../../proto/snmp.ts';
import { shown, udpAsk } from '../../proto/talk.ts';

/** An SNMP set of sysContact (or sysName, sysLocation) to the value it already has: intrusive, advanced audits only. */
/** Writable MIB-2 system objects: sysContact.0, sysName.0, sysLocation.0. */
const SYSTEM_OIDS = {
  sysContact: [1, 3, 6, 1, 2, 1, 1, 4, 0],
  sysName: [1, 3, 6, 1, 2, 1, 1, 5, 0],
  sysLocation: [1, 3, 6, 1, 2, 1, 1, 6, 0],
};
const COMMUNITIES = ['public', 'private'];

async function snmpWrite(net: Net, port: number): Promise<string | null> {
  let id = randomBytes(2).readUInt16BE(0);
  for (const community of COMMUNITIES) {
    for (const [name, oid] of Object.entries(SYSTEM_OIDS)) {
      const got = await udpAsk(net, port, snmpMessage(community, 0xa0, ++id, oid, null), { timeoutMs: 2000 });
      const value = got ? snmpValue(got, id) : null;
      if (!value || value.errorStatus !== 0 || value.tag !== 0x04) break; // community not accepted: next one
      // The same value back: nothing changes on the agent, but only a community with write access gets errorStatus 0.
      const set = await udpAsk(net, port, snmpMessage(community, 0xa3, ++id, oid, value.raw), { timeoutMs: 2000 });
      const r = set ? snmpValue(set, id) : null;
      if (r && r.errorStatus === 0)
        return `community "${community}" set ${name}.0 (to its current value "${shown(value.raw.toString('latin1'), 60)}")`;
    }
  }
  return null;
}

export default defineCheck({
  id: 'vigil.snmp.write',
  shortid: 'SNMP-WRITE',
  title: 'SNMP community allows writes',
  family: 'General',
  categories: ['intrusive', 'auth', 'vuln'],
  risk: 'high',
  cves: ['CVE-2002-0013'],
  type: 'HOLE',
  qod: 99,
  description:
    'A default SNMP community ("public" or "private") has write access: anyone can change the agent\'s configuration, and on many devices routing, interfaces or the running configuration.',
  solution:
    'Remove the rwcommunity lines from snmpd.conf (or restrict them to a management host) and use SNMPv3 with authentication for writes.',
  ports: { udp: [161] },
  run: ({ net, port }) => snmpWrite(net, port),
});
