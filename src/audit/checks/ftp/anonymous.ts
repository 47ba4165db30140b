import { defineCheck } from '../kit.ts';
import { code, replyDone, talk } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.ftp.anonymous',
  shortid: 'FTP-ANON',
  title: 'Anonymous FTP login allowed',
  family: 'FTP',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  cves: ['CVE-1999-0497'],
  type: 'HOLE',
  description:
    'The FTP server accepts the user "anonymous" with any password: whatever it serves is public, and a writable area invites abuse.',
  solution:
    'Disable anonymous access (vsftpd: anonymous_enable=NO; ProFTPD: remove the <Anonymous> block) unless the files are meant to be public.',
  ports: { services: ['ftp'], ports: [21] },
  run: ({ net, port }) =>
    talk(net, port, async (c) => {
      if (code(await c.read(3000, replyDone)) !== 220) return null;
      if (![230, 331].includes(code(await c.ask('USER anonymous\r\n', 3000, replyDone)))) return null;
      const pass =
        c.last.length && code(c.last) === 230
          ? 230
          : code(await c.ask('PASS vigil-audit@example.invalid\r\n', 3000, replyDone));
      c.send('QUIT\r\n');
      return pass === 230 ? 'USER anonymous was logged in (230)' : null;
    }),
});
