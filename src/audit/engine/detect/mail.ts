/** Mail: SMTP (EHLO extensions), POP3 (CAPA), IMAP (CAPABILITY). */
import { firstLine } from '../../proto/conv.ts';
import type { Family } from './family.ts';

const smtpProducts: [RegExp, string][] = [
  [/Postfix/i, 'Postfix smtpd'],
  [/Exim\s*([\d.]+)?/i, 'Exim smtpd'],
  [/Sendmail\s*([\d.]+)?/i, 'Sendmail'],
  [/Microsoft ESMTP MAIL Service(?:, Version: ([\d.]+))?/i, 'Microsoft ESMTP'],
  [/OpenSMTPD/i, 'OpenSMTPD'],
  [/Haraka\/?([\d.]+)?/i, 'Haraka smtpd'],
];
const popImapProducts: [RegExp, string][] = [
  [/Dovecot/i, 'Dovecot'],
  [/Courier/i, 'Courier'],
  [/Cyrus(?: POP3| IMAP)?[^\d]*v?([\d.]+)?/i, 'Cyrus'],
  [/Qpopper[^\d]*([\d.]+)?/i, 'Qpopper'],
  [/UW (?:POP3|IMAP4?)[^\d]*([\d.]+\w*)?/i, 'UW imapd'],
];

function match(line: string, table: [RegExp, string][]): [string | null, string | null] {
  for (const [re, product] of table) {
    const m = re.exec(line);
    if (m) return [product, m[1] ?? null];
  }
  return [null, null];
}

export const smtp: Family = {
  id: 'smtp',
  ports: [25, 465, 587],
  async banner(greeting, s, conv) {
    const line = firstLine(greeting);
    if (!/^220[ -]/.test(line)) return false;
    const r = await conv.ask('EHLO vigil.invalid\r\n', 2000, (b) => /^\d{3} /m.test(b.toString('latin1')));
    const lines = r.toString('latin1').split(/\r?\n/);
    if (!/^250/.test(lines[0] ?? '') && !/E?SMTP|mail/i.test(line)) return false;
    const [product, version] = match(line, smtpProducts);
    Object.assign(s, { name: 'smtp', product, version });
    const ext = lines
      .slice(1)
      .filter((l) => /^250[ -]/.test(l))
      .map((l) => l.slice(4).trim());
    if (ext.length) s.extra.extensions = ext.join(', ');
    conv.send('QUIT\r\n');
    return true;
  },
};

export const pop3: Family = {
  id: 'pop3',
  ports: [110, 995],
  async banner(greeting, s, conv) {
    const line = firstLine(greeting);
    if (!/^\+OK/.test(line)) return false;
    const [product, version] = match(line, popImapProducts);
    Object.assign(s, { name: 'pop3', product, version });
    const r = await conv.ask(
      'CAPA\r\n',
      1500,
      (b) => /^\.\r?$/m.test(b.toString('latin1')) || /^-ERR/.test(b.toString('latin1')),
    );
    const caps = r
      .toString('latin1')
      .split(/\r?\n/)
      .slice(1)
      .filter((l) => l && l !== '.');
    if (/^\+OK/.test(firstLine(r)) && caps.length) s.extra.capabilities = caps.join(' ');
    conv.send('QUIT\r\n');
    return true;
  },
};

export const imap: Family = {
  id: 'imap',
  ports: [143, 993],
  async banner(greeting, s, conv) {
    const line = firstLine(greeting);
    if (!/^\* (OK|PREAUTH|BYE)/i.test(line)) return false;
    const [product, version] = match(line, popImapProducts);
    Object.assign(s, { name: 'imap', product, version });
    let caps = /\[CAPABILITY ([^\]]*)\]/i.exec(line)?.[1];
    if (!caps) {
      const r = await conv.ask('a1 CAPABILITY\r\n', 1500, (b) => /^a1 /m.test(b.toString('latin1')));
      caps = /^\* CAPABILITY (.*)$/im.exec(r.toString('latin1'))?.[1]?.trim();
    }
    if (caps) s.extra.capabilities = caps;
    conv.send('a2 LOGOUT\r\n');
    return true;
  },
};
