import { defineCheck } from '../kit.ts';
import { sipAsk, sipRequest, sipUri } from '../../proto/sip.ts';
import { shown } from '../../proto/talk.ts';

/**
 * What a SIP server (Kamailio, OpenSIPS, Asterisk, FreeSWITCH, a phone or
 * a gateway) says about itself to an OPTIONS request (RFC 3261 §11), the
 * request nmap's sip-methods and every SIP scanner (sipvicious svmap)
 * send: the Server or User-Agent header, with the methods it allows.
 * Information, as a web server's version is (vigil.http.server-version):
 * the finding is a LOG. Over UDP 5060 on every host, and over TCP where
 * detection named SIP.
 */
export default defineCheck({
  id: 'vigil.sip.server-version',
  shortid: 'SIP-VERSION',
  title: 'SIP server discloses its product and version',
  family: 'General',
  categories: ['safe', 'version', 'discovery', 'default'],
  risk: 'other',
  type: 'LOG',
  description:
    'The SIP service answers an OPTIONS request from anyone with its product (and usually its version) in the Server or User-Agent header: SIP scanners look for exactly this to pick exploits and to find PBXs for toll fraud.',
  solution:
    'Hide the product (Kamailio/OpenSIPS: server_signature=no, server_header and user_agent_header; Asterisk: useragent and sdpowner in pjsip.conf) and let only your trunks and phones reach the SIP port.',
  references: ['https://www.rfc-editor.org/rfc/rfc3261#section-11', 'https://nmap.org/nsedoc/scripts/sip-methods.html'],
  ports: { services: ['sip'], udp: [5060] },
  run: async ({ net, port, protocol }) => {
    const udp = protocol === 'udp';
    const { text } = sipRequest({
      method: 'OPTIONS',
      uri: sipUri(net.address, port),
      transport: udp ? 'UDP' : 'TCP',
      from: 'sip:vigil@vigil.invalid',
    });
    const r = await sipAsk(net, port, udp, text);
    const product = r && (r.headers['server'] ?? r.headers['user-agent']);
    if (!r || !product || !/[a-z]{2}/i.test(product)) return null;
    const which = r.headers['server'] ? 'Server' : 'User-Agent';
    const allow = r.headers['allow'] ? `; Allow: ${shown(r.headers['allow'], 120)}` : '';
    return `OPTIONS ${sipUri(net.address, port)} over ${udp ? 'UDP' : 'TCP'} was answered "${shown(r.line, 60)}" with ${which}: ${shown(product, 120)}${allow}.`;
  },
});
