import { defineCheck } from '../kit.ts';
import { sipAsk, sipRequest, sipUri, withSipCanary } from '../../proto/sip.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A SIP proxy that forwards requests for any domain from anyone (Kamailio
 * or OpenSIPS without an authentication route, an Asterisk or FreeSWITCH
 * profile with an open context): attackers route calls through it to
 * premium numbers (toll fraud) and hide behind it. An answer proves
 * nothing (a registrar may answer any OPTIONS itself); the proof is the
 * relay: an OPTIONS (no call is set up) whose Request-URI is a UDP
 * listener of the scanner's own (proto/sip.ts withSipCanary) arriving
 * there from the target. From names the target's own domain, as a local
 * user of it would: the common policy "relay only for local users" that
 * never checks who the user is lets that through, and is the hole.
 */
export default defineCheck({
  id: 'vigil.sip.open-proxy',
  shortid: 'SIP-OPEN-PROXY',
  title: 'SIP proxy relays requests for anyone (open SIP proxy)',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The SIP server forwards a request addressed to another domain for a caller that did not authenticate: anyone can route calls through it (toll fraud to premium and international numbers is the usual use) and make them appear to come from it.',
  solution:
    'Relay only for authenticated users and to your own domains (Kamailio: define WITH_AUTH so route[AUTH] challenges with proxy_authorize, and answer 403 to requests neither from nor to a local domain; Asterisk: allowguest=no and contexts that cannot dial out).',
  references: [
    'https://www.rfc-editor.org/rfc/rfc3261#section-16',
    'https://www.rfc-editor.org/rfc/rfc3261#section-26.3.2.2',
  ],
  ports: { services: ['sip'], udp: [5060] },
  run: ({ net, port, protocol }) =>
    withSipCanary(net, async (canary) => {
      const udp = protocol === 'udp';
      const { text, callId } = sipRequest({
        method: 'OPTIONS',
        uri: canary.uri,
        transport: udp ? 'UDP' : 'TCP',
        from: `sip:vigil@${sipUri(net.address).slice(4)}`,
      });
      const r = await sipAsk(net, port, udp, text);
      const hit = canary.hits.find((h) => h.text.includes(`Call-ID: ${callId}`) || h.text.includes(`i: ${callId}`));
      // The Call-ID is random and went to the target only: from whatever address it came, the target relayed it.
      if (!hit) return null;
      const vias = (hit.text.match(/^(?:via|v)\s*:.*$/gim) ?? []).length;
      return `OPTIONS ${canary.uri} (a listener of the scanner's, From: a user of the target's own domain, no credentials) sent over ${udp ? 'UDP' : 'TCP'} to port ${port} arrived at that listener from ${hit.from} with ${vias} Via headers (the proxy added its own), Call-ID ${callId}; the target answered ${r ? `"${shown(r.line, 60)}"` : 'nothing'}.`;
    }),
});
