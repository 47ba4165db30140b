import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { VigilClient } from '../src/client/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { addDelegation, assertData, newTypeAdds, sha256 } from './helpers/record-types.ts';
import { type Served, tempDir } from './helpers/server.ts';
import { hasTool, namedCheckzone } from './helpers/tools.ts';
import { UserShell } from './helpers/user-cli.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 7';
const Z = 'rr.example';
const COPY = 'rr-copy.example';
const SCRIPTS: Record<string, string[]> = {
  'dnsAddPTR.php': ['host'],
  'dnsAddDS.php': ['keytag', 'algorithm', 'digesttype', 'digest'],
  'dnsAddTLSA.php': ['usage', 'selector', 'matchingtype', 'data'],
  'dnsAddSSHFP.php': ['algorithm', 'fptype', 'fingerprint'],
  'dnsAddSVCB.php': ['priority', 'target', 'params'],
  'dnsAddHTTPS.php': ['priority', 'target', 'params'],
  'dnsAddNAPTR.php': ['order', 'preference', 'flags', 'service', 'regexp', 'replacement'],
};

/**
 * PTR, DS, TLSA, SSHFP, SVCB, HTTPS and NAPTR through the API, the zone
 * text (BIND's and Knot's checkers), import, the CNAME rules, publish's DS
 * check, the user CLI and OpenAPI. On the wire: record-types-wire.test.ts.
 */
