/**
 * Node imitations of line and banner protocols: FTP, SSH (identification
 * and KEXINIT only), Telnet, memcached, VNC (RFB 3.8 handshake).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { onLines } from './net.ts';

/** vsftpd-like FTP: greeting, USER/PASS (anonymous when allowed), PASV + LIST. */
export function ftpTarget(o: { banner: string; anonymous: boolean }): Server {
  return createServer((s) => {
    s.setTimeout(30_000, () => s.destroy());
    let user = '';
    let logged = false;
    let data: Server | null = null;
    const closeData = () => (data?.close(), (data = null));
    s.on('close', closeData);
    const send = (l: string) => !s.destroyed && s.write(`${l}\r\n`);
    send(`220 ${o.banner}`);
    onLines(s, (line) => {
      const [cmd = '', ...rest] = line.split(' ');
      const arg = rest.join(' ');
      switch (cmd.toUpperCase()) {
        case 'USER':
          user = arg;
          return send(o.anonymous && /^(anonymous|ftp)$/i.test(user) ? '331 Please specify the password.' : '331 Please specify the password.');
        case 'PASS':
          logged = o.anonymous && /^(anonymous|ftp)$/i.test(user);
          return send(logged ? '230 Login successful.' : '530 Login incorrect.');
        case 'SYST':
          return send('215 UNIX Type: L8');
        case 'FEAT':
          return send('211-Features:\r\n EPSV\r\n MDTM\r\n PASV\r\n REST STREAM\r\n SIZE\r\n TVFS\r\n UTF8\r\n211 End');
        case 'QUIT':
          send('221 Goodbye.');
          return s.end();
        case 'AUTH':
          return send('530 Please login with USER and PASS.');
      }
      if (!logged) return send('530 Please login with USER and PASS.');
      switch (cmd.toUpperCase()) {
        case 'PWD':
          return send('257 "/" is the current directory');
        case 'TYPE':
          return send('200 Switching to Binary mode.');
        case 'CWD':
          return send('250 Directory successfully changed.');
        case 'PASV': {
          closeData();
          const srv = createServer((d) => {
            d.on('error', () => {});
            srv.emit('client', d);
          });
          data = srv;
          srv.on('error', () => {});
          return srv.listen(0, s.localAddress, () => {
            const port = (srv.address() as AddressInfo).port;
            send(`227 Entering Passive Mode (${s.localAddress!.split('.').join(',')},${port >> 8},${port & 255}).`);
          });
        }
        case 'LIST':
        case 'NLST': {
          const srv = data;
          if (!srv) return send('425 Use PORT or PASV first.');
          send('150 Here comes the directory listing.');
          srv.once('client', (d: Socket) => {
            d.end('-rw-r--r--    1 0        0            1024 Jan 01  2024 README\r\n');
            send('226 Directory send OK.');
            closeData();
          });
          return;
        }
        default:
          return send('500 Unknown command.');
      }
    });
  });
}

function sshString(s: string): Buffer {
  const b = Buffer.alloc(4 + s.length);
  b.writeUInt32BE(s.length, 0);
  b.write(s, 4, 'latin1');
  return b;
}

/** An unencrypted SSH_MSG_KEXINIT binary packet with modern algorithm lists. */
function kexinit(strictKex: boolean): Buffer {
  const lists = [
    `curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp256${strictKex ? ',kex-strict-s-v00@openssh.com' : ''}`,
    'ssh-ed25519,rsa-sha2-512,rsa-sha2-256',
    'aes128-gcm@openssh.com,aes256-gcm@openssh.com,aes128-ctr,aes256-ctr',
    'aes128-gcm@openssh.com,aes256-gcm@openssh.com,aes128-ctr,aes256-ctr',
    'hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com',
    'hmac-sha2-256-etm@openssh.com,hmac-sha2-512-etm@openssh.com',
    'none,zlib@openssh.com',
    'none,zlib@openssh.com',
    '',
    '',
  ];
  const payload = Buffer.concat([Buffer.from([20]), randomBytes(16), ...lists.map(sshString), Buffer.from([0, 0, 0, 0, 0])]);
  let pad = 8 - ((payload.length + 5) % 8);
  if (pad < 4) pad += 8;
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length + pad + 1, 0);
  head[4] = pad;
  return Buffer.concat([head, payload, Buffer.alloc(pad)]);
}

