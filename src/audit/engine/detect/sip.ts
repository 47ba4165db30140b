/**
 * SIP (RFC 3261) over TCP on its ports (5060; 5080, the second port of
 * FreeSWITCH and many PBXs): silent until a request comes, and a silent
 * port spends its detection budget on the other families before nmap's
 * SIPOptions probe is reached. One OPTIONS, answered by any SIP status
 * line, names it; the Server or User-Agent header names the product.
 */
import { parseSip, sipRequest, sipUri } from '../../proto/sip.ts';
import { productVersion } from '../../proto/conv.ts';
import type { Family } from './family.ts';

const PORTS = [5060, 5080];

export const sip: Family = {
  id: 'sip',
  ports: PORTS,
  only: true,
  async probe(conv, s, net) {
    const uri = sipUri(net.address, s.port);
    const { text } = sipRequest({ method: 'OPTIONS', uri, transport: 'TCP', from: 'sip:vigil@vigil.invalid' });
    const r = parseSip(await conv.ask(text, 2000, (b) => b.includes('\r\n\r\n')));
    if (!r) return false;
    s.name = 'sip';
    const product = r.headers['server'] ?? r.headers['user-agent'];
    if (product) {
      // "kamailio (5.6.3 (x86_64/linux))", "Asterisk PBX 18.10.0", "FreeSWITCH-mod_sofia/1.10.9"
      const m = /^(\S+)\s+\((\d[\w.-]*)/.exec(product) ?? /^(.*?)[\s/-]+(\d+(?:\.\d+)+\S*)/.exec(product);
      [s.product, s.version] = m ? [m[1]!, m[2]!] : productVersion(product);
    }
    return true;
  },
};
