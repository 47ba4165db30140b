/**
 * TLS on port 443: Debian nginx with one certificate or protocol weakness
 * per site (a bench CA signs every leaf but the self-signed one, each leaf
 * names its address), and `openssl s_server` for client-initiated
 * renegotiation (nginx and Apache refuse it; OpenSSL 3's s_server too
 * unless given -client_renegotiation, s_server(1)). OpenSSL 3 refuses TLS 1.0/1.1 and 1024-bit
 * DH at its default security level 2, so the weak sites say @SECLEVEL=0.
 */
import { join } from 'node:path';
import { leaf, type LeafOptions } from '../certs.ts';
import { addr, any, grep, none, script, type Daemon, type Weakness } from './kit.ts';
import type { NmapPort } from '../nmap.ts';
import { HEADERS, INDEX, LIMITS, startNginx } from './nginx-proc.ts';

const K = 3;
const DAY = 86_400_000;
const notAfter = (p: NmapPort) => {
  const m = /Not valid after:\s*(\S+)/.exec(p.scripts.find((s) => s.id === 'ssl-cert')?.output ?? '');
  return m ? Date.parse(m[1]!.endsWith('Z') ? m[1]! : `${m[1]}Z`) : NaN;
};
const certIf = (ok: (t: number) => boolean) => (p: NmapPort) =>
  ok(notAfter(p)) ? `ssl-cert: not valid after ${new Date(notAfter(p)).toISOString()}` : null;
const selfSigned = (p: NmapPort) => {
  const out = p.scripts.find((s) => s.id === 'ssl-cert')?.output ?? '';
  const subject = /^Subject: (.*)$/m.exec(out)?.[1];
  return subject && subject === /^Issuer: (.*)$/m.exec(out)?.[1] ? `ssl-cert: Issuer = Subject (${subject})` : null;
};
const HSTS = 'add_header Strict-Transport-Security "max-age=31536000" always;';
const GOOD = 'ssl_protocols TLSv1.2 TLSv1.3;';

interface Site {
  n: number;
  id: string;
  family: Weakness['family'];
  label: string;
  cert?: LeafOptions;
  conf: string;
  text: RegExp;
  nmap: Weakness['nmap'];
}
const SITES: Site[] = [
  {
    n: 1,
    id: 'tls-cert-expired',
    family: 'tls',
    label: 'certificate expired',
    cert: { expired: true },
    conf: `${GOOD} ${HSTS}`,
    text: /expired/i,
    nmap: certIf((t) => t < Date.now()),
  },
  {
    n: 2,
    id: 'tls-cert-expiring',
    family: 'tls',
    label: 'certificate expires in 10 days',
    cert: { expiresInDays: 10 },
    conf: `${GOOD} ${HSTS}`,
    text: /expir/i,
    nmap: certIf((t) => t > Date.now() && t < Date.now() + 30 * DAY),
  },
  {
    n: 3,
    id: 'tls-self-signed',
    family: 'tls',
    label: 'self-signed certificate',
    cert: { selfSigned: true },
    conf: `${GOOD} ${HSTS}`,
    text: /self.?signed/i,
    nmap: selfSigned,
  },
  {
    n: 4,
    id: 'tls-weak-dh',
    family: 'tls',
    label: 'DHE with a 1024-bit group (ssl_dhparam 1024)',
    conf: `${HSTS} ssl_protocols TLSv1.2 TLSv1.3; ssl_dhparam DH1024; ssl_ciphers ECDHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:@SECLEVEL=0;`,
    text: /diffie|\bdh\b|dhe|logjam/i,
    nmap: any(script('ssl-dh-params', /WEAK DH|VULNERABLE|1024/), grep(/DH 1024|dh 1024/i)),
  },
  {
    n: 5,
    id: 'tls-tls10',
    family: 'tls',
    label: 'TLS 1.0 accepted',
    conf: `${HSTS} ssl_protocols TLSv1 TLSv1.2 TLSv1.3; ssl_ciphers DEFAULT:@SECLEVEL=0;`,
    text: /tls ?1\.0|tlsv1(\.0)?\b|tls10/i,
    nmap: grep(/TLSv1\.0:/),
  },
  {
    n: 6,
    id: 'tls-tls11',
    family: 'tls',
    label: 'TLS 1.1 accepted',
    conf: `${HSTS} ssl_protocols TLSv1.1 TLSv1.2 TLSv1.3; ssl_ciphers DEFAULT:@SECLEVEL=0;`,
    text: /tls ?1\.1|tlsv1\.1|tls11/i,
    nmap: grep(/TLSv1\.1:/),
  },
  {
    n: 7,
    id: 'tls-rsa-1024',
    family: 'tls',
    label: '1024-bit RSA key',
    cert: { keySize: 1024 },
    conf: `${HSTS} ${GOOD} ssl_ciphers DEFAULT:@SECLEVEL=0;`,
    text: /1024|weak key|key size/i,
    nmap: grep(/Public Key bits: 1024/),
  },
  {
    n: 8,
    id: 'tls-sha1',
    family: 'tls',
    label: 'SHA-1 certificate signature',
    cert: { algorithm: 'sha1' },
    conf: `${HSTS} ${GOOD} ssl_ciphers DEFAULT:@SECLEVEL=0;`,
    text: /sha-?1/i,
    nmap: grep(/sha1WithRSAEncryption/),
  },
  {
    n: 9,
    id: 'tls-no-hsts',
    family: 'tls',
    label: 'HTTPS without HSTS',
    conf: GOOD,
    text: /hsts|strict-transport/i,
    nmap: grep(/HSTS not configured/),
  },
  {
    n: 10,
    id: 'web-cookie-flags',
    family: 'web',
    label: 'session cookie without Secure and HttpOnly (HTTPS)',
    conf: `${GOOD} ${HSTS} add_header Set-Cookie "SESSIONID=b3f1c2d4e5; Path=/" always;`,
    text: /cookie|httponly|secure flag/i,
    nmap: script('http-cookie-flags', /flag not set/),
  },
];

