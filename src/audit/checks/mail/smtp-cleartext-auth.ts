import { defineCheck } from '../kit.ts';
import { finalReply, withDialog } from '../../proto/starttls.ts';

export default defineCheck({
  id: 'vigil.smtp.cleartext-auth',
  shortid: 'SMTP-CLEARTEXT-AUTH',
  title: 'SMTP offers password authentication without TLS',
  family: 'Mail',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 95,
  description:
    'The SMTP server offers AUTH PLAIN or LOGIN before STARTTLS, so mail clients may send their password in clear text.',
  solution:
    'Offer AUTH only after STARTTLS (Postfix: smtpd_tls_auth_only = yes in main.cf; Exim: auth_advertise_hosts = ${if eq{$tls_in_cipher}{}{}{*}}).',
  // Plaintext ports only: on an implicit-TLS port the password is already protected.
  ports: { services: ['smtp', 'submission'], tls: false },
  run: ({ net, port }) =>
    withDialog(net, port, async (d) => {
      if (!/^220/m.test(await d.until(finalReply('220')))) return null;
      const ehlo = await d.ask('EHLO vigil.invalid\r\n', finalReply('250'));
      const auth = /^250[ -]AUTH[ =](.*)$/im.exec(ehlo)?.[1];
      if (!auth || !/\b(?:PLAIN|LOGIN)\b/i.test(auth)) return null;
      d.socket.write('QUIT\r\n');
      return `EHLO on the unencrypted connection offers AUTH ${auth.trim().slice(0, 80)}${/^250[ -]STARTTLS/im.test(ehlo) ? ' (STARTTLS is offered but not required for AUTH)' : ' and no STARTTLS'}.`;
    }),
});
