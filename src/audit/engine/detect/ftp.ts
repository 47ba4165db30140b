/** FTP: the 220 greeting (told apart from SMTP's 220), then FEAT. */
import { firstLine, lineDone } from '../../proto/conv.ts';
import type { Family } from './family.ts';

const PRODUCTS: [RegExp, string][] = [
  [/vsFTPd\s*([\d.]+\w*)?/i, 'vsftpd'],
  [/ProFTPD\s*([\d.]+\w*)?/i, 'ProFTPD'],
  [/Pure-FTPd\s*([\d.]+\w*)?/i, 'Pure-FTPd'],
  [/FileZilla Server\s*(?:version\s*)?([\d.]+\w*)?/i, 'FileZilla ftpd'],
  [/Microsoft FTP Service/i, 'Microsoft ftpd'],
  [/Serv-U FTP Server v?([\d.]+)?/i, 'Serv-U ftpd'],
  [/wu-([\d.]+)/i, 'WU-FTPD'],
];

export function ftpProduct(line: string): [string | null, string | null] {
  for (const [re, product] of PRODUCTS) {
    const m = re.exec(line);
    if (m) return [product, m[1] ?? null];
  }
  return [null, null];
}

export const ftp: Family = {
  id: 'ftp',
  ports: [21, 990, 2121],
  async banner(greeting, s, conv) {
    const line = firstLine(greeting);
    if (!/^220[ -]/.test(line)) return false;
    if (/E?SMTP|Postfix|Exim|Sendmail|mail/i.test(line)) return false;
    if (!/FTP/i.test(line)) {
      // A bare 220 is FTP or SMTP: SMTP answers EHLO with 250, FTP refuses it.
      const r = await conv.ask('EHLO vigil\r\n', 1500, lineDone);
      if (/^250/.test(firstLine(r)) || r.length === 0) return false;
    }
    const [product, version] = ftpProduct(line);
    Object.assign(s, { name: 'ftp', product, version });
    const feat = await conv.ask(
      'FEAT\r\n',
      1500,
      (b) => /^211 /m.test(b.toString('latin1')) || /^5\d\d /m.test(b.toString('latin1')),
    );
    const lines = feat
      .toString('latin1')
      .split(/\r?\n/)
      .filter((l) => /^ \S/.test(l));
    if (lines.length) s.extra.features = lines.map((l) => l.trim()).join(', ');
    return true;
  },
};
