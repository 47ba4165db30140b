import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { VigilClient } from '../src/client/index.ts';
import { dsOnceSigned, kskOf, PASSWORD, SIGNING_ARGS, validates } from './helpers/dnssec-serve.ts';
import { TEST_DB, testDb } from './helpers/pgdb.ts';
import { freePort, type Served, serve, tempDir, VIGIL } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const ZONE = 'set.example';
const missing = ['dig', 'delv', 'openssl'].filter((t) => !hasTool(t));

/** The zone's DNSKEY set and SOA serial as `dig` gets them from the name server on `port`. */
async function served(port: number): Promise<{ dnskey: string[]; serial: number }> {
  const dig = async (type: string) =>
    (await run('dig', ['@127.0.0.1', '-p', String(port), '+short', '+time=1', '+tries=1', type, ZONE])).stdout.trim();
  const dnskey = (await dig('DNSKEY'))
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' '))
    .sort();
  return { dnskey, serial: Number((await dig('SOA')).split(/\s+/)[2]) };
}

/**
 * Issue 29: docs/scaling.md gave each `serve` of a set its own key file, so
 * the keys one sealed did not open in the other. The set-up it describes
 * now: separate data directories, one PostgreSQL, one key-encryption key
 * file for all (made with openssl, as the docs say). Each serve is left
 * alone in turn, so that each one provably opens and seals keys the other
 * made, and delv validates what each one signed against the zone's KSK.
 */
describe('two serves on one PostgreSQL sign the same zones with the same keys and DS', {
  skip: !TEST_DB
    ? 'needs VIGIL_TEST_DB (a PostgreSQL server): on SQLite there is one data directory and one key'
    : missing.length
      ? `missing ${missing.join(', ')}`
      : false,
}, () => {
  test('A makes the keys, B signs with them alone, B rolls the KSK, A signs with that one, both serve one DNSKEY set', async () => {
    const etc = tempDir();
    const db = (await testDb(etc))!;
    const kek = join(etc, 'dnssec.kek');
    // As docs/scaling.md makes it: once, then copied to every host of the set.
    await run('sh', ['-c', `umask 077; openssl rand -base64 32 > '${kek}'`]);
    assert.equal(statSync(kek).mode & 0o777, 0o600);
    const [dnsA, dnsB] = [await freePort(), await freePort()];
    const [dataA, dataB] = [join(etc, 'a'), join(etc, 'b')];
    const common = [...SIGNING_ARGS, '--db', db, '--dnssec-key-file', kek];
    const start = (dataDir: string, dns: number) => serve({ dataDir, args: [...common, '--dns-port', String(dns)] });

    let a: Served | null = await start(dataA, dnsA);
    let b: Served | null = null;
    try {
      const { stdout } = await run(
        VIGIL,
        [
          'admin',
          'account',
          'add',
          '--data',
          dataA,
          '--db',
          db,
          '--userid',
          'ops',
          '--password',
          PASSWORD,
          '--dns-credits',
          '2',
          '--json',
        ],
        { env: { ...process.env, VIGIL_DATA: '', VIGIL_DB: '' } },
      );
      const apikey = JSON.parse(stdout).apikey;
      const viaA: VigilClient = a.client();
      await viaA.login(apikey, 'ops', PASSWORD);
      await viaA.call('dnsAddDomain.php', { domain: ZONE, domaintype: 'master', aup: 'YES' });
      await viaA.call('dnsAddA.php', { domain: ZONE, name: 'www', ip: '192.0.2.50' });
      await viaA.call('dnsSetDNSSEC.php', { domain: ZONE, enable: 'YES' });
      await viaA.call('dnsPublish.php', { domain: ZONE });
      // A alone: its cycle makes the zone's keys, sealed with the shared key.
      const ds = await dsOnceSigned(viaA, ZONE);
      const ksk = kskOf((await viaA.call('dnsGetDNSSEC.php', { domain: ZONE })).dnskey);
      await validates(dnsA, ZONE, ksk, `www.${ZONE}`, '192.0.2.50');
      assert.equal(existsSync(join(dataA, 'dnssec')), false, 'the shared file, not DATA/dnssec/kek');

      // B starts (its start-up check opens A's keys), then runs alone and signs a change with them.
      b = await start(dataB, dnsB);
      await a.stop();
      a = null;
      const viaB = b.client();
      await viaB.login(apikey, 'ops', PASSWORD);
      assert.deepEqual((await viaB.call('dnsGetDNSSEC.php', { domain: ZONE })).ds, ds, 'the same DS through B');
      await viaB.call('dnsAddA.php', { domain: ZONE, name: 'via-b', ip: '192.0.2.51' });
      assert.equal((await viaB.call('dnsPublish.php', { domain: ZONE })).errors, undefined);
      await validates(dnsB, ZONE, ksk, `via-b.${ZONE}`, '192.0.2.51');

      // B seals a new KSK (a roll's first step); A, alone again, signs with it.
      const roll = await viaB.call('dnsRollDNSSECKey.php', { domain: ZONE });
      assert.equal(roll.step, 'started');
      assert.equal(roll.ds.length, 2);
      a = await start(dataA, dnsA);
      await b.stop();
      b = null;
      const viaA2 = a.client();
      await viaA2.login(apikey, 'ops', PASSWORD);
      await viaA2.call('dnsAddA.php', { domain: ZONE, name: 'via-a', ip: '192.0.2.52' });
      assert.equal((await viaA2.call('dnsPublish.php', { domain: ZONE })).errors, undefined);
      // Anchored at the KSK B made: A opened B's seal to sign the DNSKEY set with it.
      const newKsk = kskOf(
        (await viaA2.call('dnsGetDNSSEC.php', { domain: ZONE })).dnskey.filter(
          (l: string) => !l.endsWith(ksk.split(' ')[3]!),
        ),
      );
      await validates(dnsA, ZONE, newKsk, `via-a.${ZONE}`, '192.0.2.52');

      // Both running: one DNSKEY set, one serial, one DS list, from either.
      b = await start(dataB, dnsB);
      const viaB2 = b.client();
      await viaB2.login(apikey, 'ops', PASSWORD);
      await eventually(async () => {
        const [x, y] = [await served(dnsA), await served(dnsB)];
        return x.serial > 0 && x.serial === y.serial && x.dnskey.join() === y.dnskey.join() && x.dnskey.length === 3;
      }, 'both name servers serve the same signed version (2 KSKs and a ZSK)');
      assert.deepEqual(
        (await viaA2.call('dnsGetDNSSEC.php', { domain: ZONE })).ds,
        (await viaB2.call('dnsGetDNSSEC.php', { domain: ZONE })).ds,
      );
      for (const s of [a, b]) assert.doesNotMatch(s.stderr(), /keyUnsealFailed|signing failed|kekM/);

      // A third serve given its own key (the old docs' set-up) is refused at start, not left to fail later.
      await assert.rejects(
        serve({ dataDir: join(etc, 'c'), args: [...SIGNING_ARGS, '--db', db] }),
        /vigil exited 1: .*kekMissing: .*dnssec\/kek does not exist/,
      );
    } catch (err) {
      // A system error's cause is only in the serve's log (dnsPublish answered unspecifiedError once under load).
      console.error(`serve A stderr:\n${a?.stderr() ?? '(stopped)'}\nserve B stderr:\n${b?.stderr() ?? '(stopped)'}`);
      throw err;
    } finally {
      await a?.stop();
      await b?.stop();
    }
  });
});
