import { defineCheck } from '../kit.ts';
import { line, probeUser } from '../lib/cleartext.ts';
import { withDialog } from '../../proto/starttls.ts';

export default defineCheck({
  id: 'vigil.pop3.cleartext-login',
  shortid: 'POP3-CLEARTEXT',
  title: 'POP3 accepts logins without TLS',
  family: 'Mail',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 99,
  description:
    'The POP3 server accepts USER/PASS (or plaintext SASL) on an unencrypted connection, so passwords cross the network in clear text.',
  solution:
    'Require STLS before authentication (Dovecot: ssl = required, disable_plaintext_auth = yes) or serve POP3S only.',
  // Plaintext ports only: on an implicit-TLS port the password is already protected.
  ports: { services: ['pop3'], tls: false },
  run: ({ net, port }) =>
    withDialog(net, port, async (d) => {
      if (!/^\+OK/.test(await d.until((t) => /\r?\n/.test(t)))) return null;
      const capa = await d.ask('CAPA\r\n', (t) => /^\.\r?$/m.test(t) || /^-ERR/.test(t));
      const stls = /^STLS\b/im.test(capa);
      const sasl = /^SASL\b.*\b(?:PLAIN|LOGIN)\b/im.exec(capa)?.[0];
      const user = await d.ask(`USER ${probeUser()}\r\n`, (t) => /\r?\n/.test(t));
      let why = /^\+OK/.test(user) ? `USER answered "${line(user)}"` : null;
      // An advertisement is not proof: Courier with POP3_TLS_REQUIRED=1 lists SASL PLAIN in CAPA and still
      // refuses AUTH before STLS. AUTH <mechanism> without credentials: a "+" continuation (RFC 5034 §4)
      // means a password would follow in clear; "*" cancels it at once, so none is sent.
      const mech = sasl && /\bPLAIN\b/i.test(sasl) ? 'PLAIN' : sasl ? 'LOGIN' : null;
      if (!why && mech) {
        const auth = await d.ask(`AUTH ${mech}\r\n`, (t) => /\r?\n/.test(t));
        if (/^\+(?!OK)/.test(auth)) {
          why = `CAPA offers ${sasl!.trim()} and AUTH ${mech} answered with a "+" continuation`;
          await d.ask('*\r\n', (t) => /\r?\n/.test(t));
        }
      }
      return why ? `${why} before any TLS (${stls ? 'STLS is offered but not required' : 'no STLS offered'}).` : null;
    }),
});
