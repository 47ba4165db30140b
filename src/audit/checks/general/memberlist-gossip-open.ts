import { defineCheck } from '../kit.ts';
import { MEMBERLIST_PORTS, memberlistPushPull } from '../../proto/memberlist.ts';
import { shown } from '../../proto/talk.ts';
import { listed } from './lib/monitoring-config.ts';

/**
 * A cluster's gossip port (HashiCorp memberlist: Alertmanager's cluster,
 * Serf, Consul, Nomad) that answers a stranger's state exchange: a
 * push-pull of nothing (no node, no state: memberlist merges nothing from
 * it) was answered with the peer's member list and its shared state. A
 * peer with a gossip key drops unencrypted messages, and one behind TLS
 * never parses ours, so an answer proves the port takes anyone in: the
 * same exchange with nodes in it joins the cluster, and Alertmanager's
 * peers then merge the silences gossiped to them (no API credential
 * asked). A HOLE, medium, as the open Alertmanager API: the proof is a
 * read.
 */
export default defineCheck({
  id: 'vigil.memberlist.open',
  shortid: 'GOSSIP-OPEN',
  title: 'Cluster gossip port (memberlist: Alertmanager, Serf, Consul) open without encryption',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 95,
  description:
    "The cluster's gossip port (HashiCorp memberlist) answered a stranger's state exchange in the clear: anyone who reaches it learns every member's name and address and the state the cluster shares, and can join the cluster and gossip state of its own (an Alertmanager cluster then takes silences from it, whatever the API's authentication).",
  solution:
    "Let only the cluster's members reach the gossip port (Alertmanager: --cluster.listen-address on a private address, or empty for a single instance, and --cluster.tls-config; Consul and Serf: a gossip encryption key, encrypt / -encrypt, with verify_incoming and verify_outgoing).",
  references: [
    'https://github.com/prometheus/alertmanager#high-availability',
    'https://developer.hashicorp.com/consul/docs/security/encryption/gossip',
  ],
  ports: { services: ['memberlist'], ports: MEMBERLIST_PORTS },
  run: async ({ net, port }) => {
    const r = await memberlistPushPull(net, port);
    if (!r) return null;
    const who = r.members.map((m) => `${m.name} at ${m.address}:${m.port}`);
    const state =
      r.stateKeys.includes('sil') && r.stateKeys.includes('nfl')
        ? ` (Alertmanager's: parts ${[...r.stateKeys].sort().join(', ')}, its silences and notification log)`
        : '';
    return `A push-pull with no node and no state (memberlist message 6) was answered in the clear${r.compressed ? ' (LZW-compressed)' : ''} with the peer's own: ${r.nodes} member(s): ${shown(listed(who, 4), 200)}; ${r.userState} bytes of shared state${state}. No gossip key or TLS stopped it.`;
  },
});
