/** SQL servers: MySQL/MariaDB (handshake the server sends), PostgreSQL (SSLRequest). */
import { parseMysqlGreeting } from '../../proto/mysql.ts';
import type { Family } from './family.ts';

export const mysql: Family = {
  id: 'mysql',
  ports: [3306],
  async banner(greeting, s) {
    const g = parseMysqlGreeting(greeting);
    if (!g) return false;
    s.name = 'mysql';
    if (g.error) s.extra.error = g.error;
    if (g.version) {
      // MariaDB announces "5.5.5-10.11.6-MariaDB-0+deb12u1".
      const maria = /(?:^5\.5\.5-)?(\d+\.\d+\.\d+)-MariaDB/i.exec(g.version);
      s.product = maria ? 'MariaDB' : 'MySQL';
      s.version = maria ? maria[1]! : /^[\d.]+/.exec(g.version)![0];
      s.extra.serverVersion = g.version;
    } else s.product = 'MySQL';
    return true;
  },
};

export const postgresql: Family = {
  id: 'postgresql',
  ports: [5432],
  async probe(conv, s) {
    // SSLRequest: length 8, code 80877103; the server answers one byte.
    const r = await conv.ask(Buffer.from([0, 0, 0, 8, 4, 0xd2, 0x16, 0x2f]), 1500);
    if (r.length !== 1 || (r[0] !== 0x53 && r[0] !== 0x4e)) {
      // Very old servers answer an ErrorResponse ('E') naming the code.
      if (!(r[0] === 0x45 && /unsupported frontend protocol|SFATAL/.test(r.toString('latin1')))) return false;
    }
    Object.assign(s, { name: 'postgresql', product: 'PostgreSQL' });
    s.extra.ssl = r[0] === 0x53 ? 'supported' : 'not supported';
    return true;
  },
};
