import { randomBytes } from 'node:crypto';
import type { Check, Finding, HostFacts, Net, Service } from '../types.ts';
import { Dialog, finalReply } from './starttls.ts';

/**
 * Logins in clear text on FTP, IMAP, POP3 and SMTP: the server lets a
 * client send a password before (or without) TLS. Each check asks the way a
 * client would and reads the answer; none sends a password. Sources: RFC
 * 4217 (FTP AUTH TLS), RFC 3501 §6.2.3 and §7.2.1 (IMAP LOGINDISABLED),
 * RFC 2595 (STLS), RFC 4954 (SMTP AUTH), RFC 8314 (cleartext considered
 * obsolete for mail access).
 */
type Probe = (d: Dialog) => Promise<string | null>;

function cleartext(
  id: string,
  shortid: string,
  title: string,
  category: string,
  names: readonly string[],
  qod: number,
  description: string,
  solution: string,
  probe: Probe,
): Check {
  return {
    id,
    shortid,
    title,
    category,
    risk: 'medium',
    cves: [],
    type: 'NOTE',
    description,
    solution,
    qod,
    intrusive: false,
    dos: false,
    active: true,
    async run(host: HostFacts, net: Net): Promise<Finding[]> {
      const findings: Finding[] = [];
      for (const svc of host.services.filter((s: Service) => names.includes(s.name) && !s.tls)) {
        const d = await Dialog.open(net, svc.port);
        if (!d) continue;
        try {
          const detail = await probe(d).catch(() => null);
          if (detail) findings.push({ port: svc.port, detail });
        } finally {
          d.close();
        }
      }
      return findings;
    },
  };
}

const line = (t: string) => t.split(/\r?\n/)[0]!.slice(0, 100);
/** A user name that exists nowhere: the reply tells the policy, not the account's existence. */
const probeUser = () => `vigil-${randomBytes(4).toString('hex')}`;

export const CLEARTEXT_CHECKS: readonly Check[] = [
  cleartext(
    'vigil.ftp.cleartext-login',
    'FTP-CLEARTEXT',
    'FTP accepts logins without TLS',
    'FTP',
    ['ftp'],
    99,
    'The FTP server asks for a password on an unencrypted connection, so user names and passwords cross the network in clear text.',
    'Require AUTH TLS before login (vsftpd: ssl_enable=YES, force_local_logins_ssl=YES; ProFTPD: TLSRequired on) or use SFTP.',
    async (d) => {
      if (!/^220 /m.test(await d.until(finalReply('220')))) return null;
      const feat = await d.ask('FEAT\r\n', finalReply('211'));
      const tls = /^\s*AUTH\s+.*\b(?:TLS|SSL)\b/im.test(feat);
      // 331 "password required" means the password would follow in clear;
      // 530/534 ("must use encryption", "anonymous only") mean it would not.
      const user = await d.ask(`USER ${probeUser()}\r\n`, (t) => /^\d{3} /m.test(t));
      if (!/^331/m.test(user)) return null;
      return `USER before any TLS answered "${line(user)}"; ${tls ? 'AUTH TLS is offered but not required' : 'FEAT offers no AUTH TLS'}.`;
    },
  ),
  cleartext(
    'vigil.imap.cleartext-login',
    'IMAP-CLEARTEXT',
    'IMAP accepts logins without TLS',
    'Mail',
    ['imap'],
    95,
    'The IMAP server allows LOGIN (or plaintext SASL) on an unencrypted connection, so passwords cross the network in clear text.',
    'Advertise LOGINDISABLED until STARTTLS (Dovecot: ssl = required, disable_plaintext_auth = yes) or serve IMAPS only.',
    async (d) => {
      const hello = await d.until((t) => /\r?\n/.test(t));
      if (!/^\* OK/i.test(hello)) return null;
      const r = await d.ask('v1 CAPABILITY\r\n', (t) => /^v1 /m.test(t));
      const caps = /^\* CAPABILITY (.*)$/im.exec(r)?.[1] ?? /\[CAPABILITY ([^\]]*)\]/i.exec(hello)?.[1];
      if (!caps) return null;
      // RFC 3501 §7.2.1: LOGINDISABLED means LOGIN must not be used on this (unencrypted) connection.
      if (/\bLOGINDISABLED\b/i.test(caps)) return null;
      const starttls = /\bSTARTTLS\b/i.test(caps);
      return `CAPABILITY on the unencrypted connection lacks LOGINDISABLED (${starttls ? 'STARTTLS is offered but not required' : 'no STARTTLS offered'}): ${caps.slice(0, 160)}.`;
    },
  ),
  cleartext(
    'vigil.pop3.cleartext-login',
    'POP3-CLEARTEXT',
    'POP3 accepts logins without TLS',
    'Mail',
    ['pop3'],
    99,
    'The POP3 server accepts USER/PASS (or plaintext SASL) on an unencrypted connection, so passwords cross the network in clear text.',
    'Require STLS before authentication (Dovecot: ssl = required, disable_plaintext_auth = yes) or serve POP3S only.',
    async (d) => {
      if (!/^\+OK/.test(await d.until((t) => /\r?\n/.test(t)))) return null;
      const capa = await d.ask('CAPA\r\n', (t) => /^\.\r?$/m.test(t) || /^-ERR/.test(t));
      const stls = /^STLS\b/im.test(capa);
      const sasl = /^SASL\b.*\b(?:PLAIN|LOGIN)\b/im.exec(capa)?.[0];
      const user = await d.ask(`USER ${probeUser()}\r\n`, (t) => /\r?\n/.test(t));
      const why = /^\+OK/.test(user) ? `USER answered "${line(user)}"` : sasl ? `CAPA offers ${sasl.trim()}` : null;
      return why ? `${why} before any TLS (${stls ? 'STLS is offered but not required' : 'no STLS offered'}).` : null;
    },
  ),
  cleartext(
    'vigil.smtp.cleartext-auth',
    'SMTP-CLEARTEXT-AUTH',
    'SMTP offers password authentication without TLS',
    'Mail',
    ['smtp', 'submission'],
    95,
    'The SMTP server offers AUTH PLAIN or LOGIN before STARTTLS, so mail clients may send their password in clear text.',
    'Offer AUTH only after STARTTLS (Postfix: smtpd_tls_auth_only = yes in main.cf; Exim: auth_advertise_hosts = ${if eq{$tls_in_cipher}{}{}{*}}).',
    async (d) => {
      if (!/^220/m.test(await d.until(finalReply('220')))) return null;
      const ehlo = await d.ask('EHLO vigil.invalid\r\n', finalReply('250'));
      const auth = /^250[ -]AUTH[ =](.*)$/im.exec(ehlo)?.[1];
      if (!auth || !/\b(?:PLAIN|LOGIN)\b/i.test(auth)) return null;
      d.socket.write('QUIT\r\n');
      return `EHLO on the unencrypted connection offers AUTH ${auth.trim().slice(0, 80)}${/^250[ -]STARTTLS/im.test(ehlo) ? ' (STARTTLS is offered but not required for AUTH)' : ' and no STARTTLS'}.`;
    },
  ),
];
