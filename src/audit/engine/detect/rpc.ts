/**
 * The RPC portmapper on port 111 (rpcbind, portmap): named by the reply to
 * the NULL procedure of program 100000 version 2 (RFC 1833 §3), so that it
 * is named without nmap's probe database too. Any RPC reply counts, a
 * refusal (MSG_DENIED) included: it is still a portmapper.
 */
import { PORTMAP, rpcTcp } from '../../proto/rpc.ts';
import type { Family } from './family.ts';

export const rpc: Family = {
  id: 'rpc',
  ports: [111],
  only: true,
  async probe(conv, s, net) {
    conv.close();
    const r = await rpcTcp(net, s.port, PORTMAP, 2, 0);
    if (!r) return false;
    Object.assign(s, { name: 'rpcbind', product: null });
    s.extra.rpc = `NULL call answered (${r.status})`;
    return true;
  },
};
