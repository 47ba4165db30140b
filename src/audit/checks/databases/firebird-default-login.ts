import { defineCheck } from '../kit.ts';
import { firebirdLogin } from '../../proto/firebird.ts';

/**
 * Firebird (and InterBase's successors speaking its protocol 13+) with the
 * SYSDBA password left at "masterkey", the vendor default of every
 * Firebird release and of many packaged installs. One login over the wire
 * protocol with the Srp plugin, to the service manager (no database is
 * opened): a status vector without error is the proof; isc_login ("Your
 * user name and password are not defined") is not a finding, nor a
 * server that does not offer Srp.
 */
export default defineCheck({
  id: 'vigil.firebird.default-credentials',
  shortid: 'FIREBIRD-MASTERKEY',
  title: 'Firebird accepts SYSDBA with the default password "masterkey"',
  family: 'Databases',
  // The product's documented default, one login: safe, as a superuser with an empty password (engine/types.ts).
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The Firebird server logged SYSDBA, its superuser, in with the default password "masterkey": anyone who reaches the port can open, back up, replace or drop every database, manage users and, through external tables and UDFs, reach the server\'s files.',
  solution:
    "Set a strong SYSDBA password (ALTER USER SYSDBA PASSWORD '…' in isql, or gsec -modify), keep RemoteBindAddress on the interfaces the clients use, and set WireCrypt = Required.",
  references: ['https://firebirdsql.org/file/documentation/html/en/firebirddocs/qsg3/firebird-3-quickstartguide.html'],
  ports: { services: ['firebird', 'gds_db', 'interbase'], ports: [3050] },
  run: async ({ net, port }) => {
    const r = await firebirdLogin(net, port, 'SYSDBA', 'masterkey');
    if (r?.outcome !== 'accepted') return null;
    return `op_connect (protocol 13, Srp plugin) as SYSDBA was answered op_cond_accept with the SRP salt and key; op_service_attach to service_mgr with the proof for the password "masterkey" was answered op_response with no error (accepted; detached at once).`;
  },
});
