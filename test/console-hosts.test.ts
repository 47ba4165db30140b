// Issue 26, "say what ran, per host", on every surface, from one real audit
// of a /24: `serve --audit-workers 0` on the machine's loopback, and a
// `worker` inside a network namespace where 127.0.27.0/24 is unreachable
// but for three addresses (test/helpers/hosts-ns.ts): .1 with HTTP and SMTP,
// .2 with SSH and a filtered port, .3 with nothing on it, the other 253 of `127.0.27.*` (0-255) down. The
// console (Debian's chromium, playwright-core), the user CLI's text report,
// the worker's metrics, and a backup restored into a new data directory all
// show the same hosts. Both store engines (VIGIL_TEST_DB). Screenshots go to
// test-artifacts/console/.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { finished, runAudit } from './helpers/audits.ts';
import { createHostsNs, fetchIn, type HostsNs, hostsNsUnsupported, LIVE, NET, nsWorker } from './helpers/hosts-ns.ts';
import { admin, serve, type Served, tempDir } from './helpers/server.ts';
import { UserShell } from './helpers/user-cli.ts';
import { renderReport } from '../src/audit/render/index.ts';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = resolve(import.meta.dirname, '../test-artifacts/console');
const PASSWORD = 'console hosts 26';
const PORTS = '1-100,8443';
const METRICS = 'http://127.0.0.1:9464/metrics';

const why = !existsSync(CHROMIUM) ? 'chromium is not installed (.ci/run installs it)' : hostsNsUnsupported();

