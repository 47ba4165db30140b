import { defineCheck } from '../kit.ts';
import { line, probeUser } from '../lib/cleartext.ts';
import { finalReply, withDialog } from '../../proto/starttls.ts';

export default defineCheck({
  id: 'vigil.ftp.cleartext-login',
  shortid: 'FTP-CLEARTEXT',
  title: 'FTP accepts logins without TLS',
  family: 'FTP',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 99,
  description:
    'The FTP server asks for a password on an unencrypted connection, so user names and passwords cross the network in clear text.',
  solution:
    'Require AUTH TLS before login (vsftpd: ssl_enable=YES, force_local_logins_ssl=YES; ProFTPD: TLSRequired on) or use SFTP.',
  // Plaintext ports only: on an implicit-TLS port the password is already protected.
  ports: { services: ['ftp'], tls: false },
  run: ({ net, port }) =>
    withDialog(net, port, async (d) => {
      if (!/^220 /m.test(await d.until(finalReply('220')))) return null;
      const feat = await d.ask('FEAT\r\n', finalReply('211'));
      const tls = /^\s*AUTH\s+.*\b(?:TLS|SSL)\b/im.test(feat);
      // 331 "password required" means the password would follow in clear;
      // 530/534 ("must use encryption", "anonymous only") mean it would not.
      const user = await d.ask(`USER ${probeUser()}\r\n`, (t) => /^\d{3} /m.test(t));
      if (!/^331/m.test(user)) return null;
      return `USER before any TLS answered "${line(user)}"; ${tls ? 'AUTH TLS is offered but not required' : 'FEAT offers no AUTH TLS'}.`;
    }),
});
