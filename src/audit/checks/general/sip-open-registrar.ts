import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { sipAsk, sipRequest, sipUri } from '../../proto/sip.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A SIP registrar that takes REGISTER from anyone without a challenge
 * (Kamailio or OpenSIPS saving locations without WITH_AUTH, a PBX with
 * open registration): anyone can bind their own device to any user of the
 * domain and receive that user's calls. Proven without creating anything:
 * the REGISTER removes every binding (Contact: *, Expires: 0, RFC 3261
 * §10.2.2) of a user of a random name, which has none; a registrar that
 * authenticates challenges that request as any other (401/407, §22.3), and
 * a refusal (403, 404) is not reported. Only 200 is.
 */
export default defineCheck({
  id: 'vigil.sip.open-registrar',
  shortid: 'SIP-OPEN-REGISTRAR',
  title: 'SIP registrar accepts registrations without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    "The SIP registrar accepts REGISTER requests without asking for credentials: anyone can register a device of their own as any user of the domain, receive that user's calls and voicemail, and make calls in their name.",
  solution:
    'Challenge every REGISTER (Kamailio: define WITH_AUTH so route[REGISTRAR] runs auth_check before save; Asterisk: a secret or auth object for every endpoint) and allow registration only from your phones\u2019 networks.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc3261#section-10.3',
    'https://www.rfc-editor.org/rfc/rfc3261#section-22',
  ],
  ports: { services: ['sip'], udp: [5060] },
  run: async ({ net, port, protocol }) => {
    const udp = protocol === 'udp';
    const domain = sipUri(net.address);
    const user = `sip:vigil-${randomBytes(4).toString('hex')}@${domain.slice(4)}`;
    const { text } = sipRequest({
      method: 'REGISTER',
      uri: domain,
      transport: udp ? 'UDP' : 'TCP',
      from: user,
      to: user,
      headers: ['Contact: *', 'Expires: 0'],
    });
    const r = await sipAsk(net, port, udp, text);
    if (r?.status !== 200) return null;
    return `REGISTER ${domain} for ${user} (Contact: *, Expires: 0: removes the bindings of a user of a random name, who has none) without credentials, over ${udp ? 'UDP' : 'TCP'}, was answered "${shown(r.line, 60)}" with no challenge (401/407): registrations are not authenticated.`;
  },
});
