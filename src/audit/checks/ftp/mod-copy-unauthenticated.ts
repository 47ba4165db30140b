import { defineCheck } from '../kit.ts';
import { line } from '../lib/cleartext.ts';
import { code, replyDone, talk } from '../../proto/talk.ts';

/**
 * ProFTPD's mod_copy before 1.3.5a ran SITE CPFR and SITE CPTO for a
 * client that had not logged in (CVE-2015-3306, proftpd bug 4169): anyone
 * could copy any file the daemon can read to any place it can write (the
 * public exploits copy /etc/passwd, or a PHP payload through /proc/self/
 * cmdline, into the web root). The probe is the first half only: SITE CPFR
 * of a file every Unix host has, before USER. A 350 ("File or directory
 * exists, ready for destination name", mod_copy's answer) proves the
 * command ran without a login; a fixed ProFTPD answers 530 ("Please login
 * with USER and PASS"), other servers 500/502. The copy is never completed
 * (no CPTO): that would write a file on the target, which a safe check must
 * not do, and the 350 alone is the proof. The check asks every FTP server,
 * not only banners naming ProFTPD: ServerIdent off hides the product, and
 * any server processing a SITE command before login is worth knowing.
 */
const PROBE = 'SITE CPFR /etc/passwd';

export default defineCheck({
  id: 'vigil.ftp.mod-copy-unauthenticated',
  shortid: 'FTP-MOD-COPY',
  title: 'FTP server copies files for clients that have not logged in (ProFTPD mod_copy)',
  family: 'FTP',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  cves: ['CVE-2015-3306'],
  type: 'HOLE',
  qod: 99,
  description:
    'The FTP server accepted SITE CPFR (the first half of a server-side copy, ProFTPD mod_copy) before any login: anyone can copy files the server can read to places it can write, for example a script into a web root (CVE-2015-3306).',
  solution:
    'Upgrade ProFTPD (1.3.5a and later require a login for SITE CPFR/CPTO), or stop loading mod_copy (remove "LoadModule mod_copy.c" from modules.conf).',
  references: ['http://bugs.proftpd.org/show_bug.cgi?id=4169', 'http://www.proftpd.org/docs/contrib/mod_copy.html'],
  ports: { services: ['ftp'], ports: [21], tls: false },
  run: ({ net, port }) =>
    talk(net, port, async (c) => {
      if (code(await c.read(3000, replyDone)) !== 220) return null;
      const reply = await c.ask(`${PROBE}\r\n`, 3000, replyDone);
      c.send('QUIT\r\n');
      if (code(reply) !== 350) return null;
      const text = reply.toString('latin1').trim().split(/\r?\n/).pop() ?? '';
      return `"${PROBE}" before any USER was answered "${line(text)}": the copy source was accepted without a login (the copy was not completed: no CPTO was sent).`;
    }),
});
