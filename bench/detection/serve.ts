/**
 * Child process of bench/detection.ts: starts every target and twin,
 * prints one JSON line {ready, notes, pids} on stdout, and closes them all
 * on SIGTERM/SIGINT or when the parent goes away (stdin ends). Kept out
 * of the parent so that the targets never wait on the scanner's event loop.
 */
import { leaf } from './certs.ts';
import { bindUdp, listen, type Running } from './net.ts';
import { NGINX, startNginx, type NginxSite } from './nginx.ts';
import { TWINS, WEAKNESSES, type Kind } from './plan.ts';
import { ftpTarget, memcachedTarget, sshTarget, telnetTarget, vncTarget } from './lines.ts';
import { dnsTcpTarget, dnsUdpTarget, mongoTarget, redisTarget, smtpTarget } from './stores.ts';
import { httpsTarget, httpTarget } from './web.ts';
import { existsSync } from 'node:fs';
import type { Server } from 'node:net';

const running: Running[] = [];
const notes: string[] = [];
const pids: number[] = [];

/** Starts one kind on one address; `weak` names the planted weakness, null for the hardened twin. */
async function start(kind: Kind, address: string, weak: string | null): Promise<void> {
  const on = (label: string, server: Server, port: number) => listen(`${label}@${address}:${port}`, server, address, port).then((r) => void running.push(r));
  switch (kind) {
    case 'http':
      return on('http', httpTarget({
        ...(weak === 'apache-2.4.49' ? { server: 'Apache/2.4.49 (Unix)' } : {}),
        ...(weak === 'php-5.6.40' ? { poweredBy: 'PHP/5.6.40' } : {}),
        trace: weak === 'http-trace',
      }), 80);
    case 'https': {
      const pem = await leaf(address, {
        expired: weak === 'cert-expired',
        selfSigned: weak === 'cert-self-signed',
        keySize: weak === 'cert-1024' ? 1024 : 2048,
        algorithm: weak === 'cert-sha1' ? 'sha1' : 'sha256',
      });
      return on('https', httpsTarget({ ...pem, tls10: weak === 'tls10', hsts: weak !== 'hsts-missing', weakCert: weak === 'cert-1024' || weak === 'cert-sha1' }), 443);
    }
    case 'ftp':
      return on('ftp', ftpTarget({ banner: weak === 'vsftpd-2.3.4' ? '(vsFTPd 2.3.4)' : '(vsFTPd 3.0.5)', anonymous: weak === 'ftp-anon' }), 21);
    case 'ssh':
      return weak === 'openssh-7.4'
        ? on('ssh', sshTarget({ ident: 'SSH-2.0-OpenSSH_7.4', strictKex: false }), 22)
        : on('ssh', sshTarget({ ident: 'SSH-2.0-OpenSSH_10.0p2', strictKex: true }), 22);
    case 'telnet':
      if (weak) return on('telnet', telnetTarget(), 23);
      return; // twin: the SSH twin on the same address stands in for a console done right
    case 'smtp': {
      const pem = await leaf(address);
      const smtp = smtpTarget({ ...pem, banner: weak === 'exim-4.89' ? 'Exim 4.89 Mon, 01 Jan 2024 00:00:00 +0000' : 'Exim 4.99.3 Mon, 01 Jan 2024 00:00:00 +0000', relay: weak === 'smtp-relay' });
      return on('smtp', smtp.server as unknown as Server, 25);
    }
    case 'dns': {
      const recursion = weak === 'dns-recursion';
      running.push(await bindUdp(`dns/udp@${address}:53`, dnsUdpTarget({ recursion }), address, 53));
      return on('dns/tcp', dnsTcpTarget({ recursion }), 53);
    }
    case 'redis':
      return on('redis', redisTarget({ auth: !weak }), 6379);
    case 'memcached':
      if (weak) return on('memcached', memcachedTarget(), 11211);
      return; // twin: memcached bound to a private socket, nothing on this address
    case 'vnc':
      return on('vnc', vncTarget({ noAuth: !!weak }), 5900);
    case 'mongodb':
      return on('mongodb', mongoTarget({ auth: !weak }), 27017);
    case 'nginx':
      throw new Error('nginx sites start together');
  }
}

async function startAll(): Promise<void> {
  const sites: NginxSite[] = [
    ...WEAKNESSES.filter((x) => x.kind === 'nginx').map((x) => ({ address: x.address, kind: x.id === 'dir-listing' ? 'dirlist' as const : x.id === 'git-exposed' ? 'git' as const : 'env' as const })),
    { address: TWINS.nginx, kind: 'hardened' },
  ];
  let nginxOk = false;
  if (NGINX) {
    try {
      const n = await startNginx(sites);
      running.push(n);
      pids.push(n.pid);
      nginxOk = true;
      notes.push(`nginx targets: real Debian nginx (${NGINX})`);
    } catch (err) {
      notes.push(`nginx failed to start (${(err as Error).message}); nginx targets fall back to a Node imitation`);
    }
  } else notes.push('nginx not installed; nginx targets fall back to a Node imitation');
  if (!nginxOk) {
    const { nodeNginx } = await import('./nginx-fallback.ts');
    for (const s of sites) running.push(await listen(`nginx-imitation@${s.address}:80`, nodeNginx(s.kind), s.address, 80));
  }
  for (const x of WEAKNESSES) if (x.kind !== 'nginx') await start(x.kind, x.address, x.id);
  for (const [kind, address] of Object.entries(TWINS) as [Kind, string][]) if (kind !== 'nginx') await start(kind, address, null);
  for (const svc of ['redis-server', 'memcached', 'vsftpd', 'sshd', 'mongod', 'exim4', 'in.telnetd', 'x11vnc'])
    notes.push(`${svc}: Node imitation (${svc} ${commandExists(svc) ? 'installed but not used' : 'not installed'})`);
}

const commandExists = (name: string) => ['/usr/sbin/', '/usr/bin/', '/sbin/', '/bin/'].some((d) => existsSync(d + name));

let closing = false;
async function closeAll(code: number): Promise<never> {
  if (!closing) {
    closing = true;
    await Promise.race([Promise.allSettled(running.map((r) => r.close())), new Promise((r) => setTimeout(r, 5000))]);
  }
  process.exit(code);
}

// A scanner's odd input must cost one connection, never the whole target set.
process.on('uncaughtException', (err) => process.stderr.write(`bench target error (kept serving): ${err.message}\n`));
process.on('SIGTERM', () => void closeAll(0));
process.on('SIGINT', () => void closeAll(0));
process.stdin.on('end', () => void closeAll(0));
process.stdin.resume();

try {
  await startAll();
  process.stdout.write(`${JSON.stringify({ ready: true, notes, pids, listeners: running.map((r) => r.label) })}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ ready: false, error: String((err as Error).stack ?? err) })}\n`);
  await closeAll(1);
}
