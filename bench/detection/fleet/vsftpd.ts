/**
 * Debian vsftpd, one process per config (listen=YES, background=NO).
 * Weak: anonymous read without TLS (and local logins in cleartext: no AUTH
 * TLS offered), anonymous upload into incoming/, FTPS with an expired
 * certificate. Twin: no anonymous, TLS required for logins and data, good
 * certificate. seccomp_sandbox=NO: vsftpd's sandbox kills it on some
 * container kernels (Debian bug #1025707).
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import { addr, any, grep, makeDir, script, type Daemon, userIds } from './kit.ts';

const K = 7;
const COMMON = (address: string, dir: string) => `listen=YES
listen_ipv6=NO
listen_address=${address}
listen_port=21
background=NO
seccomp_sandbox=NO
secure_chroot_dir=${dir}/empty
pam_service_name=vsftpd
xferlog_enable=NO
vsftpd_log_file=${dir}/vsftpd.log
pasv_enable=YES
pasv_min_port=40000
pasv_max_port=40100
ftpd_banner=Welcome to the shop FTP service.
`;

export const VSFTPD: Daemon = {
  kind: 'vsftpd',
  binaries: ['vsftpd'],
  ports: { tcp: [21], udp: [] },
  weaknesses: [
    {
      id: 'ftp-anon-read',
      family: 'auth',
      label: 'anonymous FTP login (read)',
      daemon: 'vsftpd',
      address: addr(K, 1),
      port: 21,
      proto: 'tcp',
      vigil: { text: /anonym/i },
      nmap: script('ftp-anon', /Anonymous FTP login allowed/),
    },
    {
      id: 'ftp-cleartext',
      family: 'cleartext',
      label: 'FTP logins without TLS (no AUTH TLS)',
      daemon: 'vsftpd',
      address: addr(K, 1),
      port: 21,
      proto: 'tcp',
      vigil: { text: /cleartext|plain|without tls|starttls|auth tls|unencrypted/i },
      nmap: () => null,
    },
    {
      id: 'ftp-anon-write',
      family: 'auth',
      label: 'anonymous FTP upload (incoming/ writable)',
      daemon: 'vsftpd',
      address: addr(K, 2),
      port: 21,
      proto: 'tcp',
      vigil: { text: /writ|upload/i },
      nmap: any(script('ftp-anon', /incoming|drwxrwxrwx/), grep(/writable/i)),
    },
    {
      id: 'ftp-tls-expired',
      family: 'tls',
      label: 'FTPS (AUTH TLS) with an expired certificate',
      daemon: 'vsftpd',
      address: addr(K, 3),
      port: 21,
      proto: 'tcp',
      vigil: { text: /expired/i },
      nmap: script('ssl-cert', /Not valid after:\s*20(1|2[0-5])/),
    },
  ],
  twins: [
    {
      address: addr(K, 100),
      note: 'anonymous off, AUTH TLS required for logins and data (force_local_*_ssl), good certificate',
    },
  ],
  async start(ctx) {
    const tls = async (address: string, expired: boolean, dir: string) => {
      const pem = await leaf(address, { expired });
      return `ssl_enable=YES
rsa_cert_file=${ctx.write(join(dir, 'cert.pem'), pem.cert)}
rsa_private_key_file=${ctx.write(join(dir, 'key.pem'), pem.key, 0o600)}
allow_anon_ssl=NO
force_local_logins_ssl=YES
force_local_data_ssl=YES
ssl_ciphers=HIGH
require_ssl_reuse=NO
`;
    };
    const start = async (n: number, conf: (dir: string) => Promise<string> | string) => {
      const address = addr(K, n);
      const dir = ctx.dir(address);
      makeDir(join(dir, 'empty'));
      const anon = makeDir(join(dir, 'anon'), undefined, 0o555);
      ctx.write(join(anon, 'README.txt'), 'Shop price lists.\n');
      const file = ctx.write(
        join(dir, 'vsftpd.conf'),
        COMMON(address, dir) + (await conf(dir)).replace(/ANON/g, anon),
        0o600,
      );
      const child = ctx.spawn(`vsftpd-${address}`, 'vsftpd', [file]);
      await ctx.waitTcp(address, 21, child);
      return anon;
    };
    await start(
      1,
      () =>
        'anonymous_enable=YES\nanon_root=ANON\nno_anon_password=YES\nlocal_enable=YES\nwrite_enable=NO\nssl_enable=NO\n',
    );
    await start(2, (dir) => {
      // The owner by name: Debian numbers its system users in the order packages were installed.
      makeDir(join(dir, 'anon', 'incoming'), userIds('ftp'), 0o777);
      return 'anonymous_enable=YES\nanon_root=ANON\nno_anon_password=YES\nlocal_enable=NO\nwrite_enable=YES\nanon_upload_enable=YES\nanon_mkdir_write_enable=YES\nanon_other_write_enable=YES\nanon_umask=022\nssl_enable=NO\n';
    });
    await start(3, async (dir) => `anonymous_enable=NO\nlocal_enable=YES\n${await tls(addr(K, 3), true, dir)}`);
    await start(100, async (dir) => `anonymous_enable=NO\nlocal_enable=YES\n${await tls(addr(K, 100), false, dir)}`);
  },
};
