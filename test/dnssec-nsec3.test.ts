import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { VigilClient } from '../src/client/index.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { base32hex, nsec3Hash } from '../src/dns/dnssec/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { type Bind, startBindSecondary, startKnotSecondary } from './helpers/bind.ts';
import { freePort, tempDir } from './helpers/server.ts';
import { axfrFile, delvAt, digAt, typesIn } from './helpers/signed-zone.ts';
import { hasTool } from './helpers/tools.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 28';
const CATALOG = 'catalog.vigil.invalid';
const Z = 'hashed.example';
const TOOLS = ['dig', 'delv', 'dnssec-verify', 'kzonecheck', 'named', 'knotd'];
const missing = TOOLS.filter((t) => !hasTool(t));

/**
 * NSEC3 end to end (issue 28, "Zone walking"): a user asks for NSEC3 with
 * `nsec3=YES`, the next cycle signs with RFC 9276's parameters, Vigil's
 * name server answers with RFC 5155 7.2's proofs, and the validators
 * agree: delv through Vigil and through stock BIND and Knot secondaries,
 * dnssec-verify and kzonecheck on the AXFR. Then a switch to NSEC and back
 * re-signs cleanly: each version holds one kind of chain only. The clock
 * starts at the real time: delv and dnssec-verify check signatures against
 * the system's.
 */
