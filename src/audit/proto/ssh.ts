/**
 * SSH (RFC 4253): the server's KEXINIT algorithm lists, as detection and the checks read them; and the
 * methods a "none" userauth request is offered (RFC 4252 §5.2), with the ssh2 library's transport over a
 * socket the fence opened.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'ssh2';
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

const LISTS = [
  'kex',
  'hostkey',
  'ciphers_c2s',
  'ciphers_s2c',
  'macs_c2s',
  'macs_s2c',
  'compression_c2s',
  'compression_s2c',
];

/** The name-lists of an SSH_MSG_KEXINIT binary packet (unencrypted), or null. */
export function parseKexinit(b: Buffer): Record<string, string> | null {
  if (b.length < 22) return null;
  const len = b.readUInt32BE(0);
  if (b[5] !== 20 || len > 35000) return null;
  let off = 6 + 16;
  const out: Record<string, string> = {};
  for (const key of LISTS) {
    if (off + 4 > b.length) return null;
    const n = b.readUInt32BE(off);
    if (off + 4 + n > b.length) return null;
    out[key] = b.subarray(off + 4, off + 4 + n).toString('latin1');
    off += 4 + n;
  }
  return out;
}

/** The server's KEXINIT lists, read after exchanging identification lines. */
export function sshAlgorithms(net: Net, port: number): Promise<Record<string, string> | null> {
  return talk(net, port, async (c) => {
    const id = await c.read(3000, (b) => b.includes(10));
    const line = id.toString('latin1').split(/\r?\n/)[0] ?? '';
    if (!line.startsWith('SSH-2') && !line.startsWith('SSH-1.99')) return null;
    const rest = id.subarray(id.indexOf(10) + 1);
    c.take();
    c.send('SSH-2.0-Vigil_Audit\r\n');
    const more = await c.read(
      3000,
      (b) =>
        Buffer.concat([rest, b]).length >= 4 &&
        Buffer.concat([rest, b]).length >= Buffer.concat([rest, b]).readUInt32BE(0) + 4,
    );
    return parseKexinit(Buffer.concat([rest, more]));
  });
}

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
