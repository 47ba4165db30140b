import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { VigilClient } from '../src/client/index.ts';
import { finished, runAudit } from './helpers/audits.ts';
import { freshDatabase, TEST_DB } from './helpers/pgdb.ts';
import { freePort, serve, tempDir, VIGIL } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 5';
// The source is always a data directory's SQLite file: `--db ''` (the last --db
// wins) keeps serve on it even when the suite runs on PostgreSQL.
const SQLITE = ['--db', ''];
const ENV = { ...process.env, VIGIL_DB: '', VIGIL_DATA: '' };

async function vigil(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(VIGIL, args, { env: ENV }).then(
    (r) => ({ code: 0, ...r }),
    (e: any) => ({ code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );
}

async function digSerial(port: number, zone: string): Promise<number | null> {
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '+short', '+time=1', '+tries=1', 'SOA', zone]);
  const f = stdout.trim().split(/\s+/);
  return f.length >= 7 ? Number(f[2]) : null;
}

/** What a user sees of their account through the API: the answers the copy must keep. */
async function answers(c: VigilClient, scanuid: string): Promise<Record<string, unknown>> {
  const { nextDistribution: _, status: __, ...list } = await c.call('dnsGetDomainList.php', {});
  const records: Record<string, unknown> = {};
  for (const d of Object.values<any>(list.domains))
    records[d.domain] = await c.call('dnsGetDomainRecords.php', { domain: d.domain });
  const audits = await c.call('saGetAuditList.php', {});
  const report = await c.call('saGetAuditReport.php', { scanuid });
  return { list, records, audits, report };
}

