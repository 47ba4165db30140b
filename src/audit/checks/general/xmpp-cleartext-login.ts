import { defineCheck } from '../kit.ts';
import { mechanisms, offersStarttls, requiresStarttls, withXmpp } from '../../proto/xmpp.ts';

/**
 * An XMPP server that lets a client authenticate before TLS (Prosody's
 * c2s_require_encryption = false, ejabberd's starttls_required: false,
 * Openfire's "optional" security): the features of the unencrypted stream
 * list SASL mechanisms instead of a <starttls> with <required/> alone
 * (RFC 6120 §5.3.1: a server that requires TLS offers nothing else first).
 * PLAIN or LOGIN there sends the password itself in clear (RFC 4616 §4);
 * with SCRAM or DIGEST-MD5 only the password is not sent, but the session
 * (messages, contacts) still crosses unencrypted. Nothing is sent beyond
 * the stream header: no login is tried.
 */
const LEGACY = 'Non-SASL (XEP-0078)';
const CLEAR = new Set(['PLAIN', 'LOGIN', 'X-OAUTH2', LEGACY]);
/** Not a password login: ANONYMOUS is xmpp-anonymous-login's finding, EXTERNAL needs a TLS certificate. */
const NOT_LOGIN = new Set(['ANONYMOUS', 'EXTERNAL']);

export default defineCheck({
  id: 'vigil.xmpp.cleartext-login',
  shortid: 'XMPP-CLEARTEXT',
  title: 'XMPP server accepts logins without TLS',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 95,
  description:
    'The XMPP (Jabber) server offers authentication (SASL, or the old Non-SASL iq:auth) on an unencrypted client stream: with PLAIN or Non-SASL the password crosses the network in clear text, and with any mechanism the chat session (messages, contact lists, presence) does.',
  solution:
    'Require TLS before authentication (Prosody: c2s_require_encryption = true and allow_unencrypted_plain_auth = false; ejabberd: starttls_required: true; Openfire: client connection security "required").',
  references: ['https://www.rfc-editor.org/rfc/rfc6120#section-5.3.1', 'https://www.rfc-editor.org/rfc/rfc7590'],
  ports: { services: ['xmpp-client', 'jabber', 'xmpp'], ports: [5222], tls: false },
  run: ({ net, port, service }) =>
    withXmpp(net, port, service, false, async (s, features) => {
      // Non-SASL authentication (XEP-0078, Openfire and older servers announce it): its <password/> is plain text.
      const legacy = /<auth\b[^>]*http:\/\/jabber\.org\/features\/iq-auth/.test(features) ? [LEGACY] : [];
      const offered = [...mechanisms(features).filter((m) => !NOT_LOGIN.has(m)), ...legacy];
      // <required/> in <starttls>: the server refuses anything else first, whatever else it lists (§5.3.1).
      if (!offered.length || requiresStarttls(features)) return null;
      const clear = offered.filter((m) => CLEAR.has(m));
      const tls = offersStarttls(features) ? 'STARTTLS offered but not required' : 'no STARTTLS offered';
      const said = `The stream header to '${s.domain}' was answered, on the unencrypted connection, with the login mechanisms ${offered.join(', ')} (${tls})`;
      return clear.length
        ? { detail: `${said}: ${clear.join(', ')} sends the password in clear text.` }
        : {
            detail: `${said}: the password itself is not sent, but the session crosses unencrypted.`,
            risk: 'low' as const,
          };
    }),
});
