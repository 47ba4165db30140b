import { defineCheck } from '../kit.ts';
import { certDetail } from './lib/cert.ts';
import { speaksTls } from './lib/targets.ts';

export default defineCheck({
  id: 'vigil.tls.cert-self-signed',
  shortid: 'TLS-CERT-SELFSIGNED',
  title: 'Self-signed TLS certificate',
  family: 'SSL/TLS',
  categories: ['safe', 'passive', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The certificate is signed by its own key, so clients cannot verify it and cannot tell it from an impostor. Implicit TLS and every STARTTLS protocol (SMTP, IMAP, POP3, XMPP, FTP AUTH TLS, LDAP StartTLS, PostgreSQL and MySQL SSLRequest) are examined.',
  solution:
    "Install a certificate from a CA the clients trust (a public CA, e.g. via ACME, or your organisation's internal CA distributed to the clients).",
  ports: { where: speaksTls },
  // STARTTLS ports too (issue 27): IMAP, POP3, submission, FTP, LDAP and PostgreSQL clients verify the server's
  // certificate, so a self-signed one there is the same weakness as on HTTPS. Port 25 between MTAs is
  // opportunistic (RFC 7435), but a self-signed certificate still leaves DANE and MTA-STS senders nothing to
  // verify (RFC 8461 §4.2 requires a valid chain), so it is reported there as well, at the same low risk.
  run: (t) => certDetail(t, (c) => (c.selfSigned ? 'The certificate is self-signed.' : null), { trust: true }),
});
