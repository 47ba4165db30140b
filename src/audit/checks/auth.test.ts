/**
 * Services that hold data or control, on real Debian daemons: each weak
 * one is flagged, its hardened twin is not (issue 14).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mariadb, pgBin, postgres, rsyncd, slapd, xvfb } from '../../../test/helpers/daemons-auth.ts';
import { Fence } from '../engine/fence.ts';
import type { Check, HostFacts } from '../engine/types.ts';

import { which } from '../../../test/helpers/daemons-kit.ts';
import { checkById } from './catalogue.ts';

const ldapAnonymous = checkById('vigil.ldap.anonymous');
const rsyncOpenModule = checkById('vigil.rsync.open-module');
const x11Open = checkById('vigil.x11.open');
const mysqlEmptyRoot = checkById('vigil.mysql.empty-root');
const postgresTrust = checkById('vigil.postgresql.trust');

const WEAK = '127.0.41.1';
const HARD = '127.0.41.2';
const fence = new Fence([WEAK, HARD], ['127.0.0.0/8']);

const facts = (address: string, port: number, name: string): HostFacts => ({
  address,
  openPorts: [port],
  services: [
    { port, protocol: 'tcp', name, product: null, version: null, banner: null, tls: null, http: null, extra: {} },
  ],
});

/** Runs `check` on the weak and the hardened twin: one finding on the first, none on the second. */
async function twins(
  check: Check,
  name: string,
  start: (addr: string, weak: boolean) => Promise<number>,
): Promise<string> {
  const [weak, hard] = await Promise.all([start(WEAK, true), start(HARD, false)]);
  const found = await check.runOn(facts(WEAK, weak, name), fence.net(WEAK));
  assert.equal(found.length, 1, `${check.id} on the weak daemon`);
  assert.deepEqual(await check.runOn(facts(HARD, hard, name), fence.net(HARD)), [], `${check.id} on the hardened twin`);
  return found[0]!.detail;
}

describe('default or missing authentication, real daemons', () => {
  test('rsyncd: an open module is flagged; one behind auth users is not', {
    skip: !which('rsync') && 'rsync not installed',
  }, async () => {
    assert.match(await twins(rsyncOpenModule, 'rsync', rsyncd), /opened without a password: pub/);
  });

  test('Xvfb -ac is flagged; Xvfb with access control is not', {
    skip: !which('Xvfb') && 'xvfb not installed',
  }, async () => {
    assert.match(await twins(x11Open, 'X11', xvfb), /vendor "The X\.Org Foundation"/);
  });

  test('slapd: anonymous bind reads people; the twin keeps data for users', {
    skip: !which('slapd') && 'slapd not installed',
  }, async () => {
    assert.match(
      await twins(ldapAnonymous, 'ldap', slapd),
      /dc=example,dc=test.*returned [1-5] entr.*(ou=people|uid=)/,
    );
  });

  test('PostgreSQL: trust is flagged; scram-sha-256 is not', {
    skip: !pgBin() && 'postgresql not installed',
  }, async () => {
    assert.match(await twins(postgresTrust, 'postgresql', postgres), /AuthenticationOk/);
  });

  test('MariaDB: root with an empty password is flagged; with a password it is not', {
    skip: !which('mariadbd') && 'mariadb-server not installed',
  }, async () => {
    assert.match(
      await twins(mysqlEmptyRoot, 'mysql', mariadb),
      /root logged in with an empty password \(server [\d.]+.*MariaDB/,
    );
  });
});
