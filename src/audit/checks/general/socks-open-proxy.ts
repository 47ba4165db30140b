import { defineCheck } from '../kit.ts';
import { relaySocks, withCanary } from '../../proto/proxy.ts';

/**
 * An open SOCKS proxy (any make: Dante, 3proxy, ssh -D, Tor's SocksPort
 * left public …), proven as the HTTP one is: the proxy must relay a
 * request to a listener of the scanner's own and bring back a secret only
 * that listener gives (proto/proxy.ts). "SOCKS5 accepts the no-auth
 * method" alone is not reported: rules on the destination may still refuse.
 */
export default defineCheck({
  id: 'vigil.socks.open-proxy',
  shortid: 'SOCKS-OPEN-PROXY',
  title: 'SOCKS proxy relays connections for anyone',
  family: 'General',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The SOCKS proxy opens connections to other hosts for clients that give no credentials: anyone can reach internal services through it or hide the origin of attacks and abuse.',
  solution:
    'Require authentication (SOCKS5 username/password or GSS-API; Dante: socksmethod: username), allow only the clients that need it (client pass rules), and refuse SOCKS4, which has no authentication.',
  references: ['https://www.rfc-editor.org/rfc/rfc1928'],
  ports: { services: ['socks', 'socks4', 'socks5'], ports: [1080] },
  run: async ({ net, port }) => {
    const relay = await withCanary(net, port, (c) => relaySocks(net, port, c));
    if (!relay) return null;
    return `Sent to port ${port}: ${relay.sent} (a listener of the scanner's own, without credentials). The listener was asked for that path by ${relay.from}, and its unique answer came back through the proxy.`;
  },
});
