/**
 * Vendor-default passwords on real databases: PostgreSQL (SCRAM-SHA-256,
 * Debian's default) and MariaDB (mysql_native_password) with postgres /
 * postgres and root / root are found; the twins, with long passwords, are not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mariadb, pgBin, postgres } from '../../../../test/helpers/daemons-auth.ts';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { pgPasswordLogin } from '../../proto/postgresql-auth.ts';
import { checkById } from '../catalogue.ts';

const check = checkById('vigil.db.default-credentials');
const ADDR = '127.0.71.10';
const run = (port: number, name: string) => check.runOn(hostOf(ADDR, [service(port, name)]), netFor(ADDR));

test('PostgreSQL: postgres/postgres over SCRAM-SHA-256 is found; a long password is not', {
  skip: pgBin() ? false : 'postgresql is not installed',
}, async () => {
  const [weak, hard] = await Promise.all([
    postgres(ADDR, false, undefined, 'postgres'),
    postgres(ADDR, false, undefined, 'a-long-postgres-secret'),
  ]);
  const [f] = await run(weak, 'postgresql');
  assert.match(f!.detail, /^PostgreSQL logged in "postgres" with the default password "postgres"/);
  assert.equal(await pgPasswordLogin(netFor(ADDR), hard, 'postgres', 'a-long-postgres-secret'), true);
  assert.deepEqual(await run(hard, 'postgresql'), []);
});

test('MariaDB: root/root is found; a long password is not', {
  skip: which('mariadbd') || which('mysqld') ? false : 'mariadb-server is not installed',
}, async () => {
  const [weak, hard] = await Promise.all([
    mariadb(ADDR, false, undefined, 'root'),
    mariadb(ADDR, false, undefined, 'a-long-mariadb-secret'),
  ]);
  const [f] = await run(weak, 'mysql');
  assert.match(f!.detail, /^MySQL\/MariaDB logged in "root" with the default password "root"/);
  assert.deepEqual(await run(hard, 'mysql'), []);
});
