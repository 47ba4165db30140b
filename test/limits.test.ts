import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import { axfr } from '../src/dns/server/wire-client.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { startBindPrimary } from './helpers/bind.ts';
import { freePort } from './helpers/server.ts';
import { hasTool, namedCheckzone } from './helpers/tools.ts';
import { replyCode } from './helpers/calls.ts';

const PASSWORD = 'correct horse 12';

const code = replyCode;

/** 4,000 bytes of clean TXT data, different for each i. */
const bigText = (i: number) => `${String(i).padStart(4, '0')}${'x'.repeat(3996)}`;

/** Puts records straight into the store, as an older version with larger caps would have let them in. */
async function insertRaw(t: TestApp, domain: string, type: string, datas: object[]): Promise<void> {
  const d = await t.app.services.db
    .selectFrom('domains')
    .select('id')
    .where('name', '=', domain)
    .executeTakeFirstOrThrow();
  await t.app.services.db
    .insertInto('records')
    .values(datas.map((data) => ({ domain_id: d.id, type, data: JSON.stringify(data) })))
    .execute();
}

describe('a record set must fit in one DNS message (issue 12, item 5)', () => {
  let t: TestApp;
  let c: VigilClient;
  before(async () => {
    t = await startTestApp({ domainHold: 'none' });
    c = t.client();
    await c.login(await t.account('big', PASSWORD, { dnsCredits: 5 }), 'big', PASSWORD);
    await c.call('dnsAddDomain.php', { domain: 'big.example', domaintype: 'master', aup: 'YES' });
  });
  after(() => t.close());

  test('the TXT that would take the set past 64 KB is refused; the set below it publishes and checks', async () => {
    for (let i = 0; i < 16; i++)
      assert.equal(
        await code(c, 'dnsAddTXT.php', { domain: 'big.example', name: '', txtdata: bigText(i) }),
        'ok',
        `TXT ${i}`,
      );
    assert.equal(
      await code(c, 'dnsAddTXT.php', { domain: 'big.example', name: '', txtdata: bigText(16) }),
      'unspecifiedError',
    );
    assert.equal(
      await code(c, 'dnsAddTXT.php', { domain: 'big.example', name: 'other', txtdata: bigText(16) }),
      'ok',
      'another name is another set',
    );
    const pub = await c.call('dnsPublish.php', { domain: 'big.example' });
    assert.equal(pub.errors, undefined);
    if (hasTool('named-checkzone')) {
      const { zone } = await c.call('dnsBuildZone.php', { domain: 'big.example' });
      const check = await namedCheckzone('big.example', zone);
      assert.ok(check.ok, check.output);
    }
  });

  test('records stored before owners were kept count toward the set, and get their owner filled in', async () => {
    await insertRaw(
      t,
      'big.example',
      'TXT',
      Array.from({ length: 16 }, (_, i) => ({ name: 'legacy', data: bigText(i) })),
    );
    assert.equal(
      await code(c, 'dnsAddTXT.php', { domain: 'big.example', name: 'legacy', txtdata: bigText(16) }),
      'unspecifiedError',
    );
    // A refused add rolls back; the next add of the type that succeeds keeps the owners it filled in.
    assert.equal(await code(c, 'dnsAddTXT.php', { domain: 'big.example', name: 'fresh', txtdata: 'v=1' }), 'ok');
    const owners = await t.app.services.db.selectFrom('records').select('owner').where('type', '=', 'TXT').execute();
    assert.ok(
      owners.every((o) => o.owner !== null),
      'filled in',
    );
    assert.equal(owners.filter((o) => o.owner === 'legacy.big.example').length, 16);
  });

  test('a set that got past the add check (older data) is a publish error', async () => {
    await insertRaw(t, 'big.example', 'TXT', [{ name: '', data: bigText(99) }]);
    const pub = await c.call('dnsPublish.php', { domain: 'big.example' });
    assert.ok(
      pub.errors?.some((e: string) => /TXT records at big\.example take \d+ bytes/.test(e)),
      JSON.stringify(pub),
    );
  });
});

