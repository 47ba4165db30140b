import { defineCheck } from '../kit.ts';
import { finalReply, withDialog } from '../../proto/starttls.ts';

const oneLine = (t: string) => /\r?\n/.test(t);

/**
 * An advertisement is not proof: RFC 4954 §6 lets a server list AUTH PLAIN
 * and still answer 538 "Encryption required for requested authentication
 * mechanism". So the mechanism is started without credentials: a 334
 * continuation (RFC 4954 §4) means the password would follow in clear on
 * this connection; "*" cancels the exchange at once (§4), nothing is sent.
 */
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
    'The SMTP server offers AUTH PLAIN or LOGIN before STARTTLS and starts the exchange, so mail clients may send their password in clear text.',
  solution:
    'Offer AUTH only after STARTTLS (Postfix: smtpd_tls_auth_only = yes in main.cf; Exim: auth_advertise_hosts = ${if eq{$tls_in_cipher}{}{}{*}}; OpenSMTPD refuses `auth` on a listener without tls).',
  // Plaintext ports only: on an implicit-TLS port the password is already protected.
  ports: { services: ['smtp', 'submission'], tls: false },
  run: ({ net, port }) =>
    withDialog(net, port, async (d) => {
      if (!/^220/m.test(await d.until(finalReply('220')))) return null;
      const ehlo = await d.ask('EHLO vigil.invalid\r\n', finalReply('250'));
      const auth = /^250[ -]AUTH[ =](.*)$/im.exec(ehlo)?.[1];
      if (!auth || !/\b(?:PLAIN|LOGIN)\b/i.test(auth)) return null;
      const mech = /\bPLAIN\b/i.test(auth) ? 'PLAIN' : 'LOGIN';
      const started = await d.ask(`AUTH ${mech}\r\n`, oneLine);
      if (!/^334/.test(started)) return null;
      const cancelled = await d.ask('*\r\n', oneLine);
      d.socket.write('QUIT\r\n');
      return `EHLO on the unencrypted connection offers AUTH ${auth.trim().slice(0, 80)}${/^250[ -]STARTTLS/im.test(ehlo) ? ' (STARTTLS is offered but not required for AUTH)' : ' and no STARTTLS'}; AUTH ${mech} was answered "${started.trim().slice(0, 40)}", a continuation awaiting the credentials in clear (cancelled with "*": ${cancelled.trim().slice(0, 40) || 'no reply'}).`;
    }),
});
