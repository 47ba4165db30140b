import { amplified } from './lib/amplify.ts';
import { defineCheck } from '../kit.ts';
import { parseCoap, wellKnownCoreRequest } from '../../proto/coap.ts';

const answers = (r: Buffer) => parseCoap(r)?.code === '2.05';

/**
 * The resource directory is the usual amplification request (CoAP is one of the reflection vectors
 * CISA and NETSCOUT list; factors of about 34 seen in the wild). CoAP belongs to constrained local
 * networks, so, as for SSDP, any answer from outside that is larger than the request is the exposure:
 * reported from factor 2, the figure quoted.
 */
const MIN_FACTOR = 2;

export default defineCheck({
  id: 'vigil.dos.coap-amplification',
  shortid: 'DOS-COAP',
  title: 'CoAP answers /.well-known/core to anyone (amplification)',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'The CoAP service answers a small unauthenticated UDP request for its resource directory with a larger reply: with a spoofed source address it reflects and amplifies traffic onto a third party.',
  solution:
    'Block UDP 5683 at the network edge, or serve CoAP over DTLS only (coaps, 5684), whose handshake cookie (RFC 6347 §4.2.1) stops reflection.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc7252#section-11.3',
    'https://www.cisa.gov/news-events/alerts/2014/01/17/udp-based-amplification-attacks',
  ],
  ports: { udp: [5683], via: 'udp' },
  run: (t) => amplified(t, wellKnownCoreRequest(), answers, MIN_FACTOR),
});
