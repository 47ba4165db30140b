/**
 * SQL servers that let a stranger in: PostgreSQL by `trust` (no password
 * asked), MySQL/MariaDB `root` with an empty password. Both confirmed by
 * the real login exchange, never by a version or a banner: the hardened
 * twin of each answers the same handshake with a password request or an
 * error, and stays silent here.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseMysqlGreeting } from '../detect/sql.ts';
import type { Check } from '../types.ts';
import { portCheck, portsOf, shown, talk } from './services-kit.ts';

/** PostgreSQL StartupMessage, protocol 3.0 (protocol docs §55.7): user, database, application_name. */
function pgStartup(user: string): Buffer {
  const params = Buffer.from(`user\0${user}\0database\0postgres\0application_name\0vigil-audit\0\0`);
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + params.length, 0);
  head.writeInt32BE(196608, 4);
  return Buffer.concat([head, params]);
}

/** First backend message: 'R' + len + int32 (0 = AuthenticationOk, 3 cleartext, 5 MD5, 10 SASL), 'E' an error. */
const pgMessageDone = (b: Buffer) => b.length >= 5 && b.length >= 1 + b.readInt32BE(1);

export const postgresTrust: Check = portCheck(
  {
    id: 'vigil.postgresql.trust',
    shortid: 'PG-TRUST',
    title: 'PostgreSQL accepts a login without a password',
    category: 'Databases',
    risk: 'high',
    cves: [],
    type: 'HOLE',
    qod: 99,
    description:
      'The PostgreSQL server logged the superuser "postgres" in without asking for any password (a "trust" rule in pg_hba.conf matches the network): anyone who reaches the port owns every database and, through COPY … PROGRAM, the server account.',
    solution:
      'Use scram-sha-256 for every host rule in pg_hba.conf, give postgres a password, and set listen_addresses to where the clients are.',
  },
  (h) => portsOf(h, ['postgresql'], [5432]),
  (net, port) =>
    talk(
      net,
      port,
      async (c) => {
        // The session ends right after AuthenticationOk (we never send a query).
        const r = await c.ask(pgStartup('postgres'), 6000, pgMessageDone);
        if (r.length < 9 || r[0] !== 0x52 || r.readInt32BE(1) !== 8 || r.readInt32BE(5) !== 0) return null;
        c.send(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
        return 'the startup message for user "postgres", database "postgres" was answered with AuthenticationOk: no password was asked';
      },
      8000,
    ),
);

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

export const mysqlEmptyRoot: Check = portCheck(
  {
    id: 'vigil.mysql.empty-root',
    shortid: 'MYSQL-EMPTY-ROOT',
    title: 'MySQL/MariaDB root login with an empty password',
    category: 'Databases',
    risk: 'high',
    cves: ['CVE-2001-0645'],
    type: 'HOLE',
    qod: 99,
    description:
      'The MySQL/MariaDB server accepted the account "root" with an empty password over the network: anyone who reaches the port can read, change or drop every database and often write files on the server.',
    solution:
      "Set a strong password (or unix_socket authentication) for root, remove root accounts for remote hosts (DROP USER 'root'@'%'), and bind the server to trusted interfaces.",
  },
  (h) => portsOf(h, ['mysql'], [3306]),
  async (net, port) => {
    // root, then the anonymous account ('' — old mysql_install_db made one): each on its own connection.
    for (const user of ['root', '']) {
      const server = await emptyPasswordLogin(net, port, user);
      if (server)
        return `${user ? 'root' : 'the anonymous user ("")'} logged in with an empty password (server ${shown(server, 60)}; answer OK)`;
    }
    return null;
  },
);

/** The server's version when `user` with an empty password gets OK, else null. */
function emptyPasswordLogin(net: Parameters<Check['run']>[1], port: number, user: string): Promise<string | null> {
  return talk(net, port, async (c) => {
    const g = await c.read(3000, packetDone);
    const version = parseMysqlGreeting(g)?.version;
    if (!version) return null;
    const scramble = scrambleOf(g.subarray(0, 4 + g.readUIntLE(0, 3))) ?? randomBytes(20);
    let r = await c.ask(handshakeResponse(user, nativePassword('', scramble)), 3000, packetDone);
    // Auth switch (0xFE): answer the asked plugin's scramble, again with the empty password (an empty response).
    if (r.length > 4 && r[4] === 0xfe) r = await c.ask(packet(r[3]! + 1, Buffer.alloc(0)), 3000, packetDone);
    return r.length >= 5 && r[4] === 0x00 ? version : null;
  });
}

export const AUTH_SQL_CHECKS: readonly Check[] = [postgresTrust, mysqlEmptyRoot];
