import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { VigilClient } from '../src/client/index.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { type Bind, startBindSecondary, startKnotSecondary } from './helpers/bind.ts';
import { freePort, tempDir } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 19';
const CATALOG = 'catalog.vigil.invalid';
const Z = 'signed.example';
const TOOLS = ['dig', 'delv', 'dnssec-verify', 'kzonecheck', 'named', 'knotd'];
const missing = TOOLS.filter((t) => !hasTool(t));

/**
 * DNSSEC end to end (issue 19): a user turns signing on, the next cycle
 * signs, Vigil's name server answers with proofs, and real validators
 * agree: BIND's delv against Vigil and against stock BIND and Knot
 * secondaries that transferred the signed zone, dnssec-verify and Knot's
 * kzonecheck on the transferred zone. The clock starts at the real time,
 * because delv and dnssec-verify check signatures against the system's.
 */
describe('DNSSEC: signed at distribution, served with proofs, transferred signed', {
  skip: missing.length ? `missing ${missing.join(', ')}` : false,
}, () => {
  let t: TestApp;
  let c: VigilClient;
  let port: number;
  let bind: Bind;
  let knot: Bind;
  const dir = tempDir('vigil-dnssec-');
  const cycle = () => (t.app.services.dns.schedule as CycleLoop).cycle();

  before(async () => {
    port = await freePort();
    const [bindPort, knotPort] = [await freePort(), await freePort()];
    t = await startTestApp({
      dnsPort: port,
      domainHold: 'none',
      nsDomain: 'ns.vigil.test',
      catalogZone: CATALOG,
      secondaries: [`127.0.0.1:${bindPort}`, `127.0.0.1:${knotPort}`],
    });
    t.clock.set(Date.now());
    c = t.client();
    await c.login(await t.account('signer', PASSWORD, { dnsCredits: 10 }), 'signer', PASSWORD);
    [bind, knot] = await Promise.all([
      startBindSecondary(bindPort, port, CATALOG),
      startKnotSecondary(knotPort, port, CATALOG),
    ]);
  });
  after(async () => {
    await Promise.all([bind?.stop(), knot?.stop()]);
    await t?.close();
  });

  /** delv at `server` with the zone's KSK as the only trust anchor: its verdict line and the records. */
  async function delv(server: number, name: string, type: string): Promise<string> {
    const { dnskey } = await c.call('dnsGetDNSSEC.php', { domain: Z });
    const ksk = (dnskey as string[]).find((l) => / DNSKEY 257 /.test(l))!.split(/\s+/);
    const anchors = join(dir, 'anchors');
    writeFileSync(anchors, `trust-anchors { ${Z}. static-key 257 3 13 "${ksk.slice(7).join('')}"; };\n`);
    const r = await run('delv', ['@127.0.0.1', '-p', String(server), '-a', anchors, `+root=${Z}`, name, type]).catch(
      (e) => e,
    );
    return `${r.stdout}${r.stderr}`;
  }

  async function axfrFile(zone: string): Promise<string> {
    const { stdout } = await run('dig', [
      '@127.0.0.1',
      '-p',
      String(port),
      zone,
      'AXFR',
      '+nocmd',
      '+nostats',
      '+nocomments',
    ]);
    const file = join(dir, `${zone}.axfr`);
    // AXFR ends with the SOA again: the validators want it once.
    writeFileSync(file, stdout.trim().split('\n').slice(0, -1).join('\n') + '\n');
    return file;
  }

  test('enable, publish, one cycle: DS for the parent, answers that delv validates, NXDOMAIN/NODATA/wildcard proofs', async () => {
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    await c.call('dnsAddA.php', { domain: Z, name: 'www', ip: '192.0.2.1' });
    await c.call('dnsAddA.php', { domain: Z, name: '*.dev', ip: '192.0.2.7' });
    await c.call('dnsAddCNAME.php', { domain: Z, alias: 'alias', name: `www.${Z}.` });
    await c.call('dnsAddNS.php', { domain: Z, subdomain: 'sub', nameserver: `ns1.sub.${Z}` });
    await c.call('dnsAddA.php', { domain: Z, name: 'ns1.sub', ip: '127.0.0.53' });
    await c.call('dnsAddA.php', { domain: Z, name: 'v6.deep.er', ip: '192.0.2.9' });
    await c.call('dnsAddMX.php', { domain: Z, name: '@', mxname: `www.${Z}.`, priority: '10' });
    const on = await c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES' });
    assert.equal(on.enabled, true);
    assert.deepEqual(on.ds, [], 'keys are made by the next cycle');
    assert.equal(
      (await c.call('dnsBuildZone.php', { domain: Z })).dnssec,
      'signed at distribution: this is the zone before signing',
    );
    await c.call('dnsPublish.php', { domain: Z });
    await cycle();

    const s = await c.call('dnsGetDNSSEC.php', { domain: Z });
    assert.equal(s.ds.length, 1);
    assert.match(s.ds[0], /^signed\.example\. 3600 IN DS \d+ 13 2 [0-9A-F]{64}$/);
    assert.equal(s.dnskey.length, 2);
    assert.deepEqual(
      (await c.call('dnsGetDomainRecords.php', { domain: Z })).ds,
      s.ds,
      'the records reply shows the DS',
    );

    const ok = (out: string) => assert.match(out, /; fully validated/, out);
    const negative = (out: string) => assert.match(out, /; negative response, fully validated/, out);
    ok(await delv(port, `www.${Z}`, 'A'));
    ok(await delv(port, `x.dev.${Z}`, 'A')); // wildcard answer
    ok(await delv(port, `alias.${Z}`, 'A')); // CNAME
    ok(await delv(port, Z, 'DNSKEY'));
    ok(await delv(port, Z, 'CDS'));
    negative(await delv(port, `nope.${Z}`, 'A')); // NXDOMAIN
    negative(await delv(port, `www.${Z}`, 'TXT')); // NODATA
    negative(await delv(port, `x.dev.${Z}`, 'TXT')); // wildcard NODATA
    negative(await delv(port, `deep.er.${Z}`, 'A')); // empty non-terminal
    negative(await delv(port, `sub.${Z}`, 'DS')); // an insecure delegation: no DS, proven

    // Without DO: no signatures (a resolver that does not ask gets the plain answer).
    const plain = (await run('dig', ['@127.0.0.1', '-p', String(port), '+norec', `www.${Z}`, 'A'])).stdout;
    assert.doesNotMatch(plain, /RRSIG/);
    // A referral with DO proves the delegation insecure with the NSEC at the cut.
    const referral = (await run('dig', ['@127.0.0.1', '-p', String(port), '+norec', '+dnssec', `host.sub.${Z}`, 'A']))
      .stdout;
    assert.match(referral, /^sub\.signed\.example\.\s+\d+\s+IN\s+NSEC\s+\S+ NS RRSIG NSEC$/m);

    // The transferred zone passes both validators' whole-zone checks.
    const file = await axfrFile(Z);
    await run('dnssec-verify', ['-o', Z, file]);
    await run('kzonecheck', ['--dnssec', 'on', '-o', Z, file]);
  });

  test('stock BIND and Knot secondaries transfer the signed zone and serve it; delv validates through them', async () => {
    for (const secondary of [bind, knot]) {
      await eventually(
        async () => /; fully validated/.test(await delv(secondary.port, `www.${Z}`, 'A')),
        `validated through ${secondary.dir}`,
        20_000,
      );
      assert.match(await delv(secondary.port, `nope.${Z}`, 'A'), /; negative response, fully validated/);
    }
  });

  test('a change re-signs with a new serial; turning signing off serves the zone unsigned again', async () => {
    await c.call('dnsAddA.php', { domain: Z, name: 'new', ip: '192.0.2.20' });
    await c.call('dnsPublish.php', { domain: Z });
    await cycle();
    assert.match(await delv(port, `new.${Z}`, 'A'), /; fully validated/);
    await run('dnssec-verify', ['-o', Z, await axfrFile(Z)]);
    // The secondaries follow the new version (IXFR from the one before) and it validates through them.
    for (const secondary of [bind, knot]) {
      await eventually(
        async () => /; fully validated/.test(await delv(secondary.port, `new.${Z}`, 'A')),
        `new version through ${secondary.dir}`,
        20_000,
      );
    }
    const served = async () =>
      (await run('dig', ['@127.0.0.1', '-p', String(port), '+short', Z, 'SOA'])).stdout.split(' ')[2];
    const before = Number(await served());
    const off = await c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'NO' });
    assert.deepEqual([off.enabled, off.ds], [false, []]);
    await cycle();
    assert.equal(Number(await served()), before + 1, 'unsigning is a new version for the secondaries');
    const dnskey = (await run('dig', ['@127.0.0.1', '-p', String(port), '+short', Z, 'DNSKEY'])).stdout.trim();
    assert.equal(dnskey, '');
    assert.equal((await c.call('dnsGetDomainRecords.php', { domain: Z })).ds, undefined);
  });

  test('bad input: the scripts answer codes', async () => {
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e) => e.code,
      );
    assert.equal(await code(c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'maybe' })), 'syntaxInvalidEnable');
    assert.equal(await code(c.call('dnsSetDNSSEC.php', { domain: Z })), 'missingInput');
    assert.equal(await code(c.call('dnsSetDNSSEC.php', { domain: 'other.example', enable: 'YES' })), 'noSuchDomain');
    assert.equal(await code(c.call('dnsGetDNSSEC.php', { domain: 'bad..name' })), 'syntaxInvalidDomain');
    assert.equal(await code(c.call('dnsRollDNSSECKey.php', { domain: Z })), 'dnssecNotEnabled');
    await c.call('dnsAddDomain.php', { domain: 'slave.example', domaintype: 'slave', aup: 'YES' });
    assert.equal(
      await code(c.call('dnsSetDNSSEC.php', { domain: 'slave.example', enable: 'YES' })),
      'dnssecMasterOnly',
    );
  });
});