describe('DNSSEC with NSEC3: signed, served with hashed proofs, switched to NSEC and back', {
  skip: missing.length ? `missing ${missing.join(', ')}` : false,
}, () => {
  let t: TestApp;
  let c: VigilClient;
  let port: number;
  let bind: Bind;
  let knot: Bind;
  const dir = tempDir('vigil-nsec3-');
  const cycle = () => (t.app.services.dns.schedule as CycleLoop).cycle();
  const delv = (server: number, name: string, type: string) => delvAt(c, Z, dir, server, name, type);
  const ok = (out: string) => assert.match(out, /; fully validated/, out);
  const negative = (out: string) => assert.match(out, /; negative response, fully validated/, out);

  /** The transferred zone: both whole-zone validators accept it, and it holds one kind of chain. */
  async function checkTransfer(denial: 'NSEC' | 'NSEC3'): Promise<Map<string, number>> {
    const { file, text } = await axfrFile(port, Z, dir);
    await run('dnssec-verify', ['-o', Z, file]);
    await run('kzonecheck', ['--dnssec', 'on', '-o', Z, file]);
    const types = typesIn(text);
    const other = denial === 'NSEC' ? 'NSEC3' : 'NSEC';
    assert.ok(types.get(denial)! > 0, `${denial} records in the AXFR`);
    assert.equal(types.get(other), undefined, `no ${other} left in the AXFR`);
    assert.equal(types.has('NSEC3PARAM'), denial === 'NSEC3');
    assert.doesNotMatch(text, new RegExp(`\\sRRSIG\\s+${other}\\s`), `no signature over ${other} left`);
    return types;
  }

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
    await c.login(await t.account('hasher', PASSWORD, { dnsCredits: 10 }), 'hasher', PASSWORD);
    [bind, knot] = await Promise.all([
      startBindSecondary(bindPort, port, CATALOG),
      startKnotSecondary(knotPort, port, CATALOG),
    ]);
  });
  after(async () => {
    await Promise.all([bind?.stop(), knot?.stop()]);
    await t?.close();
  });

  test('nsec3=YES: NSEC3PARAM 1 0 0 -, and delv validates NXDOMAIN, NODATA, wildcard and delegation proofs', async () => {
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    await c.call('dnsAddA.php', { domain: Z, name: 'www', ip: '192.0.2.1' });
    await c.call('dnsAddA.php', { domain: Z, name: '*.dev', ip: '192.0.2.7' });
    await c.call('dnsAddCNAME.php', { domain: Z, alias: 'alias', name: `www.${Z}.` });
    await c.call('dnsAddCNAME.php', { domain: Z, alias: 'wild', name: `x.dev.${Z}.` });
    await c.call('dnsAddCNAME.php', { domain: Z, alias: 'dangling', name: `gone.${Z}.` });
    await c.call('dnsAddNS.php', { domain: Z, subdomain: 'sub', nameserver: `ns1.sub.${Z}` });
    await c.call('dnsAddA.php', { domain: Z, name: 'ns1.sub', ip: '127.0.0.53' });
    await c.call('dnsAddA.php', { domain: Z, name: 'v6.deep.er', ip: '192.0.2.9' });
    await c.call('dnsAddMX.php', { domain: Z, name: '@', mxname: `www.${Z}.`, priority: '10' });
    const on = await c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES', nsec3: 'YES' });
    assert.deepEqual([on.enabled, on.nsec3], [true, true]);
    await c.call('dnsPublish.php', { domain: Z });
    await cycle();
    const s = await c.call('dnsGetDNSSEC.php', { domain: Z });
    assert.deepEqual([s.enabled, s.nsec3, s.ds.length], [true, true, 1]);

    // RFC 9276: SHA-1, no flags (opt-out off), 0 extra iterations, no salt.
    assert.equal((await digAt(port, '+short', Z, 'NSEC3PARAM')).trim(), '1 0 0 -');
    ok(await delv(port, Z, 'NSEC3PARAM'));
    ok(await delv(port, `www.${Z}`, 'A'));
    ok(await delv(port, `x.dev.${Z}`, 'A')); // wildcard answer (7.2.6)
    ok(await delv(port, `wild.${Z}`, 'A')); // a CNAME into a wildcard
    ok(await delv(port, `alias.${Z}`, 'A'));
    ok(await delv(port, Z, 'DNSKEY'));
    negative(await delv(port, `nope.${Z}`, 'A')); // NXDOMAIN (7.2.2)
    negative(await delv(port, `a.b.nope.${Z}`, 'A')); // NXDOMAIN several labels below the closest encloser
    negative(await delv(port, `x.v6.deep.er.${Z}`, 'A')); // NXDOMAIN below a name deep in the zone
    // A CNAME to a name that does not exist: the CNAME validated, then the target's NXDOMAIN from the proof.
    const dangling = await delv(port, `dangling.${Z}`, 'A');
    assert.match(dangling, /^; fully validated\n(?:.*\n)*;; resolution failed: ncache nxdomain$/m, dangling);
    negative(await delv(port, `gone.${Z}`, 'A'));
    negative(await delv(port, `www.${Z}`, 'TXT')); // NODATA (7.2.3)
    negative(await delv(port, `x.dev.${Z}`, 'TXT')); // wildcard NODATA (7.2.5)
    negative(await delv(port, `deep.er.${Z}`, 'A')); // an empty non-terminal: it has its own NSEC3
    negative(await delv(port, `sub.${Z}`, 'DS')); // no DS at an insecure delegation (7.2.4)

    // The answers carry NSEC3, never NSEC. An NXDOMAIN holds exactly RFC 5155 7.2.2's records, worked out here
    // from the transferred chain: the NSEC3 matching the closest encloser (the apex), and those covering the
    // next closer name and the wildcard (one record when one covers both).
    const chain = [...(await axfrFile(port, Z, dir)).text.matchAll(/^(\S+?)\.hashed\.example\.\s+\d+\s+IN\s+NSEC3\s/gm)]
      .map((m) => m[1]!)
      .sort();
    const hash = (name: string) => base32hex(nsec3Hash(name));
    const covers = (name: string) => chain.filter((l) => l < hash(name)).at(-1) ?? chain.at(-1)!;
    const nx = await digAt(port, '+dnssec', `nope.${Z}`, 'A');
    assert.match(nx, /status: NXDOMAIN/);
    assert.deepEqual(
      [...nx.matchAll(/^(\S+?)\.hashed\.example\.\s+\d+\s+IN\s+NSEC3\s+1 0 0 - /gm)].map((m) => m[1]).sort(),
      [...new Set([hash(Z), covers(`nope.${Z}`), covers(`*.${Z}`)])].sort(),
      nx,
    );
    assert.doesNotMatch(nx, /\sIN\s+NSEC\s/);
    // A referral with DO proves the delegation insecure with the NSEC3 matching the cut: its bitmap is NS alone.
    const referral = await digAt(port, '+dnssec', `host.sub.${Z}`, 'A');
    assert.match(referral, /^\S+\.hashed\.example\.\s+\d+\s+IN\s+NSEC3\s+1 0 0 - \S+ NS$/m, referral);
    // RFC 5155 7.2.9: an NSEC3 owner name is answered as if the NSEC3 did not exist.
    const types = await checkTransfer('NSEC3');
    const { text } = await axfrFile(port, Z, dir);
    const owner = /^(\S+)\s+\d+\s+IN\s+NSEC3\s/m.exec(text)![1]!;
    assert.match(await digAt(port, owner, 'NSEC3'), /status: NXDOMAIN/);
    negative(await delv(port, owner, 'A'));
    // One NSEC3 per name: 8 owners with data (the glue below sub is occluded) and 3 empty non-terminals
    // (dev, er, deep.er).
    assert.equal(types.get('NSEC3'), 11);
  });

  test('stock BIND and Knot secondaries serve the NSEC3 zone; delv validates through them', async () => {
    for (const secondary of [bind, knot]) {
      await eventually(
        async () => /; fully validated/.test(await delv(secondary.port, `www.${Z}`, 'A')),
        `validated through ${secondary.dir}`,
        20_000,
      );
      negative(await delv(secondary.port, `nope.${Z}`, 'A'));
      negative(await delv(secondary.port, `www.${Z}`, 'TXT'));
      ok(await delv(secondary.port, `x.dev.${Z}`, 'A'));
    }
  });

  test('a switch to NSEC and back re-signs cleanly, through the secondaries too; enable alone keeps the choice', async () => {
    const nsec = await c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES', nsec3: 'NO' });
    assert.deepEqual([nsec.enabled, nsec.nsec3, nsec.ds.length], [true, false, 1], 'the keys stay: same DS');
    await cycle();
    await checkTransfer('NSEC');
    negative(await delv(port, `nope.${Z}`, 'A'));
    assert.match(await digAt(port, '+dnssec', `nope.${Z}`, 'A'), /\sIN\s+NSEC\s/);
    // The secondaries take the new version (an IXFR that swaps the chains) and validate with it.
    for (const secondary of [bind, knot])
      await eventually(
        async () => /\sIN\s+NSEC\s/.test(await digAt(secondary.port, '+dnssec', `nope.${Z}`, 'A')),
        `NSEC through ${secondary.dir}`,
        20_000,
      );
    for (const secondary of [bind, knot]) negative(await delv(secondary.port, `nope.${Z}`, 'A'));

    await c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES', nsec3: 'YES' });
    await cycle();
    await checkTransfer('NSEC3');
    // `enable` alone changes nothing: the zone keeps NSEC3 (no new version either).
    const serial = (await digAt(port, '+short', Z, 'SOA')).split(' ')[2];
    assert.equal((await c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES' })).nsec3, true);
    await cycle();
    assert.equal((await digAt(port, '+short', Z, 'SOA')).split(' ')[2], serial);
    for (const secondary of [bind, knot]) {
      await eventually(
        async () => /\sIN\s+NSEC3\s/.test(await digAt(secondary.port, '+dnssec', `nope.${Z}`, 'A')),
        `NSEC3 again through ${secondary.dir}`,
        20_000,
      );
      negative(await delv(secondary.port, `nope.${Z}`, 'A'));
      negative(await delv(secondary.port, `deep.er.${Z}`, 'A'));
    }
  });

  test('off keeps the choice for next time; bad input answers codes', async () => {
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e) => e.code,
      );
    assert.equal(
      await code(c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES', nsec3: 'maybe' })),
      'syntaxInvalidNsec3',
    );
    assert.equal(
      await code(c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES', nsec3: 'yes' })),
      'syntaxInvalidNsec3',
    );
    assert.equal(
      await code(c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'YES', nsec3: '' } as never)),
      'syntaxInvalidNsec3',
    );
    // The order: the domain first, then `enable`, then `nsec3`.
    assert.equal(
      await code(c.call('dnsSetDNSSEC.php', { domain: 'other.example', enable: 'YES', nsec3: 'bad' } as never)),
      'noSuchDomain',
    );
    assert.equal(
      await code(c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'bad', nsec3: 'bad' } as never)),
      'syntaxInvalidEnable',
    );
    assert.equal((await c.call('dnsGetDNSSEC.php', { domain: Z })).nsec3, true, 'a refused call changed nothing');
    const off = await c.call('dnsSetDNSSEC.php', { domain: Z, enable: 'NO' });
    assert.deepEqual([off.enabled, off.nsec3], [false, true]);
    await cycle();
    assert.equal((await digAt(port, '+short', Z, 'NSEC3PARAM')).trim(), '');
    const { text } = await axfrFile(port, Z, dir);
    assert.deepEqual(
      ['RRSIG', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'DNSKEY'].filter((x) => typesIn(text).has(x)),
      [],
      'unsigned: no DNSSEC record left',
    );
    await c.call('dnsAddDomain.php', { domain: 'slave3.example', domaintype: 'slave', aup: 'YES' });
    assert.equal(
      await code(c.call('dnsSetDNSSEC.php', { domain: 'slave3.example', enable: 'YES', nsec3: 'YES' })),
      'dnssecMasterOnly',
    );
  });
});
