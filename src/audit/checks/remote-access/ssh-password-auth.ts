import { defineCheck } from '../kit.ts';
import { sshAuthMethods } from '../../proto/ssh.ts';

/**
 * SSH that accepts passwords, reported as information the way scanners do
 * (OpenVAS "SSH Password Authentication Enabled", Nessus 149334): password
 * logins invite guessing where keys would not. The server's own answer to a
 * "none" userauth request (RFC 4252 §5.2) lists the methods that can
 * continue, e.g. "publickey,password"; a random user name is used and no
 * password is ever sent. The SSH transport (key exchange, encryption) is the
 * ssh2 library's, over a socket the fence opened.
 */
export default defineCheck({
  id: 'vigil.ssh.password-auth',
  shortid: 'SSH-PASSWORD',
  title: 'SSH server accepts password authentication',
  family: 'Remote Access',
  categories: ['safe', 'auth', 'default'],
  risk: 'other',
  type: 'LOG',
  qod: 95,
  description:
    'The SSH server offers password (or keyboard-interactive) logins: accounts can be guessed from the network, and a password typed into a spoofed host key prompt is disclosed. Reported as information, as other scanners do.',
  solution:
    'Use keys: set PasswordAuthentication no and KbdInteractiveAuthentication no in sshd_config, after every user has a key.',
  ports: { services: ['ssh'], ports: [22] },
  run: async ({ net, port }) => {
    const methods = await sshAuthMethods(net, port);
    if (!methods) return null;
    if (methods.includes('none')) return 'the "none" method logged a random user in: no authentication at all';
    const weak = methods.filter((m) => m === 'password' || m === 'keyboard-interactive');
    return weak.length ? `methods offered after "none": ${methods.join(',')}` : null;
  },
});