describe('admin store copy: a populated SQLite data directory into an empty PostgreSQL database', {
  skip: !TEST_DB ? 'needs VIGIL_TEST_DB (a PostgreSQL server)' : !hasTool('dig') ? 'dig is not installed' : false,
}, () => {
  test('round trip: same answers from serve --db on the copy, new rows get new ids, a non-empty target is refused', async () => {
    const dataDir = tempDir();
    const dnsPort = await freePort();
    const dnsArgs = ['--dns-port', String(dnsPort), '--publish-interval', '500ms', '--domain-hold', 'none'];
    // Populate the SQLite store through the real API: domains, records, publish + distribution, an audit.
    const source = await serve({ dataDir, args: [...SQLITE, ...dnsArgs] });
    let before: Record<string, unknown>;
    let serial: number;
    let signedSerial: number;
    let scanuid: string;
    let apikey: string;
    try {
      const add = await vigil(
        'admin',
        'account',
        'add',
        '--data',
        dataDir,
        '--userid',
        'mover',
        '--password',
        PASSWORD,
        '--dns-credits',
        '5',
        '--audit-types',
        'basic',
        '--allow-ip',
        '127.0.5.0/24',
        '--json',
      );
      assert.equal(add.code, 0, add.stderr);
      apikey = JSON.parse(add.stdout).apikey as string;
      await vigil('admin', 'account', 'add', '--data', dataDir, '--userid', 'other', '--password', PASSWORD);
      const c = source.client();
      await c.login(apikey, 'mover', PASSWORD);
      for (const domain of ['move-one.example', 'move-two.example']) {
        await c.call('dnsAddDomain.php', { domain, domaintype: 'master', aup: 'YES' });
        await c.call('dnsAddA.php', { domain, name: 'www', ip: '192.0.2.51' });
        await c.call('dnsAddMX.php', { domain, name: '', mxname: 'mail', priority: '10' });
        await c.call('dnsAddTXT.php', { domain, name: '', txtdata: 'v=spf1 -all' });
        await c.call('dnsPublish.php', { domain });
      }
      await eventually(
        async () => Object.values<any>((await c.call('dnsGetDomainList.php', {})).domains).every((d) => d.state === 3),
        'both domains distributed',
      );
      // One signed zone: its keys are copied sealed, and the copy must say which file opens them.
      await c.call('dnsSetDNSSEC.php', { domain: 'move-two.example', enable: 'YES' });
      await eventually(
        async () => (await c.call('dnsGetDNSSEC.php', { domain: 'move-two.example' })).ds.length > 0,
        'move-two.example signed',
      );
      scanuid = await runAudit(c, { ipaddr: '127.0.5.9', audittype: 'basic' });
      await finished(c, scanuid);
      serial = (await digSerial(dnsPort, 'move-one.example'))!;
      assert.ok(serial > 0);
      // The signed version served (its DNSKEY answered) before its serial is taken.
      await eventually(async () => {
        const { stdout } = await run('dig', [
          '@127.0.0.1',
          '-p',
          String(dnsPort),
          '+short',
          'DNSKEY',
          'move-two.example',
        ]);
        return stdout.trim() !== '';
      }, 'move-two.example served signed');
      signedSerial = (await digSerial(dnsPort, 'move-two.example'))!;
      before = await answers(c, scanuid);
    } finally {
      assert.equal(await source.stop(), 0);
    }

    // Not a PostgreSQL URL, and no store in the directory: refused, non-zero.
    const notPg = await vigil('admin', 'store', 'copy', '--data', dataDir, '--to', `${dataDir}/other.sqlite`);
    assert.notEqual(notPg.code, 0);
    assert.match(notPg.stderr, /copyTargetNotPostgres/);
    const target = await freshDatabase();
    const noStore = await vigil('admin', 'store', 'copy', '--data', tempDir(), '--to', target);
    assert.notEqual(noStore.code, 0);
    assert.match(noStore.stderr, /no store at/);

    const copy = await vigil('admin', 'store', 'copy', '--data', dataDir, '--to', target, '--json');
    assert.equal(copy.code, 0, copy.stderr);
    const rows = JSON.parse(copy.stdout).rows;
    assert.equal(JSON.parse(copy.stdout).dnssecKeyFile, `${dataDir}/dnssec/kek`, 'the key file is named');
    assert.deepEqual([rows.accounts, rows.domains, rows.zone_publications, rows.audits], [2, 2, 2, 1]);
    // Three records each, plus the default NS records a new domain starts with.
    assert.ok(rows.records >= 6, `records ${rows.records}`);
    assert.equal(
      JSON.stringify(copy),
      JSON.stringify(copy).replace('vigil:vigil@', ''),
      'the password is never printed',
    );
    // Again: the target now holds rows and is refused, unchanged.
    const again = await vigil('admin', 'store', 'copy', '--data', dataDir, '--to', target);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /copyTargetNotEmpty/);

    // serve on the copy (same TLS files, its store now PostgreSQL): the same answers.
    const copied = await serve({ dataDir, args: ['--db', target, ...dnsArgs] });
    try {
      const c = copied.client();
      await c.login(apikey, 'mover', PASSWORD);
      assert.deepEqual(await answers(c, scanuid), before);
      assert.equal(await digSerial(dnsPort, 'move-one.example'), serial);
      assert.equal(await digSerial(dnsPort, 'move-two.example'), signedSerial);
      // Sequences continue after the copied ids: new rows do not collide.
      const oldSeqs = Object.keys((before.list as any).domains).map(Number);
      await c.call('dnsAddDomain.php', { domain: 'move-three.example', domaintype: 'master', aup: 'YES' });
      const three = Object.values<any>((await c.call('dnsGetDomainList.php', {})).domains).find(
        (d) => d.domain === 'move-three.example',
      );
      assert.ok(three.seq > Math.max(...oldSeqs), `new seq ${three.seq} after ${oldSeqs}`);
      await c.call('dnsAddA.php', { domain: 'move-three.example', name: 'www', ip: '192.0.2.53' });
      await c.call('dnsAddA.php', { domain: 'move-one.example', name: 'new', ip: '192.0.2.54' });
      const recs = await c.call('dnsGetDomainRecords.php', { domain: 'move-one.example' });
      assert.ok(JSON.stringify(recs).includes('192.0.2.54'));
      const next = await runAudit(c, { ipaddr: '127.0.5.10', audittype: 'basic' });
      assert.ok(Number(next) > Number(scanuid));
    } finally {
      const code = await copied.stop();
      assert.equal(code, 0, copied.stderr().slice(-3000));
    }
  });
});
