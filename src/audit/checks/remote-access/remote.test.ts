import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Fence } from '../../engine/fence.ts';
import type { Check, HostFacts, Service } from '../../engine/types.ts';
import { checkById } from '../catalogue.ts';

const rdpExposed = checkById('vigil.rdp.exposed');
const sshProtocol1 = checkById('vigil.ssh.protocol1');
const sshWeakAlgorithms = checkById('vigil.ssh.weak-algorithms');
const telnetOpen = checkById('vigil.telnet.open');
const vncExposed = checkById('vigil.vnc.exposed');
const vncNoAuth = checkById('vigil.vnc.noauth');
const vncUnencrypted = checkById('vigil.vnc.unencrypted');
const smbV1 = checkById('vigil.smb.v1');

const ADDR = '127.0.0.32';
const net = new Fence([ADDR], ['127.0.0.0/8']).net(ADDR);
const cleanup: (() => unknown)[] = [];
after(async () => {
  for (const c of cleanup.reverse()) await c();
});

const service = (port: number, name: string, more: Partial<Service> = {}): Service => ({
  port,
  protocol: 'tcp',
  name,
  product: null,
  version: null,
  banner: null,
  tls: null,
  http: null,
  extra: {},
  ...more,
});
const host = (...services: Service[]): HostFacts => ({
  address: ADDR,
  openPorts: services.map((s) => s.port),
  services,
});
const flagged = async (check: Check, h: HostFacts) => (await check.runOn(h, net)).length > 0;

/** A server whose connection handler the test writes. */
async function tcp(onConnect: (s: Socket) => void): Promise<number> {
  const server = createServer((s) => {
    s.on('error', () => {});
    onConnect(s);
  });
  await new Promise<void>((res) => server.listen(0, ADDR, res));
  cleanup.push(() => {
    server.close();
  });
  return (server.address() as { port: number }).port;
}

