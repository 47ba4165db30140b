import { defineCheck } from '../kit.ts';
import { passwordLogin } from '../../proto/mysql.ts';
import { pgPasswordLogin } from '../../proto/postgresql-auth.ts';

/**
 * Vendor and installer defaults only, never a dictionary: the pairs that
 * images, installers and tutorials set (the PostgreSQL and MariaDB Docker
 * quick starts, WAMP/XAMPP-style stacks), a few tries per port. Empty
 * passwords and trust logins have checks of their own
 * (vigil.mysql.empty-root, vigil.postgresql.trust).
 */
const DEFAULTS = {
  postgresql: [
    ['postgres', 'postgres'],
    ['postgres', 'password'],
    ['postgres', 'admin'],
  ],
  mysql: [
    ['root', 'root'],
    ['root', 'mysql'],
    ['root', 'password'],
  ],
} as const;

export default defineCheck({
  id: 'vigil.db.default-credentials',
  shortid: 'DB-DEFAULT-CREDS',
  title: 'Database accepts a vendor-default password',
  family: 'Databases',
  // Guesses passwords (a short fixed list): intrusive, advanced only (engine/types.ts Categories).
  categories: ['intrusive', 'auth'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The database server logged an administrative account in with a well-known default password: anyone who reaches the port can read, change or drop every database, and often run commands as the server account.',
  solution:
    'Set a strong unique password for the account (ALTER USER … PASSWORD / IDENTIFIED BY), remove unused administrative accounts, and let only application hosts reach the port.',
  ports: { services: ['postgresql', 'mysql'], ports: [5432, 3306] },
  run: async ({ net, port, service }) => {
    const kind = service?.name === 'mysql' || (!service && port === 3306) ? 'mysql' : 'postgresql';
    for (const [user, password] of DEFAULTS[kind]) {
      const ok =
        kind === 'mysql'
          ? (await passwordLogin(net, port, user, password)) !== null
          : (await pgPasswordLogin(net, port, user, password)) === true;
      if (ok)
        return `${kind === 'mysql' ? 'MySQL/MariaDB' : 'PostgreSQL'} logged in "${user}" with the default password "${password}" (authentication answered OK; the session was closed without a query).`;
    }
    return null;
  },
});
