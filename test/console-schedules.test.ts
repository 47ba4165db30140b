// store-incidental: the console's schedule pages, which reach the store only through the API (tested on both engines).
// The console's side of issue 31 in Debian's chromium (playwright-core, no
// browser download) against a real `bin/vigil serve`: the run form's ports
// field, the Schedules page (add, list with the next run, delete), and an
// audit linked to its schedule. Screenshots go to test-artifacts/console/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { addAccount, admin, serve, type Served } from './helpers/server.ts';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = resolve(import.meta.dirname, '../test-artifacts/console');
const PASSWORD = 'console pass 31';

describe('console: ports and schedules in chromium', {
  skip: !existsSync(CHROMIUM) && 'chromium is not installed (.ci/run installs it)',
}, () => {
  let s: Served;
  let browser: Browser;
  let page: Page;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await serve({ env: { VIGIL_SCHEDULE_POLL: '100ms' } });
    const apikey = await addAccount(
      s.dataDir,
      'webplan',
      PASSWORD,
      '--audit-types',
      'basic',
      '--allow-ip',
      '127.0.31.80/28',
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const ctx = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 800 } });
    page = await ctx.newPage();
    page.on('request', (r) => assert.ok(r.url().startsWith(s.httpsUrl), `request to ${r.url()}`));
    await page.goto(s.httpsUrl);
    await page.getByLabel('API key').fill(apikey);
    await page.getByLabel('User ID').fill('webplan');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Schedules', exact: true }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
  });

  test('the run form takes ports: a bad list is put into words next to the field, a good one runs', async () => {
    await page.getByRole('link', { name: 'Audits', exact: true }).click();
    await page.getByLabel('Targets').fill('127.0.31.81');
    await page.getByLabel('Ports').fill('22,,80');
    await page.getByRole('button', { name: 'Run audit' }).click();
    await page.getByText('Give TCP ports and ranges from 1 to 65535').waitFor();
    assert.equal(await page.getByLabel('Ports').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Ports').fill('1-3');
    await page.getByRole('button', { name: 'Run audit' }).click();
    await page.getByText(/Audit \d+ queued\./).waitFor();
  });

  test('Schedules: add one, see its next run, its scheduled audit links back to it, delete it', async () => {
    await page.getByRole('link', { name: 'Schedules', exact: true }).click();
    await page.getByText('No schedules yet.').waitFor();
    const form = page.getByRole('form', { name: 'Add a schedule' });
    await form.getByLabel('Targets').fill('127.0.31.82');
    await form.getByLabel('Every', { exact: true }).selectOption('week');
    await form.getByLabel('Mail', { exact: true }).selectOption('changes');
    await form.getByLabel('Ports').fill('80,443');
    await form.getByLabel('Exclude denial-of-service tests').check();
    await form.getByRole('button', { name: 'Add schedule' }).click();
    await page.getByText(/Schedule \d+ added\./).waitFor();
    const row = page.getByRole('row', { name: /127\.0\.31\.82/ });
    await row.waitFor();
    const id = (await row.getByRole('cell').first().textContent())!;
    const text = (await row.textContent())!;
    assert.match(text, /ports 80,443/);
    // What the form asked, in the list as in `vigil audit schedules` (before: excludedos was not shown).
    assert.match(text, /without denial-of-service tests/);
    assert.match(text, /week/);
    assert.match(text, /on change/);
    assert.match(text, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    assert.match(text, /none yet/);
    // The operator starts its run now; the audit list links the run to its schedule.
    await admin(s.dataDir, 'schedule', 'run', id);
    await page.getByRole('link', { name: 'Audits', exact: true }).click();
    await page.getByRole('link', { name: `Schedule ${id}` }).click();
    await page.getByRole('heading', { name: 'Schedules', exact: true }).waitFor();
    const marked = page.locator('tr[aria-current="true"]');
    assert.equal(await marked.getByRole('cell').first().textContent(), id);
    await marked.getByRole('link', { name: /^Audit \d+$/ }).waitFor();
    await page.screenshot({ path: join(SHOTS, '20-schedules.png'), fullPage: true });
    await page.getByRole('button', { name: `Delete schedule ${id}` }).click();
    await page.getByText(`Schedule ${id} deleted; its audits stay.`).waitFor();
    await page.getByText('No schedules yet.').waitFor();
  });
});
