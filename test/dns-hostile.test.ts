import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { hasTool, namedCheckzone } from './helpers/tools.ts';

// Split from dns.test.ts (the file passed 300 lines): every hostile value in every field.
const PASSWORD = 'correct horse 4';
const CHECKZONE = hasTool('named-checkzone');

describe('hostile values in every field of every DNS change script', () => {
  let t: TestApp;
  let c: VigilClient;
  before(async () => {
    t = await startTestApp({ domainHold: 'none' });
    c = t.client();
    await c.login(await t.account('hostile', PASSWORD, { dnsCredits: 2 }), 'hostile', PASSWORD);
    await c.call('dnsAddDomain.php', { domain: 'victim.example', domaintype: 'master', aup: 'YES' });
  });
  after(() => t.close());

  // Raw form values, already percent-encoded: each is malformed or hostile.
  const HOSTILE: Record<string, string> = {
    nul: 'a%00b',
    badUtf8: '%ff%fe',
    badEscape: '%zz',
    huge: 'a'.repeat(10_000),
    injection: encodeURIComponent('x"\n$INCLUDE /etc/passwd\n@ IN A 6.6.6.6 ;'),
    directive: encodeURIComponent('$ORIGIN evil.'),
    comment: encodeURIComponent('www ; comment'),
  };
  const SCRIPTS: Record<string, Record<string, string>> = {
    'dnsAddA.php': { name: 'www', ip: '192.0.2.1' },
    'dnsAddAAAA.php': { name: 'www', ip: '2001:db8::1' },
    'dnsAddCNAME.php': { alias: 'c', name: 'www' },
    'dnsAddMX.php': { name: '', mxname: 'mail', priority: '10' },
    'dnsAddCAA.php': { subdomain: '', flag: '0', tag: 'issue', value: 'ca.example' },
    'dnsAddNS.php': { subdomain: 'sub', nameserver: 'ns.example.net.' },
    'dnsAddSRV.php': { srvc: 'sip', prot: 'tcp', host: '', pri: '1', weight: '1', port: '5060', target: 'www' },
    'dnsAddTXT.php': { name: 'txt', txtdata: 'hello' },
    'dnsSetSOA.php': { admin: 'a@example.com', ttl: '3600' },
    'dnsSetOptions.php': {
      masters: '127.0.0.1',
      allowtransferacl: '192.0.2.0/24',
      notify: 'yes',
      alsonotify: '127.0.0.2',
    },
  };

  // Text that is legitimate TXT content: stored, and written quoted.
  const ACCEPTED = new Set(['dnsAddTXT.php txtdata directive', 'dnsAddTXT.php txtdata comment']);

  test('each hostile value in each field is refused with a code (TXT text stays quoted), the zone intact', async (ctx) => {
    const before = JSON.stringify((await c.call('dnsGetDomainRecords.php', { domain: 'victim.example' })).records);
    let checked = 0;
    for (const [script, fields] of Object.entries(SCRIPTS)) {
      for (const field of ['domain', ...Object.keys(fields)]) {
        for (const [kind, value] of Object.entries(HOSTILE)) {
          const form = Object.entries({ domain: 'victim.example', ...fields })
            .map(([k, v]) => `${k}=${k === field ? value : encodeURIComponent(v)}`)
            .join('&');
          const r = await c.raw('POST', `/api/${script}`, `apikey=${c.apikey}&sessionToken=${c.sessionToken}&${form}`);
          assert.equal(r.http, 200, `${script} ${field} ${kind}`);
          checked++;
          if (ACCEPTED.has(`${script} ${field} ${kind}`)) {
            assert.equal(r.body.status, '0', `${script} ${field} ${kind}`);
            continue;
          }
          assert.equal(r.body.status, '-1', `${script} ${field}=${kind} was accepted`);
          assert.match(
            r.body.error,
            /^(syntaxInvalid\w+|noSuchDomain|unspecifiedError|logicAlsoNotifyRequiresNotify)$/,
            `${script} ${field} ${kind}`,
          );
        }
      }
    }
    assert.ok(checked > 250);
    const records = (await c.call('dnsGetDomainRecords.php', { domain: 'victim.example' })).records as Record<
      string,
      any
    >;
    const added = Object.values(records).filter((r) => !before.includes(`"seq":"${r.seq}"`));
    assert.deepEqual(
      added.map((r) => r.data.data).sort(),
      ['$ORIGIN evil.', 'www ; comment'],
      'only the two TXT texts were stored',
    );
    const zone = (await c.call('dnsBuildZone.php', { domain: 'victim.example' })).zone as string;
    assert.doesNotMatch(zone, /^\$ORIGIN evil/m);
    assert.doesNotMatch(zone, /^\S+\s+\d+\s+IN\s+A\s+6\.6\.6\.6/m);
    if (!CHECKZONE) return ctx.skip('named-checkzone not installed');
    assert.ok((await namedCheckzone('victim.example', zone)).ok);
  });
});
