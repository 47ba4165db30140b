import { defineCheck } from '../kit.ts';
import { withDialog } from '../../proto/starttls.ts';

export default defineCheck({
  id: 'vigil.imap.cleartext-login',
  shortid: 'IMAP-CLEARTEXT',
  title: 'IMAP accepts logins without TLS',
  family: 'Mail',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 95,
  description:
    'The IMAP server allows LOGIN (or plaintext SASL) on an unencrypted connection, so passwords cross the network in clear text.',
  solution:
    'Advertise LOGINDISABLED until STARTTLS (Dovecot: ssl = required, disable_plaintext_auth = yes) or serve IMAPS only.',
  // Plaintext ports only: on an implicit-TLS port the password is already protected.
  ports: { services: ['imap'], tls: false },
  run: ({ net, port }) =>
    withDialog(net, port, async (d) => {
      const hello = await d.until((t) => /\r?\n/.test(t));
      if (!/^\* OK/i.test(hello)) return null;
      const r = await d.ask('v1 CAPABILITY\r\n', (t) => /^v1 /m.test(t));
      const caps = /^\* CAPABILITY (.*)$/im.exec(r)?.[1] ?? /\[CAPABILITY ([^\]]*)\]/i.exec(hello)?.[1];
      if (!caps) return null;
      // RFC 3501 §7.2.1: LOGINDISABLED means LOGIN must not be used on this (unencrypted) connection.
      if (/\bLOGINDISABLED\b/i.test(caps)) return null;
      const starttls = /\bSTARTTLS\b/i.test(caps);
      return `CAPABILITY on the unencrypted connection lacks LOGINDISABLED (${starttls ? 'STARTTLS is offered but not required' : 'no STARTTLS offered'}): ${caps.slice(0, 160)}.`;
    }),
});
