/**
 * VNC checks on two more real VNC servers than x11vnc (remote-makes.test.ts):
 * TigerVNC's Xvnc and TightVNC's Xtightvnc, each its own X server (display
 * number = its RFB port, unique while the port is ours; X11 on the Unix
 * socket only). Weak: Xvnc offering only VeNCrypt's TLSNone (no
 * authentication behind TLS), Xtightvnc without a password. Twins: Xvnc
 * with X509Vnc (certificate and password), Xvnc's default TLSVnc,VncAuth
 * with a password, Xtightvnc -rfbauth. One server each for the whole file.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { certificate, hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { checkById } from '../catalogue.ts';

const ADDR = (n: number) => `127.14.124.${n}`;
const XVNC = which('Xvnc') && which('tigervncpasswd') && which('openssl');
const TIGHT = which('Xtightvnc') && which('tigervncpasswd');

const run = (id: string, n: number, port: number) =>
  checkById(id).runOn(hostOf(ADDR(n), [service(port, 'vnc')]), netFor(ADDR(n)));
const ids = async (n: number, port: number) => {
  const out: string[] = [];
  for (const id of ['vigil.vnc.noauth', 'vigil.vnc.unencrypted']) if ((await run(id, n, port)).length) out.push(id);
  return out;
};

const x = (n: number, cmd: string, args: string[]) =>
  daemon(ADDR(n), cmd, (port) => [
    `:${port}`,
    '-interface',
    ADDR(n),
    '-rfbport',
    String(port),
    '-nolisten',
    'tcp',
    ...args,
  ]);

const ports: Record<string, number> = {};
before(async () => {
  const dir = tempDir('vnc-makes');
  const passwd = join(dir, 'passwd');
  let key = '';
  let cert = '';
  if (XVNC || TIGHT)
    execFileSync('sh', ['-c', `printf '%s\\n' a-vnc-test | tigervncpasswd -f > ${passwd} && chmod 600 ${passwd}`]);
  const starts: Promise<void>[] = [];
  const start = (name: string, p: Promise<number>) => starts.push(p.then((port) => void (ports[name] = port)));
  if (XVNC) {
    ({ key, cert } = certificate(dir, { cn: 'vnc-test' }));
    start('tlsnone', x(1, 'Xvnc', ['-SecurityTypes', 'TLSNone']));
    start(
      'x509',
      x(100, 'Xvnc', ['-SecurityTypes', 'X509Vnc', '-X509Key', key, '-X509Cert', cert, '-PasswordFile', passwd]),
    );
    start('vncauth', x(101, 'Xvnc', ['-PasswordFile', passwd]));
  }
  if (TIGHT) {
    start('tight', x(2, 'Xtightvnc', []));
    start('tightauth', x(102, 'Xtightvnc', ['-rfbauth', passwd]));
  }
  await Promise.all(starts);
});

test('TigerVNC: TLSNone behind VeNCrypt is a HOLE; X509Vnc is silent; TLSVnc,VncAuth only the unencrypted LOG', {
  skip: XVNC ? false : 'needs TigerVNC (Xvnc, tigervncpasswd) and openssl',
}, async () => {
  const [open] = await run('vigil.vnc.noauth', 1, ports.tlsnone!);
  assert.match(
    open!.detail,
    /19 VeNCrypt \(sub-types 257 TLSNone\); without authentication: 257 = TLSNone \(sub-types read after choosing VeNCrypt 0\.2, before any TLS handshake\)$/,
  );
  assert.deepEqual(await ids(100, ports.x509!), []);
  const [clear] = await run('vigil.vnc.unencrypted', 101, ports.vncauth!);
  assert.match(
    clear!.detail,
    /^security types offered: 19 VeNCrypt \(sub-types 258 TLSVnc, 2 VncAuth\), 2 VncAuth; without encryption: 2 VncAuth$/,
  );
  assert.deepEqual(await ids(101, ports.vncauth!), ['vigil.vnc.unencrypted']);
  assert.equal(checkById('vigil.vnc.unencrypted').type, 'LOG');
});

test('TightVNC: no password offers None (a HOLE); -rfbauth offers VNC Authentication only (the LOG)', {
  skip: TIGHT ? false : 'needs TightVNC (Xtightvnc) and tigervncpasswd',
}, async () => {
  const [open] = await run('vigil.vnc.noauth', 2, ports.tight!);
  assert.match(
    open!.detail,
    /: 1 None, 16 Tight; without authentication: 1 = None; None chosen, SecurityResult OK \(closed before ClientInit\)$/,
  );
  assert.deepEqual(await ids(102, ports.tightauth!), ['vigil.vnc.unencrypted']);
});
