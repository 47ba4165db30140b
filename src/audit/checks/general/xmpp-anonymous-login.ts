import { defineCheck } from '../kit.ts';
import { anonymousJid, mechanisms, withXmpp } from '../../proto/xmpp.ts';
import { shown } from '../../proto/talk.ts';

/**
 * SASL ANONYMOUS (RFC 4505) on an XMPP server (Prosody's authentication =
 * "anonymous", ejabberd's auth_method: anonymous with
 * anonymous_protocol: sasl_anon): offered is not proof, so the login is
 * made, as an anonymous FTP login is (the mechanism exists for anyone to
 * use), and the proof is the server's <success/> and the JID resource
 * binding gives (RFC 6120 §7.6.1). The session is closed at once; nothing
 * is sent as that user. STARTTLS comes first when offered.
 */
export default defineCheck({
  id: 'vigil.xmpp.anonymous-login',
  shortid: 'XMPP-ANON',
  title: 'XMPP server accepts anonymous logins',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    'The XMPP (Jabber) server lets anyone log in without an account (SASL ANONYMOUS): an anonymous user gets a JID of the domain and can send messages and presence to its users, join its chat rooms and, where the server federates, reach other domains in its name (spam, abuse).',
  solution:
    'Turn anonymous authentication off on the domains users log in to (Prosody: authentication = "internal_hashed" rather than "anonymous"; ejabberd: remove anonymous from auth_method), or keep it to a separate domain that cannot send to others (Prosody: disallow_s2s = true).',
  references: ['https://www.rfc-editor.org/rfc/rfc4505', 'https://xmpp.org/extensions/xep-0175.html'],
  ports: { services: ['xmpp-client', 'jabber', 'xmpp'], ports: [5222] },
  run: ({ net, port, service }) =>
    withXmpp(net, port, service, true, async (s, features) => {
      if (!mechanisms(features).includes('ANONYMOUS')) return null;
      const r = await anonymousJid(s);
      if (!r) return null;
      return `SASL <auth mechanism='ANONYMOUS'> to '${s.domain}'${s.tls ? ' (after STARTTLS)' : ''} was answered "${shown(r.reply, 80)}", and resource binding gave the JID ${shown(r.jid, 100)}: logged in without an account.`;
    }),
});
