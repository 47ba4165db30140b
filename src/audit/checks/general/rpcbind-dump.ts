import { defineCheck } from '../kit.ts';
import { pmapDump, PROGRAMS, type Mapping } from '../../proto/rpc.ts';

/** "rusersd v2,3 udp/32771, …": one entry per program, transport and port, the portmapper itself last. */
const listed = (list: Mapping[]) => {
  const byService = new Map<string, number[]>();
  const ordered = [...list].sort((a, b) => Number(a.prog === 100000) - Number(b.prog === 100000) || a.prog - b.prog);
  for (const m of ordered) {
    const key = `${PROGRAMS[m.prog] ?? m.prog} v%s ${m.proto}/${m.port}`;
    byService.set(key, [...(byService.get(key) ?? []), m.vers]);
  }
  const seen = [...byService].map(([k, v]) => k.replace('%s', v.sort().join(',')));
  return `${seen.slice(0, 12).join(', ')}${seen.length > 12 ? `, … (${seen.length} in all)` : ''}`;
};

/**
 * The portmapper (rpcbind, portmap: RFC 1833) answering PMAPPROC_DUMP from
 * anyone: the list of every RPC service of the host and its port (NFS,
 * mountd, NIS, rusersd …), the map an attacker wants first. Over UDP the
 * same list is an amplifier (US-CERT TA14-017A: portmapper 7 to 28 times).
 * A refusal (MSG_DENIED: TCP wrappers, rpcbind's access rules) or silence
 * is not reported.
 */
export default defineCheck({
  id: 'vigil.rpcbind.dump',
  shortid: 'RPCBIND-DUMP',
  title: 'RPC portmapper lists its services to anyone (rpcbind DUMP)',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The RPC portmapper (rpcbind or portmap) answers the list query from anyone: every RPC service of the host and the port it listens on (NFS, mountd, NIS, rusersd, status …), which points attackers at them; over UDP the answer is also many times the query, a known amplifier.',
  solution:
    'Firewall port 111 (TCP and UDP) from untrusted networks and turn rpcbind off where no NFS or other RPC service needs it; otherwise restrict it with TCP wrappers (rpcbind: in /etc/hosts.deny, trusted networks in hosts.allow).',
  references: [
    'https://www.rfc-editor.org/rfc/rfc1833#section-3',
    'https://www.cisa.gov/news-events/alerts/2014/01/17/udp-based-amplification-attacks',
  ],
  ports: { services: ['rpcbind', 'sunrpc'], ports: [111], udp: [111] },
  run: async ({ net, port, protocol }) => {
    const r = await pmapDump(net, port, protocol);
    if (!r?.list?.length) return null;
    const size =
      protocol === 'udp' ? ` (${r.size} bytes for a ${r.sent}-byte call, factor ${(r.size / r.sent).toFixed(1)})` : '';
    return `PMAPPROC_DUMP (program 100000 v2, procedure 4) over ${protocol.toUpperCase()} answered ${r.list.length} registrations${size}: ${listed(r.list)}.`;
  },
});
