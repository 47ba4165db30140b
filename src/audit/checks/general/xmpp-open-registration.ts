import { defineCheck } from '../kit.ts';
import { registrationForm, withXmpp } from '../../proto/xmpp.ts';

/**
 * In-band registration open to anyone (XEP-0077; Prosody's
 * allow_registration = true, ejabberd's mod_register with access_from
 * all, Openfire's "inbound account registration"): before logging in, the
 * registration query (an iq get, XEP-0077 §3.1) is answered with the
 * fields of a new account. Only the form is asked for: no account is made.
 * A server that refuses (not-allowed, service-unavailable) or lists no
 * user or password field is not reported. STARTTLS comes first when
 * offered (Prosody refuses registration on an unencrypted stream).
 */
export default defineCheck({
  id: 'vigil.xmpp.open-registration',
  shortid: 'XMPP-REGISTER',
  title: 'XMPP server lets anyone register an account',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    'The XMPP (Jabber) server answers the in-band registration query of anyone who connects with the form for a new account: spammers create accounts on such servers in bulk and send from them to the whole federated network, and the domain ends on block lists.',
  solution:
    'Turn in-band registration off (Prosody: allow_registration = false; ejabberd: mod_register access_from: none, or an ip_access list; Openfire: disable inbound account registration), or gate it behind invitations or a CAPTCHA (Prosody mod_invites, XEP-0158).',
  references: ['https://xmpp.org/extensions/xep-0077.html#security'],
  ports: { services: ['xmpp-client', 'jabber', 'xmpp'], ports: [5222] },
  run: ({ net, port, service }) =>
    withXmpp(net, port, service, true, async (s) => {
      const fields = await registrationForm(s);
      if (!fields) return null;
      return `The registration query (<iq type='get'><query xmlns='jabber:iq:register'/></iq>, XEP-0077 §3.1) to '${s.domain}'${s.tls ? ' (after STARTTLS)' : ''}, before any login, was answered with the form for a new account (fields: ${fields.slice(0, 8).join(', ')}).`;
    }),
});
