import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { createAccount } from '../src/accounts/accounts.ts';
import { type App, startApp } from '../src/app.ts';
import { VigilClient } from '../src/client/index.ts';
import { ManualClock } from '../src/clock.ts';
import { buildConfig } from '../src/config.ts';
import { freePort, tempDir } from './helpers/server.ts';

const PASSWORD = 'correct horse 12';

/** Issue 12, items 7 and 8, through the API: what a user sees and what the operator's log gets. */
describe('issue 12: smaller defects seen through the API', () => {
  let app: App;
  let c: VigilClient;
  const log: { level: number; msg: string }[] = [];

  before(async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
    const dataDir = tempDir();
    const config = buildConfig({
      dataDir,
      httpsPort: await freePort(),
      httpPort: 0,
      dnsPort: 0,
      forwardPort: 0,
      domainHold: 'manual',
      nsDomain: 'ns.vigil.test',
    });
    // The log is kept: a stack trace for a normal request is one of the defects.
    const logger = pino({ level: 'info' }, { write: (line: string) => void log.push(JSON.parse(line)) });
    app = await startApp(config, { clock, logger });
    c = new VigilClient({
      baseUrl: `https://${app.listeners.https}`,
      ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'),
    });
    const { apikey } = await createAccount(app.services.db, clock, 'small', { password: PASSWORD, dnsCredits: 3 });
    await c.login(apikey, 'small', PASSWORD);
  });
  after(async () => {
    c.close();
    await app.close();
  });

  test('dnsBuildZone of a slave domain without a copy: a comment, status 0, nothing logged as an error', async () => {
    await c.call('dnsAddDomain.php', { domain: 'noslave.example', domaintype: 'slave', aup: 'YES' });
    await c.call('dnsSetOptions.php', { domain: 'noslave.example', masters: '127.0.0.9:5399' });
    const before = log.length;
    const r = await c.post('dnsBuildZone.php', {
      apikey: c.apikey,
      sessionToken: c.sessionToken,
      domain: 'noslave.example',
    });
    assert.equal(r.http, 200);
    assert.deepEqual(r.body, {
      status: '0',
      zone: '; noslave.example: slave domain, no copy transferred from its masters yet\n',
    });
    assert.deepEqual(
      log.slice(before).filter((l) => l.level >= 50),
      [],
      'no error (stack trace) in the log',
    );
  });

  test('dnsAddNS: nameserver without the final dot is fully qualified (spec 4.1)', async () => {
    await c.call('dnsAddDomain.php', { domain: 'ns.example', domaintype: 'master', aup: 'YES' });
    await c.call('dnsAddNS.php', { domain: 'ns.example', subdomain: 'sub', nameserver: 'ns1.example.net' });
    const recs = Object.values(
      (await c.call('dnsGetDomainRecords.php', { domain: 'ns.example' })).records as Record<string, any>,
    );
    const ns = recs.filter((r) => r.type === 'NS').map((r) => `${r.data.name} ${r.data.data}`);
    assert.deepEqual(ns.sort(), [
      ' ns1.ns.vigil.test.',
      ' ns2.ns.vigil.test.',
      ' ns3.ns.vigil.test.',
      ' ns4.ns.vigil.test.',
      'sub ns1.example.net.',
    ]);
    const zone = (await c.call('dnsBuildZone.php', { domain: 'ns.example' })).zone as string;
    assert.match(zone, /^sub\.ns\.example\.\t\d+\tIN\tNS\tns1\.example\.net\.$/m);
  });

  test('hold: an extension field of the domain list and of the records reply, false once released', async () => {
    await c.call('dnsAddDomain.php', { domain: 'held.example', domaintype: 'master', aup: 'YES' });
    const entry = async () =>
      Object.values((await c.call('dnsGetDomainList.php')).domains as Record<string, any>).find(
        (d) => d.domain === 'held.example',
      );
    const held = await entry();
    assert.deepEqual(
      Object.keys(held),
      ['domain', 'seq', 'weight', 'state', 'stateText', 'hold', 'servedSerial'],
      'the spec fields first, unchanged',
    );
    assert.equal(held.hold, true);
    assert.equal((await c.call('dnsGetDomainRecords.php', { domain: 'held.example' })).hold, true);
    assert.ok(await app.services.dns.domains.release('held.example'));
    assert.equal((await entry()).hold, false);
    const r = await c.call('dnsGetDomainRecords.php', { domain: 'held.example' });
    assert.equal(r.hold, false);
    assert.deepEqual(Object.keys(r), ['status', 'domain', 'state', 'stateText', 'hold', 'records']);
  });
});
