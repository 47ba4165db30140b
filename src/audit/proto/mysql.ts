/** MySQL/MariaDB client/server protocol: the greeting the server sends first, and a login. */
import { createHash, randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/** A MySQL protocol-10 handshake (or an error packet) → facts, else null. */
export function parseMysqlGreeting(b: Buffer): { version: string | null; error: string | null } | null {
  if (b.length < 5) return null;
  const len = b.readUIntLE(0, 3);
  if (len < 1 || len > 1 << 16 || b[3] !== 0) return null;
  if (b[4] === 0xff) {
    // "Host … is not allowed to connect": still MySQL.
    const msg = b
      .subarray(7, 4 + len)
      .toString('latin1')
      .replace(/^#\w{5}/, '');
    return /mysql|mariadb|host|allowed|connect/i.test(msg) ? { version: null, error: msg.slice(0, 200) } : null;
  }
  if (b[4] !== 10) return null;
  const nul = b.indexOf(0, 5);
  if (nul < 0 || nul - 5 > 80) return null;
  const version = b.subarray(5, nul).toString('latin1');
  return /^\d+\.\d+/.test(version) ? { version, error: null } : null;
}

/** mysql_native_password: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); the empty password sends nothing. */
export function nativePassword(password: string, scramble: Buffer): Buffer {
  if (!password) return Buffer.alloc(0);
  const sha1 = (b: Buffer) => createHash('sha1').update(b).digest();
  const h1 = sha1(Buffer.from(password));
  const h2 = sha1(Buffer.concat([scramble, sha1(h1)]));
  return Buffer.from(h1.map((x, i) => x ^ h2[i]!));
}

const CLIENT = { LONG_PASSWORD: 1, PROTOCOL_41: 0x200, SECURE_CONNECTION: 0x8000, PLUGIN_AUTH: 0x80000 };
const packet = (seq: number, body: Buffer) =>
  Buffer.concat([Buffer.from([body.length & 0xff, (body.length >> 8) & 0xff, body.length >> 16, seq]), body]);
const packetDone = (b: Buffer) => b.length >= 4 && b.length >= 4 + b.readUIntLE(0, 3);

/** HandshakeResponse41 (MySQL client/server protocol, "Protocol::HandshakeResponse"). */
function handshakeResponse(user: string, auth: Buffer): Buffer {
  const caps = CLIENT.LONG_PASSWORD | CLIENT.PROTOCOL_41 | CLIENT.SECURE_CONNECTION | CLIENT.PLUGIN_AUTH;
  const fixed = Buffer.alloc(32);
  fixed.writeUInt32LE(caps, 0);
  fixed.writeUInt32LE(1 << 24, 4);
  fixed[8] = 33; // utf8_general_ci
  return packet(
    1,
    Buffer.concat([
      fixed,
      Buffer.from(`${user}\0`),
      Buffer.from([auth.length]),
      auth,
      Buffer.from('mysql_native_password\0'),
    ]),
  );
}

/** The 20-byte scramble of a protocol-10 greeting: 8 bytes after the thread id, the rest after the capability block. */
function scrambleOf(g: Buffer): Buffer | null {
  const nul = g.indexOf(0, 5);
  if (nul < 0 || g.length < nul + 1 + 4 + 8 + 1 + 2 + 1 + 2 + 2 + 1 + 10 + 12) return null;
  const part1 = g.subarray(nul + 5, nul + 13);
  const part2 = g.subarray(nul + 13 + 1 + 2 + 1 + 2 + 2 + 1 + 10, nul + 13 + 1 + 2 + 1 + 2 + 2 + 1 + 10 + 12);
  return Buffer.concat([part1, part2]);
}

/**
 * The SSLRequest that starts TLS on a MySQL connection ("Protocol::SSLRequest": HandshakeResponse41 cut
 * after its 23-byte filler, sequence 1), or null when the greeting does not offer CLIENT_SSL (0x800).
 */
export function mysqlSslRequest(greeting: Buffer): Buffer | null {
  const nul = greeting.indexOf(0, 5);
  if (!parseMysqlGreeting(greeting) || nul < 0 || greeting.length < nul + 16) return null;
  const lower = greeting.readUInt16LE(nul + 14); // after thread id (4), scramble part 1 (8) and a filler (1)
  if (!(lower & 0x800)) return null;
  const fixed = Buffer.alloc(32);
  fixed.writeUInt32LE(CLIENT.LONG_PASSWORD | CLIENT.PROTOCOL_41 | CLIENT.SECURE_CONNECTION | 0x800, 0);
  fixed.writeUInt32LE(1 << 24, 4);
  fixed[8] = 33;
  return packet(1, fixed);
}

/** The server's version when `user` with an empty password gets OK, else null. */
export const emptyPasswordLogin = (net: Net, port: number, user: string) => passwordLogin(net, port, user, '');

/**
 * The server's version when `user` / `password` gets OK (mysql_native_password, MariaDB's and MySQL 5's
 * default), else null. An auth switch to another plugin (MySQL 8's caching_sha2_password wants TLS or RSA
 * for a password) is answered only for the empty password: null otherwise, never a guess.
 */
export function passwordLogin(net: Net, port: number, user: string, password: string): Promise<string | null> {
  return talk(net, port, async (c) => {
    const g = await c.read(3000, packetDone);
    const version = parseMysqlGreeting(g)?.version;
    if (!version) return null;
    const scramble = scrambleOf(g.subarray(0, 4 + g.readUIntLE(0, 3))) ?? randomBytes(20);
    let r = await c.ask(handshakeResponse(user, nativePassword(password, scramble)), 3000, packetDone);
    // Auth switch (0xFE): plugin name, NUL, the plugin's scramble (AuthSwitchRequest).
    if (r.length > 4 && r[4] === 0xfe) {
      const body = r.subarray(5, 4 + r.readUIntLE(0, 3));
      const nul = body.indexOf(0);
      const plugin = body.subarray(0, nul < 0 ? body.length : nul).toString('latin1');
      let answer: Buffer = Buffer.alloc(0);
      if (password && plugin !== 'mysql_native_password') return null;
      if (password) answer = nativePassword(password, body.subarray(nul + 1, nul + 21));
      r = await c.ask(packet(r[3]! + 1, answer), 3000, packetDone);
    }
    return r.length >= 5 && r[4] === 0x00 ? version : null;
  });
}
