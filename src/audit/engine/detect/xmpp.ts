/**
 * XMPP (RFC 6120) on its ports (5222 clients, 5269 servers): the server
 * waits for the client's stream header, and nmap's database names it only
 * from a stream error to another probe. One stream header, answered by the
 * server's own <stream:stream> (namespace jabber:client or jabber:server),
 * names it; when the server does not host the address it answers
 * <host-unknown/>, and the domain it does host is found (proto/xmpp.ts)
 * and kept for the checks and the STARTTLS upgrade (extra.xmppDomain).
 */
import { parseStart, streamHeader, xmppDomain } from '../../proto/xmpp.ts';
import type { Family } from './family.ts';

const PORTS = [5222, 5269];

export const xmpp: Family = {
  id: 'xmpp',
  ports: PORTS,
  only: true,
  async probe(conv, s, net) {
    const r = await conv.ask(streamHeader(net.address), 2000, (b) =>
      /<\/stream:features>|<\/stream:stream>|<\/stream:error>/.test(b.toString('utf8')),
    );
    const start = parseStart(r.toString('utf8'));
    if (!start.header || !/http:\/\/etherx\.jabber\.org\/streams/.test(start.header)) return false;
    Object.assign(s, { name: /jabber:server/.test(start.header) ? 'xmpp-server' : 'xmpp-client', product: null });
    const domain = start.error === 'host-unknown' ? await xmppDomain(net, s.port) : start.error ? null : net.address;
    if (domain) s.extra.xmppDomain = domain;
    return true;
  },
};
