import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { afterEhlo } from '../../proto/smtp.ts';
import { code, replyDone, shown } from '../../proto/talk.ts';

/**
 * User enumeration through RCPT TO, reported as information (LOG): the
 * server accepts postmaster at its own name (RFC 5321 §4.5.1: every domain
 * must have it) and refuses a random name there with 550/551/553, so names
 * can be tested one by one even with VRFY and EXPN off. Refusing unknown
 * recipients at RCPT time is also what a well-run MTA does (accepting and
 * bouncing later sends backscatter to forged senders: RFC 5321 §6.2, §7.8
 * warns of address harvesting), and Debian's defaults do it (Postfix's
 * local_recipient_maps, Exim's `verify = recipient`, OpenSMTPD's local
 * match: measured), so it is evidence, never an alarm on its own; VRFY and
 * EXPN, which exist for nothing else, are vigil.smtp.user-enum's NOTE.
 *
 * The null reverse-path (MAIL FROM:<>) keeps sender checks out of it; no
 * DATA is sent and the transaction is reset.
 */
const ACCEPTED = new Set([250, 251]);
const UNKNOWN = new Set([550, 551, 553]);
const text = (b: Buffer) => b.toString('latin1').trim();

export default defineCheck({
  id: 'vigil.smtp.rcpt-enum',
  shortid: 'SMTP-RCPT-ENUM',
  title: 'SMTP server tells existing recipients from unknown ones (RCPT TO user enumeration)',
  family: 'Mail',
  categories: ['safe', 'discovery'],
  risk: 'other',
  type: 'LOG',
  qod: 99,
  description:
    "The mail server accepts RCPT TO for an existing mailbox and refuses an unknown one at once, so user names can be tested one by one. That is also how a server avoids backscatter, so it is reported as information: limit what one client may try (Postfix smtpd_hard_error_limit, Exim's ratelimit ACL condition).",
  solution:
    'Keep rejecting unknown recipients, but slow down clients that try many (Postfix: smtpd_hard_error_limit, smtpd_error_sleep_time; Exim: a ratelimit condition in acl_smtp_rcpt; fail2ban on the log).',
  ports: { services: ['smtp', 'submission'], ports: [25, 587] },
  run: ({ net, port }) =>
    afterEhlo(net, port, async (c, domain) => {
      if (!domain) return null;
      if (code(await c.ask('MAIL FROM:<>\r\n', 4000, replyDone)) !== 250) return null;
      const known = `postmaster@${domain}`;
      const random = `vigil${randomBytes(5).toString('hex')}@${domain}`;
      const yes = await c.ask(`RCPT TO:<${known}>\r\n`, 4000, replyDone);
      if (!ACCEPTED.has(code(yes))) return null;
      const no = await c.ask(`RCPT TO:<${random}>\r\n`, 4000, replyDone);
      c.send('RSET\r\nQUIT\r\n');
      if (!UNKNOWN.has(code(no))) return null;
      return `RCPT TO:<${known}> → ${shown(text(yes), 80)}; RCPT TO:<${random}> → ${shown(text(no), 100)} (MAIL FROM:<>, no DATA sent, transaction reset).`;
    }),
});
