/**
 * The targets of the emulated WAN (netns.ts), run inside its targets'
 * namespace: small servers that speak real banners on their addresses.
 *   node --import tsx bench/wan/targets.ts '<json: [{address, services: [{port, kind}]}]>'
 * Prints "ready" when every server listens.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as http } from 'node:http';
import { createServer as tcp, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as tls } from 'node:tls';

export type Kind = 'http' | 'ssh' | 'smtp' | 'tls';
export interface TargetHost {
  address: string;
  services: { port: number; kind: Kind }[];
}

function certificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-wan-'));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '7',
      '-subj',
      '/CN=wan.test',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

const page = (_q: unknown, r: { setHeader(n: string, v: string): void; end(b: string): void }) => {
  r.setHeader('Server', 'nginx/1.18.0');
  r.end('<html><body>wan target</body></html>\n');
};

function greeter(banner: string, reply: (line: string, s: Socket) => void) {
  return tcp((s) => {
    s.on('error', () => {});
    s.write(banner);
    let buf = '';
    s.on('data', (d) => {
      buf += d.toString('latin1');
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        reply(buf.slice(0, i).trim(), s);
        buf = buf.slice(i + 1);
      }
    });
  });
}

const hosts = JSON.parse(process.argv[2] ?? '[]') as TargetHost[];
const tlsKeys = hosts.some((h) => h.services.some((s) => s.kind === 'tls')) ? certificate() : null;
const listening: Promise<void>[] = [];
for (const h of hosts)
  for (const svc of h.services) {
    const server =
      svc.kind === 'http'
        ? http(page)
        : svc.kind === 'tls'
          ? tls(tlsKeys!, (s) => {
              s.on('error', () => {});
              s.once('data', () => s.end('HTTP/1.1 200 OK\r\nServer: nginx/1.18.0\r\nContent-Length: 3\r\n\r\nok\n'));
            })
          : svc.kind === 'ssh'
            ? greeter('SSH-2.0-OpenSSH_8.4p1 Debian-5+deb11u1\r\n', (_l, s) => s.end())
            : greeter('220 mail.wan.test ESMTP Postfix (Debian/GNU)\r\n', (l, s) =>
                /^quit/i.test(l)
                  ? s.end('221 2.0.0 Bye\r\n')
                  : s.write(/^(ehlo|helo)/i.test(l) ? '250-mail.wan.test\r\n250 STARTTLS\r\n' : '502 5.5.2 Error\r\n'),
              );
    server.on('error', (e) => {
      console.error(`${h.address}:${svc.port}: ${e.message}`);
      process.exit(1);
    });
    listening.push(new Promise((r) => server.listen(svc.port, h.address, () => r())));
  }
await Promise.all(listening);
console.log('ready');
