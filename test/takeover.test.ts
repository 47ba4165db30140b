import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import { admin } from './helpers/server.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { replyCode } from './helpers/calls.ts';

const PASSWORD = 'correct horse 12';

const code = replyCode;

const add = (c: VigilClient, domain: string, domaintype = 'master') =>
  code(c, 'dnsAddDomain.php', { domain, domaintype, aup: 'YES' });

describe('name takeover across accounts (issue 12, item 1)', () => {
  let t: TestApp;
  let a: VigilClient;
  let b: VigilClient;

  before(async () => {
    t = await startTestApp({ nsDomain: 'ns.vigil.test', catalogZone: 'catalog.vigil.invalid' });
    a = t.client();
    b = t.client();
    await a.login(await t.account('alice', PASSWORD, { dnsCredits: 20 }), 'alice', PASSWORD);
    await b.login(await t.account('bob', PASSWORD, { dnsCredits: 20 }), 'bob', PASSWORD);
    assert.equal(await add(a, 'alice.example'), 'ok');
  });
  after(() => t.close());

  test('another account cannot add a child or a parent of a domain, as master or slave', async () => {
    assert.equal(await add(b, 'mail.alice.example'), 'unableToAddDuplicate');
    assert.equal(await add(b, 'mail.alice.example', 'slave'), 'unableToAddDuplicate');
    assert.equal(await add(b, 'deep.er.alice.example'), 'unableToAddDuplicate');
    assert.equal(await add(b, 'ALICE.example.'), 'unableToAddDuplicate', 'the same name in another spelling');
    assert.equal(await add(a, 'sub.bob.example'), 'ok', 'nothing of bob there yet');
    assert.equal(await add(b, 'bob.example'), 'unableToAddDuplicate', "a parent of alice's sub.bob.example");
    // A name that merely ends the same way is no relative.
    assert.equal(await add(b, 'malice.example'), 'ok');
  });

  test('an account may nest its own domains', async () => {
    assert.equal(await add(a, 'shop.alice.example'), 'ok');
    assert.equal(await add(a, 'eu.shop.alice.example', 'slave'), 'ok');
  });

  test("the service's own names, above and below, are never added", async () => {
    for (const name of [
      'ns.vigil.test',
      'ns1.ns.vigil.test',
      'vigil.test',
      'catalog.vigil.invalid',
      'zones.catalog.vigil.invalid',
    ]) {
      assert.equal(await add(b, name), 'unableToAddDuplicate', name);
    }
  });

  test('public suffixes and the reverse trees are refused', async () => {
    for (const name of ['co.uk', 'github.io', 'in-addr.arpa', '2.0.192.in-addr.arpa', '8.b.d.0.1.0.0.2.ip6.arpa']) {
      assert.equal(await add(b, name), 'syntaxInvalidDomain', name);
    }
    assert.equal(await add(b, 'bob.co.uk'), 'ok', 'a registrable name under a suffix');
    assert.equal(await add(b, 'bob.github.io'), 'ok', 'a private-section suffix has registrable names too');
  });

  test('a refused add changes nothing and costs no credit', async () => {
    const before = await b.call('dnsGetDomainList.php');
    assert.equal(await add(b, 'www.alice.example'), 'unableToAddDuplicate');
    assert.deepEqual(await b.call('dnsGetDomainList.php'), before);
  });
});

describe('the operator may allow nesting, public suffixes and reverse zones', () => {
  let t: TestApp;
  let dataDir: string;

  before(async () => {
    t = await startTestApp({ allowDomains: ['nested', 'public-suffix', 'reverse'] });
    dataDir = t.app.services.config.dataDir;
  });
  after(() => t.close());

  test('with --allow-domains the names are added, and a nested release warns and needs --force', async () => {
    const a = t.client();
    const b = t.client();
    await a.login(await t.account('alice', PASSWORD, { dnsCredits: 5 }), 'alice', PASSWORD);
    await b.login(await t.account('bob', PASSWORD, { dnsCredits: 5 }), 'bob', PASSWORD);
    assert.equal(await add(a, 'alice.example'), 'ok');
    assert.equal(await add(b, 'mail.alice.example'), 'ok');
    assert.equal(await add(b, '2.0.192.in-addr.arpa'), 'ok');
    assert.equal(await add(b, 'co.uk'), 'ok');

    await assert.rejects(admin(dataDir, 'domain', 'release', 'mail.alice.example'), (err: any) => {
      assert.match(
        err.stderr,
        /warning: mail\.alice\.example \(account bob\) nests with alice\.example of account alice/,
      );
      assert.match(err.stderr, /--force/);
      return true;
    });
    const held = await b.call('dnsPublish.php', { domain: 'mail.alice.example' });
    assert.ok(
      held.errors?.some((e: string) => /on hold/.test(e)),
      'still held after the refused release',
    );
    const { stdout } = await admin(dataDir, 'domain', 'release', 'mail.alice.example', '--force');
    assert.match(stdout, /released mail\.alice\.example \(master, account bob\)/);
    const { stdout: plain } = await admin(dataDir, 'domain', 'release', 'co.uk');
    assert.match(plain, /released co\.uk/);
  });
});
