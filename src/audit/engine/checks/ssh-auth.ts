/**
 * SSH that accepts passwords, reported as information the way scanners do
 * (OpenVAS "SSH Password Authentication Enabled", Nessus 149334): password
 * logins invite guessing where keys would not. The server's own answer to a
 * "none" userauth request (RFC 4252 §5.2) lists the methods that can
 * continue, e.g. "publickey,password"; a random user name is used and no
 * password is ever sent. The SSH transport (key exchange, encryption) is the
 * ssh2 library's, over a socket the fence opened.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'ssh2';
import type { Check, Net } from '../types.ts';
import { portCheck, portsOf } from './services-kit.ts';

/** Methods left after "none" (or ['none'] if "none" itself logged us in); null when no SSH session was set up. */
export async function sshAuthMethods(net: Net, port: number): Promise<string[] | null> {
  const sock = await net.connect(port, { timeoutMs: 3000 }).catch(() => null);
  if (!sock) return null;
  return new Promise((resolve) => {
    const client = new Client();
    let methods: string[] | null = null;
    let settled = false;
    const done = (v: string[] | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.end();
      sock.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(methods), 10_000);
    client.on('error', () => done(methods));
    client.on('close', () => done(methods));
    client.on('ready', () => done(['none']));
    const username = `vigil-${randomBytes(4).toString('hex')}`;
    client.connect({
      sock,
      username,
      readyTimeout: 10_000,
      // First call: try "none"; the second call carries the server's list: stop there.
      authHandler: (methodsLeft, _partial, next) => {
        if (methodsLeft === null) return next({ type: 'none', username });
        methods = [...methodsLeft];
        return next(false as never);
      },
    });
  });
}

export const sshPasswordAuth: Check = portCheck(
  {
    id: 'vigil.ssh.password-auth',
    shortid: 'SSH-PASSWORD',
    title: 'SSH server accepts password authentication',
    category: 'Remote Access',
    risk: 'other',
    cves: [],
    type: 'LOG',
    qod: 95,
    description:
      'The SSH server offers password (or keyboard-interactive) logins: accounts can be guessed from the network, and a password typed into a spoofed host key prompt is disclosed. Reported as information, as other scanners do.',
    solution:
      'Use keys: set PasswordAuthentication no and KbdInteractiveAuthentication no in sshd_config, after every user has a key.',
  },
  (h) => portsOf(h, ['ssh'], [22]),
  async (net, port) => {
    const methods = await sshAuthMethods(net, port);
    if (!methods) return null;
    if (methods.includes('none')) return 'the "none" method logged a random user in: no authentication at all';
    const weak = methods.filter((m) => m === 'password' || m === 'keyboard-interactive');
    return weak.length ? `methods offered after "none": ${methods.join(',')}` : null;
  },
);

export const SSH_AUTH_CHECKS: readonly Check[] = [sshPasswordAuth];
