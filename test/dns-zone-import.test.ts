import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { VigilClient } from '../src/client/index.ts';
import { distributionCycle } from '../src/dns/distribute.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { freePort } from './helpers/server.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 5';
const HAVE_CHECKZONE = spawnSync('which', ['named-checkzone']).status === 0;
const HAVE_DIG = spawnSync('which', ['dig']).status === 0;

/** BIND's own reader, off the network (-i local), host-name and NS problems fatal. */
function checkzone(zone: string, text: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-import-'));
  try {
    writeFileSync(join(dir, 'zone'), text);
    const r = spawnSync('named-checkzone', ['-i', 'local', '-k', 'fail', '-n', 'fail', zone, join(dir, 'zone')], {
      encoding: 'utf8',
    });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('zone import, per-record TTL and atomic changes (issue 16)', () => {
  let t: TestApp;
  let c: VigilClient;
  let port: number;
  const records = async (domain: string) =>
    Object.values((await c.call('dnsGetDomainRecords.php', { domain })).records) as any[];
  const zoneText = async (domain: string) => (await c.call('dnsBuildZone.php', { domain })).zone as string;
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e) => e.code,
    );

  before(async () => {
    port = await freePort();
    t = await startTestApp({ dnsPort: port, domainHold: 'none', nsDomain: 'ns.vigil.test', maxZoneRecords: 60 });
    c = t.client();
    await c.login(await t.account('zones', PASSWORD, { dnsCredits: 10 }), 'zones', PASSWORD);
  });
  after(() => t.close());

  test('an add takes a ttl: shown in the records reply, written in the zone, served (dig)', async () => {
    const Z = 'ttl.example';
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    await c.call('dnsAddA.php', { domain: Z, name: 'www', ip: '192.0.2.1', ttl: '300' });
    await c.call('dnsAddA.php', { domain: Z, name: 'zero', ip: '192.0.2.2', ttl: '0' });
    await c.call('dnsAddTXT.php', { domain: Z, name: 'txt', txtdata: 'hello', ttl: '2147483647' });
    await c.call('dnsAddA.php', { domain: Z, name: 'plain', ip: '192.0.2.3' });
    for (const bad of ['-1', '2147483648', '1e3', '5m', ' 30'])
      assert.equal(
        await code(c.call('dnsAddA.php', { domain: Z, name: 'x', ip: '192.0.2.9', ttl: bad })),
        'syntaxInvalidTTL',
        bad,
      );
    const recs = await records(Z);
    assert.deepEqual(recs.find((r) => r.data.name === 'www').data, { name: 'www', data: '192.0.2.1', ttl: 300 });
    assert.equal(
      recs.find((r) => r.data.name === 'plain').data.ttl,
      undefined,
      'no ttl given: the zone TTL, nothing stored',
    );
    const text = await zoneText(Z);
    assert.match(text, /^www\.ttl\.example\.\t300\tIN\tA\t192\.0\.2\.1$/m);
    assert.match(text, /^zero\.ttl\.example\.\t0\tIN\tA/m);
    assert.match(text, /^txt\.ttl\.example\.\t2147483647\tIN\tTXT/m);
    assert.match(text, /^plain\.ttl\.example\.\t86400\tIN\tA/m);
    if (HAVE_CHECKZONE) assert.ok(checkzone(Z, text).ok);
    // One set, two TTLs (RFC 2181 5.2): a publish warning, and the set is served with the lowest.
    await c.call('dnsAddA.php', { domain: Z, name: 'mixed', ip: '192.0.2.5', ttl: '600' });
    await c.call('dnsAddA.php', { domain: Z, name: 'mixed', ip: '192.0.2.6', ttl: '120' });
    const pub = await c.call('dnsPublish.php', { domain: Z });
    assert.equal(pub.errors, undefined);
    assert.deepEqual(pub.warnings, [
      'the A records at mixed.ttl.example have different TTLs (120, 600 s); all are served with the lowest',
    ]);
    await distributionCycle(t.app.services.db, t.clock);
    await t.app.serving.load(t.app.services.db);
    if (!HAVE_DIG) return;
    const dig = async (name: string) =>
      (await run('dig', ['@127.0.0.1', '-p', String(port), '+noall', '+answer', name, 'A'])).stdout.trim().split(/\s+/);
    assert.equal((await dig('www.ttl.example'))[1], '300');
    assert.equal((await dig('zero.ttl.example'))[1], '0');
    assert.equal((await dig('plain.ttl.example'))[1], '86400');
    const mixed = (
      await run('dig', ['@127.0.0.1', '-p', String(port), '+noall', '+answer', 'mixed.ttl.example', 'A'])
    ).stdout
      .trim()
      .split('\n');
    assert.deepEqual(
      mixed.map((l) => l.split(/\s+/)[1]),
      ['120', '120'],
    );
  });

  test('round trip: every type -> dnsBuildZone -> import into a new domain -> the same zone text; named-checkzone passes', async () => {
    const Z = 'round.example';
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    const add = (script: string, f: Record<string, string>) => c.call(script, { domain: Z, ...f });
    await c.call('dnsSetSOA.php', { domain: Z, admin: 'john.doe@round.example', ttl: '3600' });
    await add('dnsAddA.php', { name: '', ip: '192.0.2.1' });
    await add('dnsAddA.php', { name: 'www', ip: '192.0.2.2', ttl: '300' });
    await add('dnsAddA.php', { name: '*.dev', ip: '192.0.2.4' });
    await add('dnsAddA.php', { name: 'mail', ip: '192.0.2.25' });
    await add('dnsAddAAAA.php', { name: 'www', ip: '2001:DB8::2', ttl: '300' });
    await add('dnsAddCNAME.php', { alias: 'ftp', name: 'www' });
    await add('dnsAddCNAME.php', { alias: 's1._domainkey', name: 's1.dkim.other.net.', ttl: '60' });
    await add('dnsAddMX.php', { name: '', mxname: 'mail', priority: '10' });
    await add('dnsAddMX.php', { name: '', mxname: 'mx.other.net.', priority: '99' });
    await add('dnsAddNS.php', { subdomain: 'sub', nameserver: `ns1.sub.${Z}` });
    await add('dnsAddNS.php', { subdomain: '', nameserver: 'ns9.secondary.net.' });
    await add('dnsAddA.php', { name: 'ns1.sub', ip: '192.0.2.53' });
    await add('dnsAddTXT.php', { name: '', txtdata: 'v=spf1 mx -all' });
    await add('dnsAddTXT.php', { name: '_dmarc', txtdata: 'v=DMARC1; p=reject' });
    await add('dnsAddTXT.php', { name: 'long', txtdata: `"quoted" \\ back\\slash ${'x'.repeat(300)} ü ; end` });
    await add('dnsAddTXT.php', { name: 'inject', txtdata: '"; $INCLUDE /etc/passwd ( ) \\" ;comment' });
    await add('dnsAddSRV.php', {
      srvc: '_sip',
      prot: '_tcp',
      host: '',
      pri: '10',
      weight: '5',
      port: '5060',
      target: 'www',
    });
    await add('dnsAddSRV.php', { srvc: 'imap', prot: 'tcp', host: '', pri: '0', weight: '0', port: '0', target: '.' });
    await add('dnsAddCAA.php', {
      subdomain: '',
      flag: '0',
      tag: 'issue',
      value: 'letsencrypt.org; validationmethods=dns-01',
    });
    await add('dnsAddCAA.php', { subdomain: '', flag: '128', tag: 'iodef', value: 'mailto:security@round.example' });
    const before = await zoneText(Z);
    if (HAVE_CHECKZONE) {
      const r = checkzone(Z, before);
      assert.ok(r.ok, `${r.output}\n${before}`);
    }
    await c.call('dnsDeleteDomain.php', { domain: Z });
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    const out = await c.call('dnsImportZone.php', { domain: Z, zone: before });
    assert.deepEqual(out.errors, [], JSON.stringify(out));
    assert.equal(out.imported, 20, 'the four default NS were there already');
    assert.ok(
      out.warnings.some((w: string) => /4 record\(s\) equal/.test(w)),
      JSON.stringify(out.warnings),
    );
    assert.ok(out.warnings.some((w: string) => /apex NS ns9\.secondary\.net\./.test(w)));
    assert.equal(await zoneText(Z), before);
    assert.equal((await records(Z)).find((r) => r.data.name === 'www' && r.type === 'A').data.ttl, 300);
    // Importing the same text again adds nothing and changes nothing: a published domain stays so.
    assert.equal((await c.call('dnsPublish.php', { domain: Z })).errors, undefined);
    assert.equal((await c.call('dnsImportZone.php', { domain: Z, zone: before })).imported, 0);
    assert.equal((await c.call('dnsGetDomainRecords.php', { domain: Z })).state, 2);
  });

  test('real-world master-file text: parentheses, TXT strings and escapes, $ORIGIN, $TTL, @, either order, omitted owner', async () => {
    const Z = 'real.example';
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    const zone = `; exported by another provider
$ORIGIN real.example.
$TTL 1h
@\tIN\tSOA\tns1.provider.net. admin\\.team.real.example. (
\t\t2024010101 ; serial
\t\t7200 3600 1209600 ; refresh retry expire
\t\t600 )       ; minimum
@ 3600 IN NS ns1.provider.net.
www  IN 300 A 192.0.2.10
     300 IN A 192.0.2.11
     AAAA 2001:db8::10
txt  TXT "v=spf1; include:x" "-all" ; a comment "not text"
dkim TXT ( "p=MIIB"
           "IjAN\\"q\\"" "\\195\\169" )
@ MX 10 mail
mail.real.example. A 192.0.2.25
$ORIGIN eu.real.example.
api CNAME www.real.example.
$TTL 600
ptr 600 IN PTR host.example.net.
other.example. A 192.0.2.99
`;
    const out = await c.call('dnsImportZone.php', { domain: Z, zone });
    assert.deepEqual(out.errors, [], JSON.stringify(out));
    assert.equal(out.imported, 10, 'the PTR too (issue 25)');
    assert.ok(
      out.warnings.some((w: string) =>
        /1 record\(s\) outside real\.example were skipped \(first: other\.example\.\)/.test(w),
      ),
    );
    const recs = await records(Z);
    const soa = recs.find((r) => r.type === 'SOA').data;
    assert.equal(soa.mail, 'admin\\.team.real.example.');
    assert.equal(soa.min, 600);
    assert.equal(soa.priNS, 'ns1.ns.vigil.test.', "Vigil's name servers serve the zone");
    const txt = recs
      .filter((r) => r.type === 'TXT')
      .map((r) => r.data.data)
      .sort();
    assert.deepEqual(txt, ['p=MIIBIjAN"q"é', 'v=spf1; include:x-all']);
    assert.deepEqual(
      recs.filter((r) => r.data.name === 'www').map((r) => [r.type, r.data.data, r.data.ttl]),
      [
        ['A', '192.0.2.10', 300],
        ['A', '192.0.2.11', 300],
        ['AAAA', '2001:db8::10', 3600],
      ],
    );
    assert.deepEqual(
      recs.find((r) => r.type === 'CNAME').data,
      { name: 'api.eu', data: 'www.real.example.', ttl: 3600 },
      '$TTL 1h, not the zone TTL (600)',
    );
    assert.deepEqual(recs.find((r) => r.type === 'MX').data, {
      pri: 10,
      host: '',
      data: 'mail.real.example.',
      ttl: 3600,
    });
    if (HAVE_CHECKZONE) assert.ok(checkzone(Z, await zoneText(Z)).ok);
  });

  test('nothing changes when any line is rejected', async () => {
    const Z = 'reject.example';
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    const before = await zoneText(Z);
    const bad = async (zone: string, pattern: RegExp) => {
      const out = await c.call('dnsImportZone.php', { domain: Z, zone });
      assert.equal(out.imported, 0);
      assert.ok(
        out.errors.some((e: string) => pattern.test(e)),
        JSON.stringify(out.errors),
      );
      assert.equal(await zoneText(Z), before);
    };
    await bad('www A 192.0.2.1\nbad A 999.0.2.1\n', /^line 2: bad\.reject\.example\. A: syntaxInvalidIP$/);
    await bad('www A 192.0.2.1\n$INCLUDE /etc/passwd\n', /^line 2: \$INCLUDE is refused/);
    await bad('www A 192.0.2.1\nwww CNAME other.net.\n', /^line 2: www\.reject\.example\. CNAME: cnameConflict$/);
    await bad('@ SOA a. hostmaster.reject.example. 1 2 3 4 5\n', /^line 1: reject\.example\. SOA: syntaxInvalidTTL$/);
    await bad('x.other.example. SOA a. b. 1 2 3 4 3600\n', /the SOA must be at the apex/);
    await bad(Array.from({ length: 60 }, (_, i) => `h${i} A 192.0.2.${i}`).join('\n'), /this server takes at most 60/);
    assert.deepEqual((await c.call('dnsImportZone.php', { domain: Z, zone: ' \n' })).errors, [
      'the zone text is empty',
    ]);
    assert.equal(
      await code(c.call('dnsImportZone.php', { domain: 'nosuch.example', zone: 'www A 192.0.2.1' })),
      'noSuchDomain',
    );
    assert.equal(
      await code(c.call('dnsImportZone.php', { domain: Z, zone: 'www A 192.0.2.1', ttl: '5' })),
      'unknownParameter',
    );
  });

  test('dnsApplyChanges: validated against the final state, all or none, seqs of what was applied', async () => {
    const Z = 'bulk.example';
    await c.call('dnsAddDomain.php', { domain: Z, domaintype: 'master', aup: 'YES' });
    await c.call('dnsAddA.php', { domain: Z, name: 'www', ip: '192.0.2.1' });
    const a = (await records(Z)).find((r) => r.type === 'A');
    const apply = (changes: unknown[]) =>
      c.call('dnsApplyChanges.php', { domain: Z, changes: JSON.stringify(changes) });
    // A CNAME where the same call deletes the A it would clash with.
    const ok = await apply([
      { action: 'delete', seq: a.seq },
      { action: 'add', type: 'CNAME', alias: 'www', name: 'web.other.net.', ttl: 120 },
      { action: 'add', type: 'TXT', name: '', txtdata: 'v=spf1 -all' },
    ]);
    assert.deepEqual(ok.errors, []);
    assert.deepEqual(
      ok.applied.map((x: any) => [x.index, x.action]),
      [
        [0, 'delete'],
        [1, 'add'],
        [2, 'add'],
      ],
    );
    assert.equal(ok.applied[0].seq, Number(a.seq));
    const recs = await records(Z);
    assert.deepEqual(recs.find((r) => String(r.seq) === String(ok.applied[1].seq)).data, {
      name: 'www',
      data: 'web.other.net.',
      ttl: 120,
    });
    assert.equal(
      recs.find((r) => r.type === 'A'),
      undefined,
    );

    // One bad change: nothing applied, the index of the change that failed.
    const snapshot = await zoneText(Z);
    const bad = await apply([
      { action: 'add', type: 'A', name: 'x', ip: '192.0.2.7' },
      { action: 'add', type: 'A', name: 'y', ip: 'nope' },
      { action: 'delete', seq: 999999 },
    ]);
    assert.deepEqual(bad.applied, []);
    assert.deepEqual(
      bad.errors.map((e: any) => [e.index, e.code]),
      [
        [1, 'syntaxInvalidIP'],
        [2, 'recordNotDeleted'],
      ],
    );
    // A field the add does not take is refused, not dropped (`ipaddr` for `ip`, `TTL` for `ttl`).
    const typo = await apply([
      { action: 'add', type: 'A', name: 'x', ip: '192.0.2.7' },
      { action: 'add', type: 'A', name: 'z', ipaddr: '192.0.2.7', TTL: '5' },
    ]);
    assert.deepEqual(typo.errors, [{ index: 1, code: 'unknownParameter', message: 'A adds take no ipaddr, TTL' }]);
    // An A beside the CNAME the call does not delete: that change, refused as an add refuses it (issue 25).
    const clash = await apply([
      { action: 'add', type: 'TXT', name: 'note', txtdata: 'fine' },
      { action: 'add', type: 'A', name: 'www', ip: '192.0.2.8' },
    ]);
    assert.deepEqual(
      clash.errors.map((e: any) => [e.index, e.code]),
      [[1, 'cnameConflict']],
    );
    // The final state as a whole: a delegation without the glue its in-zone name server needs.
    const glueless = await apply([{ action: 'add', type: 'NS', subdomain: 'sub', nameserver: `ns1.sub.${Z}` }]);
    assert.deepEqual(
      glueless.errors.map((e: any) => [e.index, e.code]),
      [[null, 'unspecifiedError']],
    );
    assert.match(glueless.errors[0].message, /needs a glue A or AAAA record/);
    // The record cap counts the final zone: a delete makes room for an add in the same call.
    const count = (await records(Z)).length;
    const fill = await apply(
      Array.from({ length: 60 - count }, (_, i) => ({ action: 'add', type: 'A', name: `h${i}`, ip: '192.0.2.1' })),
    );
    assert.deepEqual(fill.errors, []);
    const over = await apply([{ action: 'add', type: 'A', name: 'one-more', ip: '192.0.2.1' }]);
    assert.match(over.errors[0].message, /at most 60/);
    const swap = await apply([
      { action: 'delete', seq: fill.applied[0].seq },
      { action: 'add', type: 'A', name: 'one-more', ip: '192.0.2.1' },
    ]);
    assert.deepEqual(swap.errors, []);
    assert.notEqual(await zoneText(Z), snapshot);
    // The SOA is never deleted; the call's own shape errors are spec codes.
    const soa = (await records(Z)).find((r) => r.type === 'SOA');
    assert.deepEqual(
      (await apply([{ action: 'delete', seq: soa.seq }])).errors.map((e: any) => e.code),
      ['recordNotDeleted'],
    );
    assert.equal(await code(c.call('dnsApplyChanges.php', { domain: Z, changes: 'not json' })), 'missingInput');
    assert.equal(
      await code(c.call('dnsApplyChanges.php', { domain: 'nosuch.example', changes: '[]' })),
      'noSuchDomain',
    );
  });
});
