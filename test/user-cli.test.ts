// store-incidental: the user CLI, which reaches the store only through the API (tested on both engines).
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { renderReport } from '../src/audit/render/index.ts';
import { admin, freePort, serve, type Served } from './helpers/server.ts';
import { UserShell } from './helpers/user-cli.ts';
import { eventually } from './helpers/wait.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { startWorker } from './helpers/workers.ts';

const PASSWORD = 'correct horse 5';

describe('bin/vigil login, dns and audit against a real serve, as a user runs them', () => {
  let s: Served;
  let u: UserShell;

  before(async () => {
    // No audit worker in serve: the audit test starts one when it wants the queued audit to run.
    s = await serve({ args: ['--audit-workers', '0'] });
    u = await UserShell.create(
      s,
      'cliuser',
      PASSWORD,
      '--audit-types',
      'basic',
      '--allow-ip',
      '127.0.1.0/24',
      '--dns-credits',
      '3',
    );
  });
  after(() => s.stop());

  test('no config yet: exit 4, "run vigil login"', async () => {
    const r = await u.vigil(['dns', 'list']);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /not logged in .*vigil login/);
  });

  test('login mistakes: usage 2, refused login 1 with the spec code, no server or untrusted certificate 3; no config written', async () => {
    const e = u.env;
    const base = ['login', '--apikey', e.VIGIL_APIKEY!, '--userid', 'cliuser', '--password-stdin'];
    const port = await freePort();
    const [plain, wrong, refused, untrusted] = await Promise.all([
      u.vigil([...base, '--url', s.httpUrl], `${PASSWORD}\n`),
      u.vigil([...base, '--url', s.httpsUrl, '--cacert', e.VIGIL_CACERT!], 'not the password\n'),
      u.vigil([...base, '--url', `https://127.0.0.1:${port}`], `${PASSWORD}\n`),
      u.vigil([...base, '--url', s.httpsUrl], `${PASSWORD}\n`),
    ]);
    assert.equal(plain.code, 2, plain.stderr);
    assert.match(plain.stderr, /must be https/);
    assert.equal(wrong.code, 1, wrong.stderr);
    assert.match(wrong.stderr, /^vigil: invalidLogin \(auth\.php\)$/m);
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /ECONNREFUSED/);
    assert.equal(untrusted.code, 3, untrusted.stderr);
    assert.match(untrusted.stderr, /SELF_SIGNED.*--cacert/);
    assert.throws(() => statSync(e.VIGIL_CONFIG!), /ENOENT/);
  });

  test('login keeps url, key, userid, certificate and token, mode 0600 in a 0700 directory; the password only when asked', async () => {
    const r = await u.login('--json');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      url: s.httpsUrl,
      userid: 'cliuser',
      config: u.env.VIGIL_CONFIG,
      passwordKept: false,
    });
    const file = u.env.VIGIL_CONFIG!;
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(file)).mode & 0o777, 0o700);
    const c = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(Object.keys(c).sort(), ['apikey', 'ca', 'sessionToken', 'url', 'userid']);
    assert.equal(c.ca, s.ca);
    assert.equal((await u.login('--remember-password')).code, 0);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).password, PASSWORD);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  test('login on a terminal asks for the password without echo', async () => {
    const e = u.env;
    const other = new UserShell(s, e.VIGIL_APIKEY!, 'cliuser', PASSWORD);
    const args = [
      'login',
      '--url',
      e.VIGIL_URL!,
      '--apikey',
      e.VIGIL_APIKEY!,
      '--userid',
      'cliuser',
      '--cacert',
      e.VIGIL_CACERT!,
    ];
    const r = await other.onTerminal(args, 'Password for cliuser: ', PASSWORD);
    assert.equal(r.code, 0, r.screen);
    assert.match(r.screen, /^Password for cliuser: \r?\nlogged in as cliuser at /m);
    assert.doesNotMatch(r.screen, new RegExp(PASSWORD));
    assert.equal(JSON.parse(readFileSync(other.env.VIGIL_CONFIG!, 'utf8')).password, undefined);
  });

  test('dns: add-domain, add (fields checked against the script table), records, zone, publish errors exit 5, delete-record', async () => {
    assert.equal((await u.vigil(['dns', 'add-domain', 'cli.example'])).code, 0);
    // Mistakes are refused before anything is sent: exit 2, the accepted fields named.
    const [unknown, noTxtdata, badType, noPair] = await Promise.all([
      u.vigil(['dns', 'add', 'cli.example', 'A', 'name=www', 'ipaddr=192.0.2.7']),
      u.vigil(['dns', 'add', 'cli.example', 'TXT', 'name=x']),
      u.vigil(['dns', 'add', 'cli.example', 'SPF', 'txtdata=x']),
      u.vigil(['dns', 'add', 'cli.example', 'A', 'www']),
    ]);
    for (const r of [unknown, noTxtdata, badType, noPair]) assert.equal(r.code, 2, r.stderr);
    assert.match(unknown.stderr, /A has no field 'ipaddr' \(A takes name ip \[ttl\]\)/);
    assert.match(noTxtdata.stderr, /missing txtdata=/);
    assert.match(badType.stderr, /unknown record type 'SPF'/);
    for (const args of [
      ['A', 'name=www', 'ip=192.0.2.7'],
      ['txt', 'txtdata=v=spf1 -all', 'ttl=300'],
      ['MX', 'mxname=mail.cli.example.', 'priority=10'],
    ]) {
      const r = await u.vigil(['dns', 'add', 'cli.example', ...args]);
      assert.equal(r.code, 0, r.stderr);
    }
    const bad = await u.vigil(['dns', 'add', 'cli.example', 'A', 'name=www', 'ip=300.1.1.1']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^vigil: syntaxInvalidIP \(dnsAddA\.php\)$/m);

    const rec = await u.json('dns', 'records', 'cli.example');
    const byType = (t: string) => Object.values(rec.records as Record<string, any>).filter((x) => x.type === t);
    assert.deepEqual(
      byType('A').map((x) => x.data),
      [{ name: 'www', data: '192.0.2.7' }],
    );
    assert.equal(byType('TXT')[0].data.data, 'v=spf1 -all');
    assert.equal(byType('MX')[0].data.host, '');
    const text = await u.vigil(['dns', 'records', 'cli.example']);
    assert.match(text.stdout, /^SEQ +TYPE +DATA$/m);
    assert.match(text.stdout, /^\d+ +A +name=www data=192\.0\.2\.7$/m);

    const zone = await u.vigil(['dns', 'zone', 'cli.example']);
    assert.match(zone.stdout, /^www\.cli\.example\.\s+\d+\s+IN\s+A\s+192\.0\.2\.7$/m);
    assert.match(zone.stdout, /^cli\.example\.\s+300\s+IN\s+TXT\s+"v=spf1 -all"$/m);

    // A new domain is on hold (serve's default): the publish answers errors, shown, exit 5.
    const held = await u.vigil(['dns', 'publish', 'cli.example']);
    assert.equal(held.code, 5, held.stderr);
    assert.match(held.stderr, /^error: .+/m);
    assert.match(held.stderr, /cli\.example not published/);
    await admin(s.dataDir, 'domain', 'release', 'cli.example');
    const published = await u.json('dns', 'publish', 'cli.example');
    assert.equal(published.status, '0');
    assert.equal(published.errors, undefined);

    const seq = String(byType('A')[0].seq);
    assert.equal((await u.vigil(['dns', 'delete-record', seq])).code, 0);
    assert.equal((await u.vigil(['dns', 'delete-record', seq])).code, 1, 'gone');
    const list = await u.json('dns', 'list');
    assert.deepEqual(
      Object.values(list.domains).map((d: any) => d.domain),
      ['cli.example'],
    );
    const listText = await u.vigil(['dns', 'list']);
    assert.match(listText.stdout, /^1 domain\(s\), weight 1; subscription until /);
    assert.match(listText.stdout, /^\d+ +cli\.example +\d /m);

    const other = await u.vigil(['dns', 'records', 'not-mine.example']);
    assert.equal(other.code, 1);
    assert.equal(other.stdout, '');
    assert.equal(other.stderr, 'vigil: noSuchDomain (dnsGetDomainRecords.php)\n');
  });

  test('dns soa, options and delete-domain: fields checked against the scripts, the zone shows the SOA, deletion asks for --yes', async () => {
    assert.equal((await u.vigil(['dns', 'add-domain', 'settings.example'])).code, 0);
    assert.equal((await u.vigil(['dns', 'add-domain', 'follow.example', '--type', 'slave'])).code, 0);
    const [unknown, noMasters, badAdmin] = await Promise.all([
      u.vigil(['dns', 'soa', 'settings.example', 'mail=a@b.example']),
      u.vigil(['dns', 'options', 'follow.example', 'notify=yes']),
      u.vigil(['dns', 'soa', 'settings.example', 'admin=not a mailbox']),
    ]);
    for (const r of [unknown, noMasters]) assert.equal(r.code, 2, r.stderr);
    assert.match(unknown.stderr, /soa has no field 'mail' \(soa takes \[admin\] \[ttl\]\)/);
    assert.match(noMasters.stderr, /missing masters=/);
    assert.equal(badAdmin.code, 1);
    assert.match(badAdmin.stderr, /^vigil: syntaxInvalidAdmin \(dnsSetSOA\.php\)$/m);

    const set = await u.vigil(['dns', 'soa', 'settings.example', 'admin=dns-team@settings.example', 'ttl=3600']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /set the SOA of settings\.example; publish/);
    const zone = await u.vigil(['dns', 'zone', 'settings.example']);
    assert.match(zone.stdout, /IN\s+SOA\s+\S+\s+dns-team\.settings\.example\.\s+\d+\s+\d+\s+\d+\s+\d+\s+3600\b/);

    const opts = await u.json('dns', 'options', 'follow.example', 'masters=127.0.0.9', 'notify=yes');
    assert.equal(opts.status, '0');
    assert.deepEqual(opts.fields, { domain: 'follow.example', masters: '127.0.0.9', notify: 'yes' });

    const unsure = await u.vigil(['dns', 'delete-domain', 'follow.example']);
    assert.equal(unsure.code, 2, unsure.stderr);
    assert.match(unsure.stderr, /add --yes/);
    const gone = await u.json('dns', 'delete-domain', 'follow.example', '--yes');
    assert.equal(gone.status, '0');
    const list = await u.json('dns', 'list');
    assert.ok(!Object.values(list.domains).some((d: any) => d.domain === 'follow.example'));
    assert.equal((await u.vigil(['dns', 'delete-domain', 'follow.example', '--yes'])).code, 1, 'gone');
  });

  test('audit run --wait --json: progress on stderr, the ended list entry on stdout; list and report', async () => {
    const waiting = u.start(['audit', 'run', '127.0.1.1', '127.0.1.2', '--type', 'basic', '--wait', '--json']);
    // Queued for as long as no worker runs: the waiting command shows it, and so does the list.
    await eventually(async () => /^audit \d+: queued$/m.test(waiting.stderr()), 'the wait to show queued', 60_000);
    const queued = (await u.vigil(['audit', 'list'])).stdout;
    assert.match(queued, /^\d+ +basic +127\.0\.1\.1,127\.0\.1\.2 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +- +- +queued$/m);
    const worker = await startWorker(s.dataDir);
    const r = await waiting.done;
    await worker.stop();
    assert.equal(r.code, 0, r.stderr);
    const entry = JSON.parse(r.stdout);
    assert.equal(entry.folder, 'done');
    assert.equal(entry.hostip, '127.0.1.1,127.0.1.2');
    assert.match(entry.scanuid, /^\d+$/);
    const lines = r.stderr.trimEnd().split('\n');
    for (const l of lines) {
      assert.match(
        l,
        new RegExp(
          `^audit ${entry.scanuid}: (queued|running|done|(scanning|detecting|checking|reporting): ports \\d+/\\d+, checks \\d+/\\d+)$`,
        ),
      );
    }
    assert.equal(lines[0], `audit ${entry.scanuid}: queued`);
    assert.equal(lines.at(-1), `audit ${entry.scanuid}: done`);

    const list = await u.json('audit', 'list');
    assert.deepEqual(list[0], entry);
    const text = await u.vigil(['audit', 'list']);
    assert.match(text.stdout, new RegExp(`^${entry.scanuid} +basic +127\\.0\\.1\\.1,127\\.0\\.1\\.2 .* done$`, 'm'));
    const report = await u.json('audit', 'report', entry.scanuid);
    assert.equal(report.basic.scanuid, Number(entry.scanuid));
    assert.deepEqual(await u.json('audit', 'report', entry.scanuid, '--format', 'json'), report);
    // text, csv and html come from the renderer the completion mail uses (src/audit/render/), fed the API's scaninfo.
    const [asText, asCsv, asHtml] = await Promise.all(
      ['text', 'csv', 'html'].map((f) => u.vigil(['audit', 'report', entry.scanuid, '--format', f])),
    );
    for (const [r, f] of [
      [asText, 'text'],
      [asCsv, 'csv'],
      [asHtml, 'html'],
    ] as const) {
      assert.equal(r!.code, 0, r!.stderr);
      assert.equal(r!.stdout.trimEnd(), renderReport(report, f).trimEnd(), f);
    }
    assert.match(asHtml!.stdout, /^<!doctype html>/i);
    assert.equal((await u.vigil(['audit', 'report', entry.scanuid])).stdout, asText!.stdout, 'text by default');

    const [outside, badType, noReport] = await Promise.all([
      u.vigil(['audit', 'run', '127.0.2.1', '--type', 'basic']),
      u.vigil(['audit', 'run', '127.0.1.1', '--type', 'full']),
      u.vigil(['audit', 'report', '999999']),
    ]);
    assert.equal(outside.code, 1);
    assert.match(outside.stderr, /^vigil: IPPermissionsProblem \(saRunAudit\.php\)$/m);
    assert.equal(badType.code, 2);
    assert.equal(noReport.code, 1);
    assert.match(noReport.stderr, /^vigil: reportLoadFailure\[\w+\] \(saGetAuditReport\.php\)$/m);
  });
});