describe('records and bytes per domain are capped (--max-zone-records, --max-zone-bytes)', () => {
  let t: TestApp;
  let c: VigilClient;
  before(async () => {
    t = await startTestApp({ domainHold: 'none', maxZoneRecords: 12, maxZoneBytes: 20_000 });
    c = t.client();
    await c.login(await t.account('capped', PASSWORD, { dnsCredits: 5 }), 'capped', PASSWORD);
    for (const domain of ['count.example', 'bytes.example', 'old.example'])
      await c.call('dnsAddDomain.php', { domain, domaintype: 'master', aup: 'YES' });
  });
  after(() => t.close());

  test('the record past the cap is refused and nothing else changes', async () => {
    // SOA + 4 NS are records too: 7 more reach 12.
    for (let i = 0; i < 7; i++)
      assert.equal(await code(c, 'dnsAddA.php', { domain: 'count.example', name: `h${i}`, ip: '192.0.2.1' }), 'ok');
    assert.equal(
      await code(c, 'dnsAddA.php', { domain: 'count.example', name: 'h7', ip: '192.0.2.1' }),
      'unspecifiedError',
    );
    assert.equal(
      await code(c, 'dnsAddMX.php', { domain: 'count.example', name: '', mxname: 'mail', priority: '10' }),
      'unspecifiedError',
    );
    const r = await c.call('dnsGetDomainRecords.php', { domain: 'count.example' });
    assert.equal(Object.keys(r.records).length, 12);
  });

  test('the record that takes the stored zone past the byte cap is refused', async () => {
    let added = 0;
    while (
      (await code(c, 'dnsAddTXT.php', { domain: 'bytes.example', name: `t${added}`, txtdata: bigText(added) })) === 'ok'
    )
      added++;
    assert.equal(added, 4, 'four 4 KB records fit under 20,000 bytes with the SOA and NS');
  });

  test('a zone over the caps (caps lowered since) is a publish error, and stays unpublished', async () => {
    await insertRaw(
      t,
      'old.example',
      'A',
      Array.from({ length: 10 }, (_, i) => ({ name: `o${i}`, data: '192.0.2.2' })),
    );
    const pub = await c.call('dnsPublish.php', { domain: 'old.example' });
    assert.ok(
      pub.errors?.some((e: string) => /15 records; this server takes at most 12/.test(e)),
      JSON.stringify(pub),
    );
    const list = await c.call('dnsGetDomainList.php');
    const old = Object.values(list.domains as Record<string, any>).find((d) => d.domain === 'old.example');
    assert.equal(old.state, 1);
  });
});

describe('a slave transfer stops at the caps', { skip: !hasTool('named') && 'named (bind9) not installed' }, () => {
  test('an AXFR with more records or bytes than the caps is abandoned while it arrives', async () => {
    const port = await freePort();
    const hosts = Array.from({ length: 50 }, (_, i) => `h${i} IN A 192.0.2.${i + 1}`).join('\n');
    const bind = await startBindPrimary(
      port,
      'huge.example',
      `$TTL 300\n@ IN SOA ns.huge.example. admin.huge.example. 1 3600 600 86400 300\n@ IN NS ns.huge.example.\nns IN A 127.0.0.1\n${hosts}\n`,
      await freePort(),
    );
    try {
      const peer = { address: '127.0.0.1', port };
      assert.equal(
        (await axfr(peer, 'huge.example', { maxRecords: 100, maxBytes: 1 << 20 })).length,
        53,
        'under the caps: every record but the closing SOA',
      );
      await assert.rejects(axfr(peer, 'huge.example', { maxRecords: 20, maxBytes: 1 << 20 }), /more than 20 records/);
      await assert.rejects(axfr(peer, 'huge.example', { maxRecords: 100, maxBytes: 500 }), /larger than 500 bytes/);
    } finally {
      await bind.stop();
    }
  });
});