describe('seven new record types through the API, zone text, import, CLI and OpenAPI', () => {
  let t: TestApp;
  let c: VigilClient;
  let apikey: string;
  const records = async (domain: string) =>
    Object.values((await c.call('dnsGetDomainRecords.php', { domain })).records) as any[];
  const zoneText = async (domain: string) => (await c.call('dnsBuildZone.php', { domain })).zone as string;
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e) => e.code,
    );
  const domain = (d: string) => c.call('dnsAddDomain.php', { domain: d, domaintype: 'master', aup: 'YES' });

  before(async () => {
    t = await startTestApp({ domainHold: 'none', nsDomain: 'ns.vigil.test' });
    c = t.client();
    apikey = await t.account('rr', PASSWORD, { dnsCredits: 20 });
    await c.login(apikey, 'rr', PASSWORD);
  });
  after(() => t.close());

  test('each type is added through its script and read back with its fields (and an own ttl)', async () => {
    await domain(Z);
    await addDelegation(c, Z);
    const seen = new Set((await records(Z)).map((r) => String(r.seq)));
    for (const a of newTypeAdds(Z)) {
      assert.equal(await code(c.call(a.script, { domain: Z, ...a.fields })), 'ok', `${a.script} ${JSON.stringify(a)}`);
      const fresh = (await records(Z)).filter((r) => !seen.has(String(r.seq)));
      assert.equal(fresh.length, 1, `${a.script}: one new record`);
      seen.add(String(fresh[0].seq));
      assert.equal(fresh[0].type, a.type);
      assertData(fresh[0].data, a);
    }
  });

  test('bad fields answer the field’s syntaxInvalid… code, and nothing is added', async () => {
    const base: Record<string, Record<string, string>> = {
      'dnsAddPTR.php': { name: 'p', host: 'host.example.net.' },
      'dnsAddDS.php': { name: 'child', keytag: '1', algorithm: '13', digesttype: '2', digest: sha256('x') },
      'dnsAddTLSA.php': { name: '_443._tcp.b', usage: '3', selector: '1', matchingtype: '1', data: sha256('y') },
      'dnsAddSSHFP.php': { name: 'b', algorithm: '4', fptype: '2', fingerprint: sha256('z') },
      'dnsAddSVCB.php': { name: 'b', priority: '1', target: 'svc.example.net.', params: 'alpn=h2' },
      'dnsAddHTTPS.php': { name: 'b', priority: '1', target: '.', params: 'alpn=h2' },
      'dnsAddNAPTR.php': {
        name: 'b',
        order: '100',
        preference: '10',
        flags: 'S',
        service: 'SIP+D2U',
        regexp: '',
        replacement: `_sip._udp.${Z}.`,
      },
    };
    const bad: [string, Record<string, string>, string][] = [
      ['dnsAddPTR.php', { host: 'not a host' }, 'syntaxInvalidHostname'],
      ['dnsAddPTR.php', { host: 'a..example.net.' }, 'syntaxInvalidHostname'],
      ['dnsAddPTR.php', { name: 'a b' }, 'syntaxInvalidHostname'],
      ['dnsAddDS.php', { digest: sha256('x').slice(0, 40) }, 'syntaxInvalidDigest'],
      ['dnsAddDS.php', { digest: `${sha256('x').slice(2)}zz` }, 'syntaxInvalidDigest'],
      ['dnsAddDS.php', { digesttype: '9' }, 'syntaxInvalidDigesttype'],
      ['dnsAddDS.php', { keytag: '65536' }, 'syntaxInvalidKeytag'],
      ['dnsAddDS.php', { algorithm: '256' }, 'syntaxInvalidAlgorithm'],
      ['dnsAddTLSA.php', { usage: '4' }, 'syntaxInvalidUsage'],
      ['dnsAddTLSA.php', { selector: '2' }, 'syntaxInvalidSelector'],
      ['dnsAddTLSA.php', { matchingtype: '3' }, 'syntaxInvalidMatchingtype'],
      ['dnsAddTLSA.php', { data: sha256('y').slice(0, 40) }, 'syntaxInvalidData'],
      ['dnsAddTLSA.php', { data: 'xyz' }, 'syntaxInvalidData'],
      ['dnsAddSSHFP.php', { fptype: '3' }, 'syntaxInvalidFptype'],
      ['dnsAddSSHFP.php', { fingerprint: sha256('z').slice(0, 40) }, 'syntaxInvalidFingerprint'],
      ['dnsAddSSHFP.php', { algorithm: 'x' }, 'syntaxInvalidAlgorithm'],
      ['dnsAddSVCB.php', { priority: '0' }, 'syntaxInvalidParams'],
      ['dnsAddSVCB.php', { params: 'mandatory=port alpn=h2' }, 'syntaxInvalidParams'],
      ['dnsAddSVCB.php', { params: 'port=1 port=2' }, 'syntaxInvalidParams'],
      ['dnsAddSVCB.php', { priority: '65536' }, 'syntaxInvalidPriority'],
      ['dnsAddSVCB.php', { target: 'not a host' }, 'syntaxInvalidTarget'],
      ['dnsAddHTTPS.php', { params: 'port=65536' }, 'syntaxInvalidParams'],
      ['dnsAddHTTPS.php', { params: 'ipv4hint=192.0.2.300' }, 'syntaxInvalidParams'],
      ['dnsAddNAPTR.php', { flags: 'SA' }, 'syntaxInvalidFlags'],
      ['dnsAddNAPTR.php', { regexp: '!^.*$!sip:info@example.com', replacement: '.' }, 'syntaxInvalidRegexp'],
      ['dnsAddNAPTR.php', { order: '65536' }, 'syntaxInvalidOrder'],
      ['dnsAddNAPTR.php', { replacement: 'not a host' }, 'syntaxInvalidReplacement'],
    ];
    for (const s of Object.keys(SCRIPTS)) assert.ok(bad.filter(([b]) => b === s).length >= 2, s);
    const snapshot = JSON.stringify(await records(Z));
    for (const [script, fields, want] of bad) {
      const sent = { domain: Z, ...base[script], ...fields };
      assert.equal(await code(c.call(script, sent)), want, `${script} ${JSON.stringify(sent)}`);
    }
    assert.equal(JSON.stringify(await records(Z)), snapshot, 'nothing added');
  });

  test('dnsBuildZone text has every new record; named-checkzone and kzonecheck accept it', async (ctx) => {
    const text = await zoneText(Z);
    for (const a of newTypeAdds(Z)) {
      const owner = (a.owner ? `${a.owner}.${Z}.` : `${Z}.`).replace(/\./g, '\\.');
      const ttl = a.fields.ttl ?? '\\d+';
      assert.match(text, new RegExp(`^${owner}\\t${ttl}\\tIN\\t${a.type}\\t`, 'm'), `${a.type} at ${owner}`);
    }
    if (!hasTool('named-checkzone')) ctx.diagnostic('named-checkzone missing');
    else {
      const r = await namedCheckzone(Z, text);
      assert.ok(r.ok, `${r.output}\n${text}`);
    }
    if (!hasTool('kzonecheck')) return ctx.skip('kzonecheck missing');
    const file = join(tempDir('vigil-rr-'), `${Z}.zone`);
    writeFileSync(file, text);
    const r = await run('kzonecheck', ['-o', Z, file]).catch((e) => e);
    assert.equal(r.code ?? 0, 0, `${r.stdout}${r.stderr}\n${text}`);
  });

  test('the zone text imports into an empty domain: both records replies match', async () => {
    await domain(COPY);
    const text = (await zoneText(Z)).replaceAll(`${Z}.`, `${COPY}.`);
    const out = await c.call('dnsImportZone.php', { domain: COPY, zone: text });
    assert.deepEqual(out.errors, [], JSON.stringify(out));
    assert.ok(out.imported >= newTypeAdds(Z).length + 2, JSON.stringify(out));
    // Hex in any case (the zone text may write it in capitals).
    const hex = (k: string, v: unknown) =>
      ['digest', 'data', 'fingerprint'].includes(k) ? String(v).toLowerCase() : v;
    const key = (r: any) => `${r.type} ${JSON.stringify(r.data, hex).replaceAll(`${Z}.`, `${COPY}.`)}`;
    const shown = async (d: string) =>
      (await records(d))
        .filter((r) => r.type !== 'SOA')
        .map((r) => key(r))
        .sort();
    assert.deepEqual(await shown(COPY), await shown(Z));
    for (const a of newTypeAdds(COPY)) {
      const r = (await records(COPY)).filter((x) => x.type === a.type && x.data.name === a.owner);
      assert.equal(r.length, 1, `${a.type} at ${a.owner}`);
      assertData(r[0].data, a);
    }
  });

  test('CNAME beside other data is refused at add (either order) and at import; nothing imported', async () => {
    const C = 'cname.example';
    await domain(C);
    const add = (script: string, f: Record<string, string>) => code(c.call(script, { domain: C, ...f }));
    assert.equal(await add('dnsAddA.php', { name: 'x', ip: '192.0.2.1' }), 'ok');
    assert.equal(await add('dnsAddCNAME.php', { alias: 'x', name: 'www' }), 'cnameConflict');
    assert.equal(await add('dnsAddCNAME.php', { alias: 'y', name: 'www' }), 'ok');
    assert.equal(await add('dnsAddTXT.php', { name: 'y', txtdata: 'hello' }), 'cnameConflict');
    assert.equal(await add('dnsAddHTTPS.php', { name: 'h', priority: '1', target: '.', params: 'alpn=h2' }), 'ok');
    assert.equal(await add('dnsAddCNAME.php', { alias: 'h', name: 'www' }), 'cnameConflict');
    assert.equal(await add('dnsAddCNAME.php', { alias: '_443._tcp.c', name: 'www' }), 'ok');
    const tlsa = { name: '_443._tcp.c', usage: '3', selector: '1', matchingtype: '1', data: sha256('c') };
    assert.equal(await add('dnsAddTLSA.php', tlsa), 'cnameConflict');
    const snapshot = JSON.stringify(await records(C));
    for (const zone of [
      `$ORIGIN ${C}.\nz 3600 IN CNAME a\nz 3600 IN A 192.0.2.1\nok 3600 IN A 192.0.2.2\n`,
      `$ORIGIN ${C}.\nn 3600 IN SSHFP 4 2 ${sha256('n')}\nn 3600 IN CNAME a\n`,
    ]) {
      const out = await c.call('dnsImportZone.php', { domain: C, zone }).catch((e) => e);
      assert.ok(
        (out.errors ?? []).some((e: string) => /cnameConflict/.test(e)),
        JSON.stringify(out),
      );
      assert.ok(!out.imported, JSON.stringify(out));
    }
    assert.equal(JSON.stringify(await records(C)), snapshot, 'nothing imported');
  });

  test('publish refuses a DS without NS at its name, and takes it once the NS is there', async () => {
    const D = 'ds.example';
    await domain(D);
    const ds = { name: 'lonely', keytag: '2371', algorithm: '13', digesttype: '2', digest: sha256('lonely') };
    assert.equal(await code(c.call('dnsAddDS.php', { domain: D, ...ds })), 'ok');
    const refused = await c.call('dnsPublish.php', { domain: D });
    assert.ok(Array.isArray(refused.errors) && refused.errors.length > 0, JSON.stringify(refused));
    await c.call('dnsAddNS.php', { domain: D, subdomain: 'lonely', nameserver: 'ns.example.net.' });
    const ok = await c.call('dnsPublish.php', { domain: D });
    assert.equal(ok.errors, undefined, JSON.stringify(ok));
  });

  test('the user CLI: vigil dns add <zone> TLSA name=… usage=… adds it', async () => {
    const D = 'cli.example';
    await domain(D);
    const u = new UserShell({ httpsUrl: t.url, ca: t.ca } as Served, apikey, 'rr', PASSWORD);
    assert.equal((await u.login()).code, 0);
    const data = sha256('mail cert');
    const fields = ['name=_25._tcp.mail', 'usage=3', 'selector=1', 'matchingtype=1', `data=${data}`];
    const r = await u.vigil(['dns', 'add', D, 'TLSA', ...fields]);
    assert.equal(r.code, 0, r.stderr);
    const got = (await records(D)).filter((x) => x.type === 'TLSA');
    assert.equal(got.length, 1);
    assertData(got[0].data, {
      script: 'dnsAddTLSA.php',
      type: 'TLSA',
      owner: '_25._tcp.mail',
      fields: { name: '_25._tcp.mail', usage: '3', selector: '1', matchingtype: '1', data },
    });
    const wrong = await u.vigil(['dns', 'add', D, 'TLSA', ...fields, 'hash=00']);
    assert.equal(wrong.code, 2, wrong.stderr);
    assert.match(wrong.stderr, /TLSA has no field 'hash'/);
  });

  test('OpenAPI: each new script with its fields', async () => {
    const r = await t.client().raw('GET', '/api/openapi.json');
    assert.equal(r.http, 200);
    for (const [script, fields] of Object.entries(SCRIPTS)) {
      const post = r.body.paths[`/api/${script}`]?.post;
      assert.ok(post, `${script} in OpenAPI`);
      const form = post.requestBody.content['application/x-www-form-urlencoded'].schema;
      const props = new Set((form.anyOf ?? [form]).flatMap((f: any) => Object.keys(f.properties)));
      for (const f of ['domain', 'name', 'ttl', ...fields]) assert.ok(props.has(f), `${script}: ${f}`);
    }
  });
});
