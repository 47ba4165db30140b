/**
 * SIP: Debian Kamailio on UDP and TCP 5060. A(1): the relay policy of
 * Debian's kamailio.cfg without WITH_AUTH (a request for another domain is
 * relayed when From names a local one, and nobody is asked who they are;
 * REGISTER saved without a challenge), the Server header on; the twin
 * A(100): 403 to any other domain, every REGISTER challenged,
 * server_signature=no (test/helpers/voip-configs.ts, shared with the tests).
 */
import { kamailioArgs } from '../../../test/helpers/voip-configs.ts';
import { addr, none, script, svc, any, type Daemon } from './kit.ts';

const K = 65;
const A = (n: number) => addr(K, n);
const PORT = 5060;

export const KAMAILIO: Daemon = {
  kind: 'sip',
  binaries: ['kamailio'],
  ports: { tcp: [PORT], udp: [PORT] },
  weaknesses: [
    {
      id: 'sip-open-proxy',
      family: 'auth',
      label: 'SIP proxy relays to any domain without authentication (kamailio)',
      daemon: 'kamailio',
      address: A(1),
      port: PORT,
      proto: 'udp',
      vigil: { id: /^vigil\.sip\.open-proxy$/ },
      // No NSE script asks a SIP proxy to relay.
      nmap: none,
    },
    {
      id: 'sip-open-registrar',
      family: 'auth',
      label: 'SIP registrar accepts REGISTER without a challenge (kamailio without WITH_AUTH)',
      daemon: 'kamailio',
      address: A(1),
      port: PORT,
      proto: 'udp',
      vigil: { id: /^vigil\.sip\.open-registrar$/ },
      // sip-enum-users and sip-brute guess extensions and passwords; no NSE script registers.
      nmap: none,
    },
    {
      id: 'sip-server-version',
      family: 'ident',
      label: 'SIP OPTIONS discloses the product and version (kamailio)',
      daemon: 'kamailio',
      address: A(1),
      port: PORT,
      proto: 'udp',
      vigil: { id: /^vigil\.sip\.server-version$/ },
      nmap: any(script('sip-methods', /\S/), svc(/kamailio/i)),
    },
    {
      id: 'sip-service',
      family: 'ident',
      label: 'SIP on TCP 5060 named (kamailio)',
      daemon: 'kamailio',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { service: /^sip$/ },
      nmap: svc(/sip/i),
    },
  ],
  twins: [{ address: A(100), note: 'kamailio: 403 to other domains, REGISTER challenged, server_signature=no' }],
  async start(ctx) {
    for (const [n, open] of [
      [1, true],
      [100, false],
    ] as const) {
      const dir = ctx.dir(A(n));
      const child = ctx.spawn(`kamailio-${A(n)}`, 'kamailio', kamailioArgs(dir, A(n), PORT, open));
      await ctx.waitTcp(A(n), PORT, child);
    }
  },
};
