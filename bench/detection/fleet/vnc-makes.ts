/**
 * VNC servers of two more makes than x11vnc, each its own X server:
 * TigerVNC's Xvnc (1.12) and TightVNC's Xtightvnc (1.3.10), on port 5900 of
 * their own address (-interface), X11 on their Unix socket only
 * (-nolisten tcp), displays :1201-:1206 (high, away from the other X
 * servers of the bench and the tests).
 * - Weak 1: Xvnc -SecurityTypes None (RFB security type 1).
 * - Weak 2: Xvnc -SecurityTypes TLSNone: only VeNCrypt (19) is offered,
 *   and its one sub-type, 257 TLSNone, is TLS without authentication.
 * - Weak 3: Xtightvnc without -rfbauth: types 1 (None) and 16 (Tight).
 * - Twin 100: Xvnc's default TLSVnc,VncAuth with a password (VncAuth in
 *   clear is information, a LOG, never an alarm: vnc-unencrypted.ts).
 * - Twin 101: Xvnc -SecurityTypes X509Vnc (a certificate and a password):
 *   not even the LOG about unencrypted sessions.
 * - Twin 102: Xtightvnc -rfbauth (types 2 and 16).
 */
import { join } from 'node:path';
import { addr, script, svc, type Daemon } from './kit.ts';

const K = 120;
const A = (n: number) => addr(K, n);
const PORT = 5900;

const noauth = (n: number, label: string, daemon: string, nmap: RegExp) => ({
  id: `vnc-noauth-${daemon.toLowerCase()}-${n}`,
  family: 'auth' as const,
  label,
  daemon,
  address: A(n),
  port: PORT,
  proto: 'tcp' as const,
  vigil: { id: /^vigil\.vnc\.noauth$/ },
  nmap: script('vnc-info', nmap),
});

export const VNC_MAKES: Daemon = {
  kind: 'vnc-makes',
  binaries: ['Xvnc', 'Xtightvnc', 'tigervncpasswd', 'openssl'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    noauth(1, 'TigerVNC Xvnc with -SecurityTypes None', 'Xvnc', /None \(1\)|does not require authentication/),
    noauth(2, 'TigerVNC Xvnc with -SecurityTypes TLSNone (VeNCrypt without authentication)', 'Xvnc', /TLSNone|None/),
    noauth(3, 'TightVNC Xtightvnc without -rfbauth', 'Xtightvnc', /None \(1\)|does not require authentication/),
    {
      id: 'ident-vnc-xvnc',
      family: 'ident',
      label: 'TigerVNC Xvnc named as VNC by service detection',
      daemon: 'Xvnc',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { service: /^vnc$/i },
      nmap: svc(/^vnc/),
    },
  ],
  twins: [
    { address: A(100), note: 'Xvnc, TLSVnc,VncAuth (the default) with a password' },
    { address: A(101), note: 'Xvnc, X509Vnc only: a certificate and a password' },
    { address: A(102), note: 'Xtightvnc with -rfbauth (VNC Authentication)' },
  ],
  async start(ctx) {
    const dir = ctx.dir('vnc-makes');
    const passwd = join(dir, 'passwd');
    // The password file both makes read: DES-obfuscated, 8 bytes (TigerVNC's and TightVNC's format alike).
    ctx.run('sh', ['-c', `printf '%s\\n' a-vnc-bench | tigervncpasswd -f > ${passwd} && chmod 600 ${passwd}`]);
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    ctx.run('openssl', [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=vnc-bench'],
      ...['-keyout', key, '-out', cert],
    ]);
    const runs: [number, string, string[]][] = [
      [1, 'Xvnc', ['-SecurityTypes', 'None']],
      [2, 'Xvnc', ['-SecurityTypes', 'TLSNone']],
      [3, 'Xtightvnc', []],
      [100, 'Xvnc', ['-PasswordFile', passwd]],
      [101, 'Xvnc', ['-SecurityTypes', 'X509Vnc', '-X509Key', key, '-X509Cert', cert, '-PasswordFile', passwd]],
      [102, 'Xtightvnc', ['-rfbauth', passwd]],
    ];
    await Promise.all(
      runs.map(async ([n, cmd, auth], i) => {
        const display = `:${1201 + i}`;
        const child = ctx.spawn(`${cmd}-${A(n)}`, cmd, [
          ...[display, '-interface', A(n), '-rfbport', String(PORT), '-nolisten', 'tcp'],
          ...['-geometry', '640x480', '-depth', '16', ...auth],
        ]);
        await ctx.waitTcp(A(n), PORT, child, 30_000);
      }),
    );
  },
};
