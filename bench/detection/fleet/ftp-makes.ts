/**
 * The second and third FTP products, so that the FTP family is measured
 * beyond vsftpd: Debian ProFTPD (proftpd-basic, `proftpd -n`) and Pure-FTPd
 * (pure-ftpd, run directly in the foreground), configured by
 * test/helpers/ftp-configs.ts as the test is. Weak A(1): anonymous read,
 * local logins in clear text (no AUTH TLS); ProFTPD's also loads mod_copy,
 * which Debian's 1.3.8 serves only after a login (the CVE-2015-3306 fix),
 * so it is a no-false-alarm case, not a planted weakness. Weak A(2): an
 * anonymous drop box (incoming/ world-writable, STOR allowed). Twin A(100):
 * no anonymous, AUTH TLS required before any login, no mod_copy. ProFTPD's
 * mod_tls is in proftpd-mod-crypto, which .ci/run does not unpack: without
 * it the ProFTPD twin takes logins only from 10.0.0.0/8 (<Limit LOGIN>: a
 * connection from elsewhere is closed before the greeting).
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import {
  PROFTPD as PROFTPD_BIN,
  PROFTPD_TLS,
  PUREFTPD as PUREFTPD_BIN,
  proftpdConf,
  pureFtpdCommand,
  type FtpPlan,
} from '../../../test/helpers/ftp-configs.ts';
import { addr, any, grep, script, type Ctx, type Daemon, type Weakness } from './kit.ts';

const PORT = 21;

function weaknesses(k: number, daemon: string): Weakness[] {
  const at = (n: number) => ({ daemon, address: addr(k, n), port: PORT, proto: 'tcp' as const });
  return [
    {
      id: `${daemon}-anon-read`,
      family: 'auth',
      label: `anonymous FTP login (read) (${daemon})`,
      ...at(1),
      vigil: { id: /^vigil\.ftp\.anonymous$/ },
      nmap: script('ftp-anon', /Anonymous FTP login allowed/),
    },
    {
      id: `${daemon}-cleartext`,
      family: 'cleartext',
      label: `FTP logins without TLS (no AUTH TLS) (${daemon})`,
      ...at(1),
      vigil: { id: /^vigil\.ftp\.cleartext-login$/ },
      nmap: () => null,
    },
    {
      id: `${daemon}-anon-write`,
      family: 'auth',
      label: `anonymous FTP upload (incoming/ writable) (${daemon})`,
      ...at(2),
      vigil: { id: /^vigil\.ftp\.anonymous-write$/ },
      nmap: any(script('ftp-anon', /incoming.*drwxrwxrwx|drwxrwxrwx.*incoming/), grep(/writable/i)),
    },
  ];
}

/** The three configurations of one product on addr(k, 1), addr(k, 2) and addr(k, 100). */
async function startThree(
  ctx: Ctx,
  k: number,
  start: (plan: FtpPlan, label: string) => ReturnType<Ctx['spawn']>,
  modCopy: boolean,
  hardenedByTls: boolean,
): Promise<void> {
  const twin = addr(k, 100);
  const pem = await leaf(twin);
  const certDir = ctx.dir(`${twin}-tls`);
  const tls = {
    cert: ctx.write(join(certDir, 'cert.pem'), pem.cert),
    key: ctx.write(join(certDir, 'key.pem'), pem.key, 0o600),
  };
  const plans: FtpPlan[] = [
    { address: addr(k, 1), port: PORT, dir: ctx.dir(addr(k, 1)), anon: 'read', modCopy },
    { address: addr(k, 2), port: PORT, dir: ctx.dir(addr(k, 2)), anon: 'write' },
    hardenedByTls
      ? { address: twin, port: PORT, dir: ctx.dir(twin), anon: 'off', tls }
      : { address: twin, port: PORT, dir: ctx.dir(twin), anon: 'off', loginsFrom: '10.0.0.0/8' },
  ];
  for (const plan of plans) await ctx.waitTcp(plan.address, PORT, start(plan, plan.address));
}

const K_PROFTPD = 96;
export const PROFTPD: Daemon = {
  kind: 'proftpd',
  // Found on PATH: .ci/run links the unpacked binaries into /usr/local/sbin, which kit.ts's which() omits.
  binaries: [PROFTPD_BIN ?? 'proftpd'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: weaknesses(K_PROFTPD, 'proftpd'),
  twins: [
    {
      address: addr(K_PROFTPD, 100),
      note: PROFTPD_TLS
        ? 'ProFTPD: no <Anonymous>, TLSRequired on, mod_copy not loaded'
        : 'ProFTPD: no <Anonymous>, logins only from 10.0.0.0/8 (no mod_tls here), mod_copy not loaded',
    },
  ],
  start: (ctx) =>
    startThree(
      ctx,
      K_PROFTPD,
      (plan, label) => ctx.spawn(`proftpd-${label}`, PROFTPD_BIN ?? 'proftpd', ['-n', '-q', '-c', proftpdConf(plan)]),
      true,
      PROFTPD_TLS,
    ),
};

const K_PUREFTPD = 97;
export const PUREFTPD: Daemon = {
  kind: 'pure-ftpd',
  binaries: [PUREFTPD_BIN ?? 'pure-ftpd'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: weaknesses(K_PUREFTPD, 'pure-ftpd'),
  twins: [{ address: addr(K_PUREFTPD, 100), note: 'Pure-FTPd: -E (no anonymous), --tls 2 (cleartext logins refused)' }],
  start: (ctx) =>
    startThree(
      ctx,
      K_PUREFTPD,
      (plan, label) => {
        const [cmd, args] = pureFtpdCommand(plan);
        return ctx.spawn(`pure-ftpd-${label}`, cmd, args);
      },
      false,
      true,
    ),
};