describe('the per-host table of a /24 audit: console, CLI, metrics, backup (both engines)', {
  skip: why ?? false,
}, () => {
  let s: Served;
  let ns: HostsNs;
  let worker: ChildProcess;
  let u: UserShell;
  let browser: Browser;
  let page: Page;
  let scanuid = '';
  let info: any;

  const login = async (p: Page, url: string) => {
    await p.goto(url);
    await p.getByLabel('API key').fill(u.env.VIGIL_APIKEY!);
    await p.getByLabel('User ID').fill('hosts26');
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Log in' }).click();
    await p.getByRole('link', { name: 'Audits', exact: true }).waitFor();
  };
  /** The Hosts section's up rows, as their cells' text. */
  const upRows = async (p: Page) =>
    Promise.all(
      (await p.getByRole('table', { name: 'Hosts up' }).locator('tbody tr').all()).map((r) =>
        r.getByRole('cell').allTextContents(),
      ),
    );

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ns = await createHostsNs();
    s = await serve({ args: ['--audit-workers', '0', '--publish-interval', '1h'] });
    u = await UserShell.create(s, 'hosts26', PASSWORD, '--audit-types', 'basic', '--allow-ip', `${NET}.0/24`);
    assert.equal((await u.login()).code, 0);
    worker = await nsWorker(ns, s.dataDir, ['--metrics-port', '9464']);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const ctx = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 800 } });
    page = await ctx.newPage();
    await login(page, s.httpsUrl);
  });
  after(async () => {
    await browser?.close();
    worker?.kill('SIGTERM');
    await s?.stop();
    await ns?.close();
  });

  test('console: run the /24, its report lists the 3 live hosts first and the 253 down ones collapsed', async () => {
    await page.getByRole('link', { name: 'Audits', exact: true }).click();
    await page.getByLabel('Targets').fill(`${NET}.*`);
    await page.getByLabel('Ports').fill(PORTS);
    await page.getByRole('button', { name: 'Run audit' }).click();
    scanuid = /Audit (\d+) queued\./.exec((await page.getByText(/Audit \d+ queued\./).textContent())!)![1]!;
    const api = s.client();
    await api.login(u.env.VIGIL_APIKEY!, 'hosts26', PASSWORD);
    info = await finished(api, scanuid, 180_000);
    assert.equal(info.basic.reporttype, 'complete', JSON.stringify(info.entries));
    assert.deepEqual([info.basic.hostsUp, info.basic.hostsDown, info.basic.hosts.length], [3, 253, 256]);

    await page.goto(`${s.httpsUrl}/#/audits/${scanuid}`);
    await page.getByRole('heading', { name: 'Hosts', exact: true }).waitFor();
    await page.getByText('3 hosts up, 253 down (no answer to host discovery).').waitFor();
    const rows = await upRows(page);
    assert.deepEqual(
      rows.map((r) => [r[0], r[1], r[4], r[5], r[6], r[7]]),
      [
        [LIVE[0], 'up', '101', '2', '99', '0'],
        [LIVE[1], 'up', '101', '1', '99', '1'],
        [LIVE[2], 'up', '101', '0', '101', '0'],
      ],
    );
    for (const r of rows) assert.match(r[3]!, /^\d+(\.\d+)?$/, 'an RTT in ms');
    // The down hosts: counted, closed, and listed as one range when opened.
    const down = page.locator('details.down-hosts');
    assert.equal(await down.getByRole('list', { name: 'Down hosts' }).isVisible(), false);
    await down.locator('summary', { hasText: '253 down hosts' }).click();
    assert.deepEqual(await down.getByRole('listitem').allTextContents(), [`${NET}.0`, `${NET}.4-255`]);
    await page.screenshot({ path: join(SHOTS, '30-report-hosts.png'), fullPage: true });
  });

  test('the rendered reports and the CLI carry the same table', async () => {
    const text = await u.vigil(['audit', 'report', scanuid]);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, renderReport(info, 'text'));
    assert.match(text.stdout, /^HOSTS$/m);
    assert.match(
      text.stdout,
      new RegExp(`^${LIVE[1]!.replace(/\./g, '\\.')} +up +(icmp|tcp) +[\\d.]+ +101 +1 +99 +1 +0$`, 'm'),
    );
    assert.match(
      text.stdout,
      new RegExp(`^Down \\(253, no answer to host discovery\\): ${NET}\\.0, ${NET}\\.4-255$`, 'm'),
    );
    const csv = (await u.vigil(['audit', 'report', scanuid, '--format', 'csv'])).stdout;
    assert.equal(csv.split('\r\n').filter((l) => l.endsWith(',host')).length, 256);
    const html = (await u.vigil(['audit', 'report', scanuid, '--format', 'html'])).stdout;
    assert.equal(html.match(/<tr class="host up">/g)?.length, 3);
  });

  test('metrics: the worker that ran it counts 3 hosts up and 253 down', async () => {
    const m = await fetchIn(ns, METRICS);
    assert.match(m, /^vigil_audit_hosts_total\{state="up"\} 3$/m);
    assert.match(m, /^vigil_audit_hosts_total\{state="down"\} 253$/m);
  });

  test('backup, restore into a new directory: the restored audit shows the same hosts', async () => {
    const file = join(tempDir(), 'vigil.tar.gz');
    await admin(s.dataDir, 'backup', file);
    const restored = join(tempDir(), 'data');
    await admin(restored, 'restore', file);
    const r = await serve({ dataDir: restored, args: ['--audit-workers', '0', '--publish-interval', '1h'] });
    try {
      const api = r.client();
      await api.login(u.env.VIGIL_APIKEY!, 'hosts26', PASSWORD);
      // Typed by the SDK from the contract (src/api/contract/audit-report.ts): `hosts` and its fields.
      const back = (await api.saGetAuditReport({ scanuid })).scaninfo;
      assert.deepEqual(back.basic.hosts, info.basic.hosts);
      assert.deepEqual(
        back.basic.hosts!.filter((h) => h.state === 'up').map((h) => [h.ip, h.open, h.closed, h.filtered]),
        [
          [LIVE[0], 2, 99, 0],
          [LIVE[1], 1, 99, 1],
          [LIVE[2], 0, 101, 0],
        ],
      );
      const p = await browser.newPage({ ignoreHTTPSErrors: true });
      await login(p, r.httpsUrl);
      await p.goto(`${r.httpsUrl}/#/audits/${scanuid}`);
      await p.getByText('3 hosts up, 253 down (no answer to host discovery).').waitFor();
      assert.deepEqual(await upRows(p), await upRows(page));
      await p.close();
    } finally {
      await r.stop();
    }
  });

  test('discovery off (nmap -Pn): all 256 addresses are rows, the first 50 shown until "Show all"', async () => {
    worker.kill('SIGTERM');
    await new Promise((res) => worker.once('close', res));
    worker = await nsWorker(ns, s.dataDir, ['--scan-discovery', 'off']);
    const api = s.client();
    await api.login(u.env.VIGIL_APIKEY!, 'hosts26', PASSWORD);
    const id = await runAudit(api, { ipaddr: `${NET}.*`, audittype: 'basic', ports: '80' });
    const off = await finished(api, id, 180_000);
    assert.deepEqual([off.basic.discovery, off.basic.hostsUp, off.basic.hostsDown], [false, 256, 0]);
    await page.goto(`${s.httpsUrl}/#/audits/${id}`);
    await page.getByText('256 addresses scanned, host discovery off.').waitFor();
    assert.equal((await upRows(page)).length, 50);
    assert.equal(await page.locator('details.down-hosts').count(), 0);
    await page.getByRole('button', { name: 'Show all 256 hosts' }).click();
    const rows = await upRows(page);
    assert.equal(rows.length, 256);
    // Every address scanned; where no route leads, the port is counted unreachable and no RTT was measured.
    assert.deepEqual(rows[0], [`${NET}.0`, 'up', 'assumed', '-', '1', '0', '0', '0', '1']);
    assert.deepEqual(rows[1]!.slice(0, 6), [LIVE[0], 'up', 'assumed', rows[1]![3], '1', '1']);
  });
});