// The service in this process on a clock the test moves (no waiting for a real session to expire);
// the CLI still runs as its own process against it.
describe('bin/vigil after its session expired', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  test('a fresh login with the kept password; without one, exit 4 naming sessionTimeout', async () => {
    const apikey = await t.account('cliexp', PASSWORD, { dnsCredits: 1 });
    const served = { ca: t.ca, httpsUrl: t.url } as Served;
    const kept = new UserShell(served, apikey, 'cliexp', PASSWORD);
    const notKept = new UserShell(served, apikey, 'cliexp', PASSWORD);
    assert.equal((await kept.login('--remember-password')).code, 0);
    assert.equal((await notKept.login()).code, 0);
    const tokenOf = (sh: UserShell) => JSON.parse(readFileSync(sh.env.VIGIL_CONFIG!, 'utf8')).sessionToken;
    const before = tokenOf(kept);
    t.clock.advance(24 * 3_600_000);
    const [k, n] = await Promise.all([kept.vigil(['dns', 'list']), notKept.vigil(['dns', 'list'])]);
    assert.equal(k.code, 0, k.stderr);
    assert.notEqual(tokenOf(kept), before, 'the fresh token is saved');
    assert.equal(n.code, 4);
    assert.match(n.stderr, /sessionTimeout.*vigil login/);
  });
});