/** Says its identification line and KEXINIT, then waits (no key exchange: banner-level imitation). */
export function sshTarget(o: { ident: string; strictKex: boolean }): Server {
  return createServer((s) => {
    s.setTimeout(15_000, () => s.destroy());
    s.write(`${o.ident}\r\n`);
    s.write(kexinit(o.strictKex));
    s.on('data', () => {});
  });
}

/** A Telnet login prompt after the usual option negotiation. */
export function telnetTarget(): Server {
  const IAC = 0xff, DO = 0xfd, WILL = 0xfb;
  return createServer((s) => {
    s.setTimeout(15_000, () => s.destroy());
    s.write(Buffer.from([IAC, DO, 24, IAC, DO, 32, IAC, DO, 31, IAC, WILL, 1, IAC, WILL, 3]));
    setTimeout(() => !s.destroyed && s.write('\r\nDebian GNU/Linux 12\r\nbench login: '), 50);
    let asked = false;
    s.on('data', (d) => {
      if (d[0] === IAC || !/[\r\n]/.test(d.toString('latin1'))) return;
      s.write(asked ? '\r\nLogin incorrect\r\nbench login: ' : 'Password: ');
      asked = !asked;
    });
  });
}

/** memcached's text protocol: version, stats, get, and ERROR for the rest. */
export function memcachedTarget(): Server {
  return createServer((s) => {
    s.setTimeout(15_000, () => s.destroy());
    onLines(s, (line) => {
      const [cmd = ''] = line.trim().split(/\s+/);
      if (cmd === 'version') return s.write('VERSION 1.6.21\r\n');
      if (cmd === 'stats') return s.write(`STAT pid 4242\r\nSTAT uptime 3600\r\nSTAT time ${Math.floor(Date.now() / 1000)}\r\nSTAT version 1.6.21\r\nSTAT curr_connections 2\r\nSTAT curr_items 0\r\nEND\r\n`);
      if (cmd === 'get' || cmd === 'gets') return s.write('END\r\n');
      if (cmd === 'quit') return s.end();
      if (cmd) s.write('ERROR\r\n');
    });
  });
}

/** RFB 3.8: security type None (1) when open; hardened, VeNCrypt (19) only, the TLS-wrapped handshake. */
export function vncTarget(o: { noAuth: boolean }): Server {
  return createServer((s) => {
    s.setTimeout(15_000, () => s.destroy());
    s.write('RFB 003.008\n');
    let stage = 0;
    s.on('data', (d) => {
      if (stage === 0 && d.length >= 12) {
        stage = 1;
        s.write(Buffer.from([1, o.noAuth ? 1 : 19]));
      } else if (stage === 1) {
        stage = 2;
        if (d[0] === 1 && o.noAuth) return s.write(Buffer.from([0, 0, 0, 0]));
        if (d[0] === 19 && !o.noAuth) return s.write(Buffer.from([0, 2])); // VeNCrypt 0.2; the TLS part is not imitated
        const why = Buffer.from('Security type not offered');
        const len = Buffer.alloc(4);
        len.writeUInt32BE(why.length);
        s.end(Buffer.concat([Buffer.from([0, 0, 0, 1]), len, why]));
      } else if (stage === 2) {
        stage = 3;
        if (!o.noAuth) {
          const why = Buffer.from('Authentication failed');
          const len = Buffer.alloc(4);
          len.writeUInt32BE(why.length);
          return s.end(Buffer.concat([Buffer.from([0, 0, 0, 1]), len, why]));
        }
        // ServerInit: 1024x768, 32bpp true colour, name "bench".
        const init = Buffer.from([4, 0, 3, 0, 32, 24, 0, 1, 0, 255, 0, 255, 0, 255, 16, 8, 0, 0, 0, 0, 0, 0, 0, 5]);
        s.write(Buffer.concat([init, Buffer.from('bench')]));
      }
    });
  });
}
