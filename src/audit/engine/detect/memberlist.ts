/**
 * HashiCorp memberlist gossip (proto/memberlist.ts): Alertmanager's cluster
 * port 9094, Serf's 7946, Consul's Serf LAN and WAN 8301-8302, Nomad's
 * 4648. nmap's database has no line for it, and the port stays silent to
 * every other probe. Tried on those ports only, first there (a push-pull
 * of nothing, a read): elsewhere the connection is dropped at once.
 */
import { MEMBERLIST_PORTS, pushPullOn } from '../../proto/memberlist.ts';
import type { Family } from './family.ts';

export const memberlist: Family = {
  id: 'memberlist',
  ports: MEMBERLIST_PORTS,
  only: true,
  async probe(conv, s) {
    const r = await pushPullOn(conv);
    if (!r) return false;
    const alertmanager = r.stateKeys.includes('sil') && r.stateKeys.includes('nfl');
    Object.assign(s, {
      name: 'memberlist',
      product: alertmanager ? 'Prometheus Alertmanager cluster (memberlist)' : 'HashiCorp memberlist gossip',
    });
    s.extra.members = String(r.nodes);
    return true;
  },
};
