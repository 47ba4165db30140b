/**
 * Firebird 3 (Debian firebird3.0-server) in the foreground, each server
 * with a security database made fresh from Debian's security.sql: SYSDBA
 * with "masterkey" is found over the wire protocol (SRP login to the
 * service manager) and the port is named by detection; SYSDBA with a
 * password of its own is not.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import { firebirdLogin, isLoginRefusal } from '../../proto/firebird.ts';
import { checkById } from '../catalogue.ts';

const SERVER = '/usr/sbin/firebird';
const SQL = '/usr/share/firebird/3.0/security.sql';
const LIB = '/usr/lib/x86_64-linux-gnu/firebird/3.0';
const ISQL = which('isql-fb');
const HAVE = existsSync(SERVER) && existsSync(SQL) && ISQL;

function firebird(addr: string, password: string): Promise<number> {
  const root = tempDir('firebird');
  for (const x of ['firebird.msg', 'plugins', 'intl', 'UDF', 'lib', 'plugins.conf'])
    symlinkSync(join(LIB, x), join(root, x));
  const security = join(root, 'security3.fdb');
  const env = { ...process.env, FIREBIRD: root, FIREBIRD_LOCK: tempDir('firebird-lock') };
  writeFileSync(join(root, 'databases.conf'), '');
  // The security database first (embedded isql, no server yet): SYSDBA and its password.
  writeFileSync(join(root, 'firebird.conf'), `SecurityDatabase = ${security}\n`);
  execFileSync(ISQL!, ['-user', 'SYSDBA', '-q'], {
    env,
    input: `CREATE DATABASE '${security}';\n${readFileSync(SQL, 'utf8')}\nCREATE USER SYSDBA PASSWORD '${password}';\nCOMMIT;\n`,
  });
  return daemon(
    addr,
    SERVER,
    (port) => {
      writeFileSync(
        join(root, 'firebird.conf'),
        `RemoteBindAddress = ${addr}\nRemoteServicePort = ${port}\nSecurityDatabase = ${security}\nAuthServer = Srp\nWireCrypt = Enabled\n`,
      );
      return [];
    },
    { env, cwd: root },
  );
}

test('Firebird: SYSDBA/masterkey is found and the port named; SYSDBA with its own password is not', {
  skip: HAVE ? false : 'firebird3.0-server is not installed (apt-get install firebird3.0-server)',
}, async () => {
  const [weak, twin] = await Promise.all([
    firebird('127.0.93.21', 'masterkey'),
    firebird('127.0.93.22', 'not-a-real-secret-5Fb'),
  ]);
  const named = await detectOne(netFor('127.0.93.21'), weak);
  assert.deepEqual([named.name, named.product], ['firebird', 'Firebird']);
  const check = checkById('vigil.firebird.default-credentials');
  const [f] = await check.runOn(hostOf('127.0.93.21', [service(weak, 'firebird')]), netFor('127.0.93.21'));
  assert.match(
    f!.detail,
    /op_service_attach to service_mgr with the proof for the password "masterkey" was answered op_response with no error/,
  );
  const refused = await firebirdLogin(netFor('127.0.93.22'), twin, 'SYSDBA', 'masterkey');
  assert.ok(refused?.outcome === 'refused' && isLoginRefusal(refused.codes), JSON.stringify(refused));
  assert.deepEqual(await check.runOn(hostOf('127.0.93.22', [service(twin, 'firebird')]), netFor('127.0.93.22')), []);
});