const RENEG = { n: 11, id: 'dos-tls-renegotiation', label: 'client-initiated TLS renegotiation (openssl s_server)' };

export const TLS: Daemon = {
  kind: 'tls',
  binaries: ['nginx', 'openssl'],
  ports: { tcp: [443], udp: [] },
  weaknesses: [
    ...SITES.map(
      (s): Weakness => ({
        id: s.id,
        family: s.family,
        label: s.label,
        daemon: 'nginx (TLS)',
        address: addr(K, s.n),
        port: 443,
        proto: 'tcp',
        vigil: { text: s.text },
        nmap: s.nmap,
      }),
    ),
    {
      id: RENEG.id,
      family: 'dos',
      label: RENEG.label,
      daemon: 'openssl s_server',
      address: addr(K, RENEG.n),
      port: 443,
      proto: 'tcp',
      vigil: { text: /renegotiat/i },
      nmap: none,
    },
  ],
  twins: [
    {
      address: addr(K, 100),
      note: 'CA-signed 2048-bit certificate, TLS 1.2/1.3, HSTS, Secure+HttpOnly cookie, Basic auth on /admin/ over HTTPS only, CORS for one fixed origin, no client renegotiation',
    },
  ],
  async start(ctx) {
    const root = ctx.dir('nginx');
    const dh = join(root, 'dh1024.pem');
    ctx.run('openssl', ['dhparam', '-out', dh, '1024']);
    const users = ctx.write(join(root, 'htpasswd.users'), 'admin:$apr1$bench$0uEJq3A1mzK4FqN1vnBfV.\n');
    const servers: string[] = [];
    const certFor = async (address: string, o: LeafOptions = {}) => {
      const pem = await leaf(address, o);
      return [
        ctx.write(join(root, `${address}.crt`), pem.cert),
        ctx.write(join(root, `${address}.key`), pem.key, 0o600),
      ] as const;
    };
    const site = async (address: string, cert: LeafOptions | undefined, conf: string) => {
      const [crt, key] = await certFor(address, cert);
      const dir = ctx.dir(`www-${address}`);
      ctx.write(join(dir, 'index.html'), INDEX);
      ctx.write(join(dir, 'admin/index.html'), INDEX);
      servers.push(
        `server { listen ${address}:443 ssl; ssl_certificate ${crt}; ssl_certificate_key ${key}; root ${dir}; ${HEADERS} ${LIMITS} ${conf.replace('DH1024', dh)} location ~ /\\. { return 404; } }`,
      );
    };
    for (const s of SITES) await site(addr(K, s.n), s.cert, s.conf);
    await site(
      addr(K, 100),
      {},
      `${GOOD} ${HSTS} add_header Set-Cookie "SESSIONID=b3f1c2d4e5; Path=/; Secure; HttpOnly; SameSite=Lax" always; add_header Access-Control-Allow-Origin https://shop.example.test always; location /admin/ { auth_basic "Shop admin"; auth_basic_user_file ${users}; }`,
    );
    await startNginx(ctx, root, servers, [
      ...SITES.map((s) => [addr(K, s.n), 443] as [string, number]),
      [addr(K, 100), 443],
    ]);

    const [crt, key] = await certFor(addr(K, RENEG.n));
    const child = ctx.spawn('s_server', 'openssl', [
      's_server',
      '-quiet',
      '-accept',
      `${addr(K, RENEG.n)}:443`,
      '-cert',
      crt,
      '-key',
      key,
      '-www',
      '-tls1_2',
      '-client_renegotiation',
    ]);
    await ctx.waitTcp(addr(K, RENEG.n), 443, child);
  },
};
