import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import { distributionCycle } from '../src/dns/distribute.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { freePort } from './helpers/server.ts';

const PASSWORD = 'correct horse 7';

/** A real HTTP GET to the forwarder with the given Host header. */
function get(
  port: number,
  host: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, any>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/some/path', method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('web forwarding', () => {
  let t: TestApp;
  let c: VigilClient;
  let dnsPort: number;
  let httpPort: number;

  before(async () => {
    [dnsPort, httpPort] = [await freePort(), await freePort()];
    t = await startTestApp({ dnsPort, forwardPort: httpPort, domainHold: 'none', forwardAddress: '127.0.0.1' });
    c = t.client();
    await c.login(await t.account('fw', PASSWORD, { dnsCredits: 3 }), 'fw', PASSWORD);
    await c.call('dnsAddDomain.php', { domain: 'fw.example', domaintype: 'master', aup: 'YES' });
  });
  after(() => t.close());

  test('dnsAddWebForwarding.php adds a record and the domain weighs 2 credits', async () => {
    await c.call('dnsAddWebForwarding.php', {
      domain: 'fw.example',
      host: 'go',
      target: 'https://example.org/landing',
      cloak: '0',
    });
    await c.call('dnsAddWebForwarding.php', {
      domain: 'fw.example',
      host: 'hidden',
      target: 'https://example.org/"quoted"?a=1&b=<2>',
      cloak: '1',
    });
    const records = Object.values(
      (await c.call('dnsGetDomainRecords.php', { domain: 'fw.example' })).records as Record<string, any>,
    );
    const wf = records.filter((r) => r.type === 'WebForwarding');
    assert.deepEqual(
      wf.map((r) => r.data).sort((a, b) => a.host.localeCompare(b.host)),
      [
        { host: 'go', target: 'https://example.org/landing', cloak: 0 },
        { host: 'hidden', target: 'https://example.org/%22quoted%22?a=1&b=%3C2%3E', cloak: 1 },
      ],
    );
    const list = await c.call('dnsGetDomainList.php');
    assert.equal(list.domainweight, 2);
    assert.equal(Object.values(list.domains as Record<string, any>)[0].weight, 2);
    assert.equal(
      (
        await c.post('dnsAddWebForwarding.php', {
          apikey: c.apikey,
          sessionToken: c.sessionToken,
          domain: 'fw.example',
          host: 'x',
          target: 'ftp://x',
        })
      ).body.error,
      'syntaxInvalidTarget',
    );
  });

  test('without a free credit the first forwarding of a domain is refused', async () => {
    const poor = t.client();
    await poor.login(await t.account('poor', PASSWORD, { dnsCredits: 1 }), 'poor', PASSWORD);
    await poor.call('dnsAddDomain.php', { domain: 'poor.example', domaintype: 'master', aup: 'YES' });
    const r = await poor.post('dnsAddWebForwarding.php', {
      apikey: poor.apikey,
      sessionToken: poor.sessionToken,
      domain: 'poor.example',
      host: 'go',
      target: 'https://example.org/',
    });
    assert.equal(r.body.error, 'dnsEntitlementsOrCreditsMissing');
  });

  test('published and distributed: the host resolves to the forwarder, which redirects or frames', async () => {
    assert.equal((await c.call('dnsPublish.php', { domain: 'fw.example' })).errors, undefined);
    await distributionCycle(t.app.services.db, t.clock);
    await t.app.serving.load(t.app.services.db);
    const a = await udpQuery(dnsPort, 'go.fw.example', 'A');
    assert.equal(a.answers![0].data, '127.0.0.1');
    const redirect = await get(httpPort, 'go.fw.example');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, 'https://example.org/landing');
    const framed = await get(httpPort, 'Hidden.FW.example:8081');
    assert.equal(framed.status, 200);
    assert.match(framed.body, /<iframe src="https:\/\/example\.org\/%22quoted%22\?a=1&#38;b=%3C2%3E"/);
    assert.equal((await get(httpPort, 'unknown.example')).status, 404);
    assert.equal((await get(httpPort, 'go.fw.example', 'POST')).status, 405);
  });

  test('a forwarded host with its own address record does not publish', async () => {
    await c.call('dnsAddA.php', { domain: 'fw.example', name: 'go', ip: '192.0.2.1' });
    const r = await c.call('dnsPublish.php', { domain: 'fw.example' });
    assert.ok(r.errors.some((e: string) => /web-forwarded/.test(e)));
  });
});
