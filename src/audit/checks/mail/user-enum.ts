import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import { afterEhlo } from '../../proto/smtp.ts';
import { code, replyDone, shown } from '../../proto/talk.ts';

/**
 * SMTP user enumeration: VRFY/EXPN answered differently for
 * an account that exists (root, postmaster: 250/251/252) and for a random
 * one (550 "User unknown"), so names can be tested one by one. A server
 * that answers 252 for every name (RFC 5321 §3.5.3 "cannot VRFY user") or
 * 502 (Postfix disable_vrfy_command, Exim's default), or does not know the
 * command (OpenSMTPD: 500), tells nothing: silent.
 *
 * RFC 5321 §3.5.1 lets the argument be a bare name or a mailbox; Exim
 * answers a bare name with 501 "recipient address must contain a domain"
 * (measured, 4.96), so a 501 is asked again with the server's own name from
 * its greeting (`220 mail.example.org ESMTP …`), the domain its local users
 * live in.
 */
const KNOWN = ['root', 'postmaster'];
const exists = (c: number) => c === 250 || c === 251 || c === 252;
const unknown = (c: number) => c === 550 || c === 551 || c === 553;
const text = (b: Buffer) => b.toString('latin1').trim();

export default defineCheck({
  // No CVE: CVE-1999-0531 (SMTP supports EXPN/VRFY) is REJECTED in NVD, a configuration, not a flaw (read
  // 2026-11-23).
  id: 'vigil.smtp.user-enum',
  shortid: 'SMTP-ENUM',
  title: 'SMTP server reveals which users exist (VRFY/EXPN)',
  family: 'Mail',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 99,
  description:
    'The mail server answers VRFY or EXPN one way for existing accounts and another for unknown ones: anyone can list valid user names for password guessing and phishing.',
  solution:
    'Disable the commands (Postfix: disable_vrfy_command = yes; Exim: no "vrfy"/"expn" in the ACLs; Sendmail: PrivacyOptions=goaway).',
  ports: { services: ['smtp', 'submission'], ports: [25, 587] },
  run: ({ net, port }) =>
    afterEhlo(net, port, async (c, domain) => {
      const random = `vigil${randomBytes(5).toString('hex')}`;
      for (const cmd of ['VRFY', 'EXPN']) {
        let at = '';
        let none = await c.ask(`${cmd} ${random}\r\n`, 4000, replyDone);
        if (code(none) === 501 && domain) {
          at = `@${domain}`;
          none = await c.ask(`${cmd} ${random}${at}\r\n`, 4000, replyDone);
        }
        if (!unknown(code(none))) continue;
        for (const user of KNOWN) {
          const r = await c.ask(`${cmd} ${user}${at}\r\n`, 4000, replyDone);
          if (exists(code(r)))
            return `${cmd} ${user}${at} → ${shown(text(r), 80)}; ${cmd} ${random}${at} → ${shown(text(none), 80)}`;
        }
      }
      return null;
    }),
});