describe('remote access checks', () => {
  test('Telnet: IAC negotiation is flagged, an SSH greeting on the same port number is not', async () => {
    const telnet = await tcp((s) => s.write(Buffer.from([255, 253, 24, 255, 253, 32])));
    // Named by detection: flagged from the facts; on the usual port 23 unnamed, the check probes for IAC itself.
    assert.ok(await flagged(telnetOpen, host(service(telnet, 'telnet'))));
    assert.ok(
      !(await flagged(telnetOpen, host(service(telnet, 'unknown')))),
      'an unnamed port that is not 23 or 2323 is not probed',
    );
    const ssh = await tcp((s) => s.write('SSH-2.0-OpenSSH_9.2p1\r\n'));
    assert.ok(!(await flagged(telnetOpen, host(service(ssh, 'ssh')))));
  });

  test('SSH protocol 1 from the identification line', async () => {
    assert.ok(await flagged(sshProtocol1, host(service(22, 'ssh', { banner: 'SSH-1.99-OpenSSH_3.9p1' }))));
    assert.ok(await flagged(sshProtocol1, host(service(22, 'ssh', { banner: 'SSH-1.5-1.2.27' }))));
    assert.ok(!(await flagged(sshProtocol1, host(service(22, 'ssh', { banner: 'SSH-2.0-OpenSSH_9.2p1' })))));
  });

  test('SSH weak algorithms: a real sshd with CBC ciphers and SHA-1 kex vs a hardened one', {
    skip: !hasSshd() && 'sshd not installed',
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-sshd-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync('/run/sshd', { recursive: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'key')]);
    const start = async (name: string, extra: string) => {
      const port = await freePort();
      const config = join(dir, `${name}.conf`);
      writeFileSync(
        config,
        `Port ${port}\nListenAddress ${ADDR}\nHostKey ${join(dir, 'key')}\nPidFile ${join(dir, name)}.pid\nUsePAM no\nStrictModes no\n${extra}\n`,
      );
      const p = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: 'ignore' });
      cleanup.push(() => p.kill('SIGKILL'));
      for (let i = 0; i < 100 && !(await listening(port)); i++) await new Promise((r) => setTimeout(r, 50));
      return port;
    };
    const weak = await start(
      'weak',
      'Ciphers aes128-cbc,aes128-ctr\nKexAlgorithms diffie-hellman-group1-sha1,diffie-hellman-group14-sha1,curve25519-sha256\nMACs hmac-sha1-96,hmac-sha2-256',
    );
    const strong = await start(
      'strong',
      'Ciphers chacha20-poly1305@openssh.com,aes256-gcm@openssh.com\nKexAlgorithms curve25519-sha256\nMACs hmac-sha2-256-etm@openssh.com',
    );
    const [f] = await sshWeakAlgorithms.runOn(host(service(weak, 'ssh')), net);
    assert.match(f!.detail, /kex diffie-hellman-group1-sha1/);
    // RFC 9142 §4 keeps group14-sha1 at MAY (Dropbear offers it and cannot turn it off): not reported.
    assert.doesNotMatch(f!.detail, /group14-sha1/);
    assert.match(f!.detail, /cipher aes128-cbc/);
    assert.match(f!.detail, /mac hmac-sha1-96/);
    assert.ok(!(await flagged(sshWeakAlgorithms, host(service(strong, 'ssh')))));
  });

  test('VNC: None is a HOLE, unencrypted VNC authentication information (LOG), VeNCrypt only neither; reachability is a LOG', async () => {
    const vnc = (types: number[]) =>
      tcp((s) => {
        s.write('RFB 003.008\n');
        s.once('data', () => s.write(Buffer.from([types.length, ...types])));
      });
    const open = await vnc([1, 2]);
    const locked = await vnc([2]);
    const encrypted = await vnc([19]);
    const [f] = await vncNoAuth.runOn(host(service(open, 'vnc')), net);
    assert.match(f!.detail, /1 = None/);
    assert.ok(!(await flagged(vncNoAuth, host(service(locked, 'vnc')))));
    assert.ok(!(await flagged(vncNoAuth, host(service(encrypted, 'vnc')))));
    const [u] = await vncUnencrypted.runOn(host(service(locked, 'vnc')), net);
    assert.match(u!.detail, /without encryption: 2/);
    assert.equal(vncUnencrypted.type, 'LOG');
    assert.ok(!(await flagged(vncUnencrypted, host(service(encrypted, 'vnc')))));
    assert.equal(vncExposed.type, 'LOG');
    assert.ok(await flagged(vncExposed, host(service(encrypted, 'vnc', { extra: { protocol: 'RFB 3.8' } }))));
    assert.ok(!(await flagged(vncExposed, host(service(locked, 'http')))));
  });

  test('SMB: an SMB1 negotiate answer is flagged, an SMB2-only answer is not; RDP/SMB exposure from detection', async () => {
    const smb = (v1: boolean) =>
      tcp((s) =>
        s.once('data', () => {
          const body = Buffer.alloc(40);
          if (v1) {
            body.write('\xffSMB', 0, 'latin1');
            body[4] = 0x72;
            body.writeUInt32LE(0, 5);
            body.writeUInt16LE(0, 33); // dialect index 0: NT LM 0.12
          } else {
            body.write('\xfeSMB', 0, 'latin1');
          }
          s.write(Buffer.concat([Buffer.from([0, 0, 0, body.length]), body]));
        }),
      );
    assert.ok(await flagged(smbV1, host(service(await smb(true), 'microsoft-ds'))));
    assert.ok(!(await flagged(smbV1, host(service(await smb(false), 'microsoft-ds')))));
    assert.ok(await flagged(rdpExposed, host(service(3389, 'ms-wbt-server'))));
    assert.equal(rdpExposed.type, 'LOG');
    assert.ok(!(await flagged(rdpExposed, host(service(3390, 'http')))));
  });
});

function hasSshd(): boolean {
  try {
    execFileSync('sh', ['-c', 'test -x /usr/sbin/sshd && command -v ssh-keygen']);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, ADDR, () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createServer();
    s.once('error', () => res(true));
    s.listen(port, ADDR, () => s.close(() => res(false)));
  });
}
