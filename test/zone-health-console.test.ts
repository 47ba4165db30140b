// Zone health (issue 30) where it shows beside the CLI: the console's Health
// tab in chromium, and a publish whose resolver does not answer (the hint
// comes from the zone alone; the publish neither hangs nor refuses).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { freePort } from './helpers/server.ts';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = resolve(import.meta.dirname, '../test-artifacts/console');
const PASSWORD = 'health pass 30';
/** A loopback address where nothing listens: every question to it is refused at once. */
// The app's `resolvers` is serve's --resolver: a loopback address where nothing listens (the fixture's DEAD), so no
// check here falls back to the system's resolvers and nothing leaves the machine.
const SILENT_RESOLVER = '127.0.30.7';

describe('zone health in the console, and with a resolver that does not answer', () => {
  let t: TestApp;
  let apikey: string;
  let browser: Browser | undefined;
  let page: Page;
  let metricsPort = 0;

  before(async () => {
    metricsPort = await freePort();
    t = await startTestApp({ resolvers: [SILENT_RESOLVER], domainHold: 'none', nsDomain: 'vigil.test', metricsPort });
    apikey = await t.account('health', PASSWORD, { dnsCredits: 5, allowIp: '127.0.30.0/24' });
    const c = t.client();
    await c.login(apikey, 'health', PASSWORD);
    await c.call('dnsAddDomain.php', { domain: 'shown.test', domaintype: 'master', aup: 'YES' });
    await c.call('dnsImportZone.php', {
      domain: 'shown.test',
      zone: '@ IN TXT "v=spf1 -all"\n@ IN TXT "v=spf1 mx -all"\n@ IN MX 10 mail.shown.test.\n',
    });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('publish: the resolver is silent, the hint comes from the zone alone, nothing refused', async () => {
    const c = t.client();
    await c.login(apikey, 'health', PASSWORD);
    const pub = await c.call('dnsPublish.php', { domain: 'shown.test' });
    assert.equal(pub.errors, undefined);
    const warnings = pub.warnings as string[];
    assert.ok(
      warnings.some((w) => /mail\.spf-multiple/.test(w)),
      JSON.stringify(warnings),
    );
    assert.ok(
      warnings.some((w) => /dangling\.mx/.test(w)),
      'an in-zone target needs no resolver',
    );
    // A check still answers: what the world would tell is missing, not invented.
    const r = await c.call('dnsCheckDomain.php', { domain: 'shown.test' });
    const ids = (r.findings as { id: string }[]).map((f) => f.id);
    assert.ok(ids.includes('mail.spf-multiple'));
    assert.ok(!ids.includes('delegation.not-delegated') && !ids.includes('delegation.lame'), 'no answer is not a "no"');
    assert.ok(ids.includes('delegation.resolver-silent'), 'and the check says what it could not see');
    // Metrics: the check and its findings by level (a publish hint is not counted).
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    assert.match(text, /^vigil_zone_health_checks_total 1$/m);
    const errors = (r.findings as { level: string }[]).filter((f) => f.level === 'ERROR').length;
    assert.match(text, new RegExp(`^vigil_zone_health_findings_total\\{level="ERROR"\\} ${errors}$`, 'm'));
    assert.match(text, /^vigil_zone_health_findings_total\{level="WARNING"\} \d+$/m);
  });

  test('the Health tab groups the findings by level', {
    skip: !existsSync(CHROMIUM) && 'chromium is not installed',
  }, async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const ctx = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 800 } });
    page = await ctx.newPage();
    page.on('request', (r) => assert.ok(r.url().startsWith(t.url) || /^(blob|data):/.test(r.url()), r.url()));
    await page.goto(`${t.url}/`);
    await page.getByLabel('API key').fill(apikey);
    await page.getByLabel('User ID').fill('health');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'shown.test' }).click();
    await page.getByRole('tab', { name: 'Health' }).click();
    const errors = page.getByRole('region', { name: /^Errors \(\d+\)$/ });
    await errors.waitFor();
    const text = (await errors.textContent()) ?? '';
    assert.match(text, /mail\.spf-multiple/);
    assert.match(text, /Fix: Merge the SPF records into one\./);
    const headings = await page.getByRole('heading', { level: 3 }).allInnerTexts();
    const order = headings.map((h) => h.replace(/ \(\d+\)$/, ''));
    assert.deepEqual(
      order,
      ['Errors', 'Warnings', 'Notices', 'Information'].filter((h) => order.includes(h)),
      'most serious first',
    );
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'health-tab.png'), fullPage: true });
    // Back to the records: the tab bar keeps the rest of the page where it was.
    await page.getByRole('tab', { name: 'Records' }).click();
    await page.getByRole('button', { name: 'Publish' }).waitFor();
  });
});
