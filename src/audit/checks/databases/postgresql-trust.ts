import { defineCheck } from '../kit.ts';
import { pgMessageDone, pgStartup } from '../../proto/postgresql.ts';
import { talk } from '../../proto/talk.ts';

export default defineCheck({
  id: 'vigil.postgresql.trust',
  shortid: 'PG-TRUST',
  title: 'PostgreSQL accepts a login without a password',
  family: 'Databases',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The PostgreSQL server logged the superuser "postgres" in without asking for any password (a "trust" rule in pg_hba.conf matches the network): anyone who reaches the port owns every database and, through COPY … PROGRAM, the server account.',
  solution:
    'Use scram-sha-256 for every host rule in pg_hba.conf, give postgres a password, and set listen_addresses to where the clients are.',
  ports: { services: ['postgresql'], ports: [5432] },
  run: ({ net, port }) =>
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
});
