import { defineCheck } from '../kit.ts';
import { coapWellKnown, linkTargets } from '../../proto/coap.ts';

/**
 * A CoAP server (libcoap, Californium, Eclipse Leshan and the IoT devices
 * built on them) answering resource discovery, GET /.well-known/core
 * (RFC 6690 §4), to anyone: the 2.05 Content reply lists every resource
 * the device serves (sensors, actuators, firmware update endpoints), and
 * CoAP has no authentication of its own without DTLS (RFC 7252 §9). What
 * nmap's coap-resources script reads. An error code (4.01, 4.04) or
 * silence is not reported.
 */
export default defineCheck({
  id: 'vigil.coap.resource-discovery',
  shortid: 'COAP-DISCOVERY',
  title: 'CoAP server lists its resources to anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    'The CoAP (Constrained Application Protocol) service answers anyone without DTLS: its resource directory (/.well-known/core) lists what the device serves, and the same unauthenticated requests can read its sensors and, where resources accept PUT or POST, drive its actuators.',
  solution:
    'Serve CoAP over DTLS only (coaps, UDP 5684, with pre-shared keys or certificates; libcoap coap-server -k or -c, Californium DTLS connector) and keep plain CoAP (UDP 5683) off networks you do not control.',
  references: ['https://www.rfc-editor.org/rfc/rfc7252#section-11', 'https://www.rfc-editor.org/rfc/rfc6690#section-4'],
  ports: { udp: [5683] },
  run: async ({ net, port }) => {
    const r = await coapWellKnown(net, port);
    if (r?.response?.code !== '2.05') return null;
    const links = linkTargets(r.response.payload.toString('utf8'));
    if (!links.length) return null;
    return `GET /.well-known/core (CoAP, UDP ${port}, no DTLS) was answered 2.05 Content with ${links.length} resources: ${links.slice(0, 8).join(', ')}${links.length > 8 ? ', …' : ''}.`;
  },
});
