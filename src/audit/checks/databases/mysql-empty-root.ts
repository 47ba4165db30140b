import { defineCheck } from '../kit.ts';
import { emptyPasswordLogin } from '../../proto/mysql.ts';
import { shown } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.mysql.empty-root',
  shortid: 'MYSQL-EMPTY-ROOT',
  title: 'MySQL/MariaDB root login with an empty password',
  family: 'Databases',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  cves: ['CVE-2001-0645'],
  type: 'HOLE',
  qod: 99,
  description:
    'The MySQL/MariaDB server accepted the account "root" with an empty password over the network: anyone who reaches the port can read, change or drop every database and often write files on the server.',
  solution:
    "Set a strong password (or unix_socket authentication) for root, remove root accounts for remote hosts (DROP USER 'root'@'%'), and bind the server to trusted interfaces.",
  ports: { services: ['mysql'], ports: [3306] },
  run: async ({ net, port }) => {
    // root, then the anonymous account ('' — old mysql_install_db made one): each on its own connection.
    for (const user of ['root', '']) {
      const server = await emptyPasswordLogin(net, port, user);
      if (server)
        return `${user ? 'root' : 'the anonymous user ("")'} logged in with an empty password (server ${shown(server, 60)}; answer OK)`;
    }
    return null;
  },
});
