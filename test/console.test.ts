// store-incidental: the web console (web/), which reaches the store only through the API (tested on both engines).
// The web console end to end: Debian's chromium (driven by playwright-core,
// no browser download) against a real `bin/vigil serve`. Screenshots go to
// test-artifacts/console/ (git-ignored) for a person to look at.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer as createHttp } from 'node:http';
import { addAccount, admin, serve, type Served } from './helpers/server.ts';
import { bannerServer, closeAll, listenOnFirst } from './helpers/targets.ts';
import { portsFor } from '../src/audit/engine/ports.ts';
import { renderReport } from '../src/audit/render/index.ts';
// @ts-expect-error: a plain .mjs shared with the build script, without declarations
import { builtConsole } from '../scripts/console-bundle.mjs';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = resolve(import.meta.dirname, '../test-artifacts/console');
const PASSWORD = 'console pass 7';
const TARGET = '127.0.1.9';
/** Ports the standard audit scans, unprivileged first choice. */
const candidates = (...preferred: number[]) => {
  const set = new Set(portsFor('standard'));
  return [...preferred.filter((p) => set.has(p)), ...[...set].filter((p) => p > 1024 && !preferred.includes(p))];
};

describe('web console in chromium', {
  skip: !existsSync(CHROMIUM) && 'chromium is not installed (.ci/run installs it)',
}, () => {
  let s: Served;
  let browser: Browser;
  let page: Page;
  let apikey: string;
  const targets: Parameters<typeof closeAll>[0] = [];
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  /** Clicks `button` and returns the text of the file the page saves. */
  const saved = async (button: ReturnType<Page['getByRole']>) => {
    const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
    return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // Old versions with scored CVEs, so the report page has findings to show.
    const apache = createHttp((_req, res) =>
      res.writeHead(200, { server: 'Apache/2.4.49 (Unix)', 'content-type': 'text/html' }).end('<html>old</html>'),
    );
    const ftp = bannerServer('220 (vsFTPd 2.3.4)');
    const ssh = bannerServer('SSH-2.0-OpenSSH_7.4');
    targets.push(apache, ftp, ssh);
    await listenOnFirst(ssh, TARGET, candidates(2222, 22222));
    await listenOnFirst(apache, TARGET, candidates(8081, 8888, 9080));
    await listenOnFirst(ftp, TARGET, candidates(2121, 21, 990));
    s = await serve({ args: ['--publish-interval', '1h'] });
    apikey = await addAccount(
      s.dataDir,
      'webuser',
      PASSWORD,
      '--audit-types',
      'basic,standard',
      '--allow-ip',
      '127.0.1.0/24',
      '--dns-credits',
      '3',
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const ctx = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 800 } });
    page = await ctx.newPage();
    // Anything loaded from another origin, and any CSP violation, fails the test.
    page.on('request', (r) =>
      assert.ok(
        r.url().startsWith(s.httpsUrl) || r.url().startsWith('blob:') || r.url().startsWith('data:'),
        `request to ${r.url()}`,
      ),
    );
    page.on('console', (m) => assert.ok(!/Content Security Policy/i.test(m.text()), m.text()));
  });
  after(async () => {
    await browser?.close();
    await s?.stop();
    await closeAll(targets);
  });

  test('/ carries the security headers; /api is unchanged', async () => {
    const res = await fetch(`${s.httpsUrl}/`, { dispatcher: undefined } as any).catch(() => null);
    // Node's fetch refuses the self-signed certificate; ask through the page instead.
    void res;
    const r = await page.goto(`${s.httpsUrl}/`);
    const h = r!.headers();
    assert.match(h['content-security-policy']!, /default-src 'self'/);
    assert.match(h['content-security-policy']!, /frame-ancestors 'none'/);
    assert.doesNotMatch(h['content-security-policy']!, /unsafe-inline/);
    assert.equal(h['x-content-type-options'], 'nosniff');
    assert.equal(h['referrer-policy'], 'no-referrer');
    const api = await s.client().post('dnsGetDomainList.php', {});
    assert.equal(api.body.error, 'invalid apikey format');
    // After `npm ci` (or `npm run build`) the server serves the bundle the build wrote; else one it makes.
    const built = builtConsole();
    const served = await (await page.goto(`${s.httpsUrl}/console.js`))!.text();
    if (built) assert.equal(served, built.js, 'the bundle npm ci wrote, while it matches the sources');
    else assert.match(served, /Log in/);
    await page.goto(`${s.httpsUrl}/`);
  });

  test('log in: a wrong password is put into words; the right one opens Domains; the token is in sessionStorage only', async () => {
    await page.getByLabel('API key').fill(apikey);
    await page.getByLabel('User ID').fill('webuser');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('The user ID and password do not match.').waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await shot('01-login');
    // From the keyboard: Enter in the password field submits.
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { name: 'Domains' }).waitFor();
    assert.ok(await page.getByRole('link', { name: 'Audits', exact: true }).isVisible());
    const stores = await page.evaluate(() => ({
      local: localStorage.length,
      session: sessionStorage.getItem('vigil.session'),
    }));
    assert.equal(stores.local, 0);
    assert.match(stores.session!, /sessionToken/);
  });

  test('domains: add a domain, a record with an error in place then right, publish, state changes, zone text', async () => {
    await page.getByLabel('Domain name').fill('console-test.example');
    await page.getByLabel('I accept the acceptable use policy').check();
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('link', { name: 'console-test.example' }).click();
    await page.getByRole('heading', { name: /console-test\.example/ }).waitFor();
    await page.getByText('Unvalidated').first().waitFor();
    const form = page.getByRole('form', { name: 'Add A record' });
    await form.getByLabel('Name').fill('www');
    await form.getByLabel('IPv4 address').fill('300.1.2.3');
    await form.getByRole('button', { name: 'Add A record' }).click();
    await form.getByText('This is not a valid address for this record type.').waitFor();
    assert.equal(await form.getByLabel('IPv4 address').getAttribute('aria-invalid'), 'true');
    await shot('02-record-error');
    await form.getByLabel('IPv4 address').fill('127.0.0.20');
    await form.getByRole('button', { name: 'Add A record' }).click();
    await page.getByRole('cell', { name: 'www → 127.0.0.20', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    // A new domain is on hold until the operator releases it: the console shows publish's errors.
    await page
      .locator('.panel.bad')
      .getByText(/on hold/)
      .waitFor();
    await shot('03-publish-errors');
    await admin(s.dataDir, 'domain', 'release', 'console-test.example');
    await page.getByRole('button', { name: 'Publish' }).click();
    // At the server's next cycle (its --publish-interval is 1h here), not a guessed 5-minute one.
    const published = page.getByText(
      /Published\. The name servers take the change at the next distribution, [\d-]+ [\d:]+ UTC\./,
    );
    await published.waitFor();
    const [, day, time] = /distribution, ([\d-]+) ([\d:]+) UTC/.exec((await published.textContent())!)!;
    assert.ok(
      Date.parse(`${day}T${time}Z`) > Date.now() + 10 * 60_000,
      'the next cycle of a 1h interval, not the next 5-minute mark',
    );
    await page.getByRole('button', { name: 'Show zone text' }).click();
    const zone = page.getByLabel('Zone text');
    await zone.waitFor();
    assert.match((await zone.textContent())!, /^www\S*\s.*\bA\s+127\.0\.0\.20$/m);
    assert.equal(await page.locator('h1 .badge').textContent(), 'Waiting for distribution to name servers');
    await shot('04-domain');
    await admin(s.dataDir, 'distribute');
    await page.getByRole('link', { name: 'Domains', exact: true }).click();
    await page.getByRole('cell', { name: 'Active', exact: true }).waitFor();
    await page
      .locator('.figures div', { has: page.getByText('Credits left', { exact: true }) })
      .locator('dd')
      .getByText('2', { exact: true })
      .waitFor();
    await shot('05-domains');
  });

  test('domain tools: a master-file import, a refused one that changes nothing, the SOA', async () => {
    await page.getByRole('link', { name: 'console-test.example' }).click();
    const imp = page.getByRole('form', { name: 'Import zone file' });
    await imp.getByLabel(/Records to import/).fill('mail 3600 IN A 127.0.0.21\n');
    await imp.getByRole('button', { name: 'Import' }).click();
    await page.getByText('Imported 1 records.').waitFor();
    await page.getByRole('cell', { name: 'mail → 127.0.0.21', exact: true }).waitFor();
    await imp.getByLabel(/Records to import/).fill('ok 3600 IN A 127.0.0.22\nbad 3600 IN A 999.1.1.1\n');
    await imp.getByRole('button', { name: 'Import' }).click();
    await page.getByText('Nothing was imported.').waitFor();
    assert.equal(await page.getByRole('cell', { name: 'ok → 127.0.0.22', exact: true }).count(), 0);
    const soa = page.getByRole('form', { name: 'Set SOA' });
    await soa.getByLabel(/Minimum TTL/).fill('3600');
    await soa.getByRole('button', { name: 'Save SOA' }).click();
    await page.getByText('SOA saved; publish to put it live.').waitFor();
    await page.getByRole('cell', { name: /min 3600$/ }).waitFor();
    // Zone options: a refused notify value is shown at its field.
    await page.getByLabel('Record type').selectOption('Options');
    const opts = page.getByRole('form', { name: 'Add Options record' });
    await opts.getByLabel(/^Notify/).fill('maybe');
    await opts.getByRole('button', { name: 'Save options' }).click();
    await opts.getByText('Notify must be yes, no or explicit.').waitFor();
    assert.equal(await opts.getByLabel(/^Notify/).getAttribute('aria-invalid'), 'true');
    const exported = await saved(page.getByRole('button', { name: 'Export zone file' }));
    assert.equal(exported.name, 'console-test.example.zone');
    assert.match(exported.text, /^mail\S*\s.*\bA\s+127\.0\.0\.21$/m);
    await shot('05b-domain-tools');
  });

  test('DNSSEC panel: signing on, the DS with its copy button, the keys, NSEC3, a KSK roll', async () => {
    const panel = page.getByRole('region', { name: 'DNSSEC' });
    const settings = panel.getByRole('form', { name: 'DNSSEC settings' });
    await settings.getByLabel('Sign this zone (DNSSEC)').check();
    assert.ok(await settings.getByRole('radio', { name: /^NSEC:/ }).isChecked(), 'NSEC at first');
    await settings.getByRole('button', { name: 'Save DNSSEC settings' }).click();
    await panel.getByText('Saved: signed with NSEC from the next distribution.').waitFor();
    await panel.getByText(/The keys are made at the next distribution/).waitFor();
    // The operator's cycle makes the keys; the page read again shows the DS the API gives.
    await admin(s.dataDir, 'distribute');
    await page.reload();
    const api = s.client();
    await api.login(apikey, 'webuser', PASSWORD);
    const status = await api.call('dnsGetDNSSEC.php', { domain: 'console-test.example' });
    assert.deepEqual([status.enabled, status.nsec3, status.ds.length], [true, false, 1]);
    const ds = status.ds[0]!;
    assert.match(ds, /^console-test\.example\. 3600 IN DS \d+ 13 2 [0-9A-F]{64}$/);
    await panel.getByText(ds, { exact: true }).waitFor();
    const tag = ds.split(' ')[4]!;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.httpsUrl });
    await panel.getByRole('button', { name: `Copy DS record ${tag}` }).click();
    await panel.getByText(`DS record ${tag} copied.`).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), ds);
    const keys = panel.getByRole('table', { name: 'Keys' });
    assert.deepEqual((await keys.locator('tbody tr').allTextContents()).map((row) => row.replace(/^\d+/, '')).sort(), [
      'KSK (the DS names it)ECDSA P-256 with SHA-256signing',
      'ZSK (rolls by itself)ECDSA P-256 with SHA-256signing',
    ]);
    await shot('05d-dnssec');
    // NSEC3: the choice saved, the same DS (the keys stay).
    await settings.getByRole('radio', { name: /^NSEC3:/ }).check();
    await settings.getByRole('button', { name: 'Save DNSSEC settings' }).click();
    await panel.getByText('Saved: signed with NSEC3 from the next distribution.').waitFor();
    const after = await api.call('dnsGetDNSSEC.php', { domain: 'console-test.example' });
    assert.deepEqual([after.enabled, after.nsec3, after.ds], [true, true, [ds]]);
    assert.ok(await panel.getByRole('radio', { name: /^NSEC3:/ }).isChecked());
    // A KSK roll: started (two DS to give), then finished after a confirmation.
    await panel.getByRole('button', { name: 'Start a KSK roll' }).click();
    await panel.getByText(/KSK roll started/).waitFor();
    assert.equal(await panel.getByRole('button', { name: /^Copy DS record/ }).count(), 2);
    page.once('dialog', (d) => void d.accept());
    await panel.getByRole('button', { name: 'Finish the KSK roll' }).click();
    await panel.getByText(/KSK roll finished/).waitFor();
    assert.equal(await panel.getByRole('button', { name: /^Copy DS record/ }).count(), 1);
    assert.notEqual(await panel.locator('.ds code').textContent(), ds, 'the new KSK is the one left');
    await shot('05e-dnssec-nsec3');
  });

  test('account: entitlements, allowed addresses and credits; delete a domain only after confirming', async () => {
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    const fig = (term: string) =>
      page.locator('.figures div', { has: page.getByText(term, { exact: true }) }).locator('dd');
    await fig('Audit types').getByText('basic, standard').waitFor();
    assert.equal(await fig('Addresses you may audit').textContent(), '127.0.1.0/24');
    assert.equal(await fig('Credits used').textContent(), '1 of 3');
    assert.equal(await fig('Credits left').textContent(), '2');
    await shot('05c-account');
    await page.getByRole('link', { name: 'Domains', exact: true }).click();
    await page.getByLabel('Domain name').fill('doomed.example');
    await page.getByLabel('I accept the acceptable use policy').check();
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('link', { name: 'doomed.example' }).click();
    await page.getByRole('heading', { name: /doomed\.example/ }).waitFor();
    // Cancelled: nothing happens.
    page.once('dialog', (d) => void d.dismiss());
    await page.getByRole('button', { name: 'Delete domain' }).click();
    assert.ok(await page.getByRole('heading', { name: /doomed\.example/ }).isVisible());
    page.once('dialog', (d) => {
      assert.match(d.message(), /Delete doomed\.example and all its records\?/);
      void d.accept();
    });
    await page.getByRole('button', { name: 'Delete domain' }).click();
    await page.getByRole('heading', { name: 'Domains' }).waitFor();
    await page.getByRole('link', { name: 'console-test.example' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'doomed.example' }).count(), 0);
  });

  test('audits: run one of a 127.0.1.x target, see it finish, open its report; narrow window', async () => {
    await page.getByRole('link', { name: 'Audits', exact: true }).click();
    // Only the audit types the account may run are offered, with the addresses it may audit.
    await page.getByText('You may audit: 127.0.1.0/24').waitFor();
    assert.deepEqual(await page.getByLabel('Audit type').locator('option').allTextContents(), ['basic', 'standard']);
    await page.getByLabel('Targets').fill(TARGET);
    await page.getByLabel('Audit type').selectOption('standard');
    await page.getByRole('button', { name: 'Run audit' }).click();
    await page.getByText(/Audit \d+ queued\./).waitFor();
    // Queued or running, the list shows its progress as a bar (refreshed every 3 s).
    await page.getByRole('progressbar', { name: 'Audit progress' }).first().waitFor();
    const link = page.getByRole('link', { name: /^Report \d+$/ });
    await link.waitFor({ timeout: 90_000 });
    await shot('06-audits');
    await link.click();
    await page.getByRole('heading', { name: /Audit report \d+/ }).waitFor();
    await page.getByText('Findings by risk').waitFor();
    await page.getByText('Findings by category and risk').waitFor();
    // A scored finding links its CVEs to NVD; the risk filter narrows the list.
    const apacheFinding = page.locator('details.finding', { hasText: 'Apache' }).first();
    await apacheFinding.locator('summary').click();
    assert.match(
      (await apacheFinding
        .getByRole('link', { name: /^CVE-2021-/ })
        .first()
        .getAttribute('href'))!,
      /^https:\/\/nvd\.nist\.gov\/vuln\/detail\/CVE-2021-/,
    );
    const all = await page.locator('details.finding').count();
    await page.getByLabel('Risk').selectOption('high');
    const high = await page.locator('details.finding').count();
    assert.ok(high > 0 && high < all, `high ${high} of ${all}`);
    await page.getByLabel('Risk').selectOption('');
    // The address filter offers the addresses findings are on (one here) and keeps them all.
    assert.deepEqual(await page.getByLabel('Address').locator('option').allTextContents(), ['all', TARGET]);
    await page.getByLabel('Address').selectOption(TARGET);
    assert.equal(await page.locator('details.finding').count(), all);
    await page.getByLabel('Address').selectOption('');
    // Exports are the shared renderer's files, byte for byte, of the report the API gives.
    const scanuid = /Audit report (\d+)/.exec(
      (await page.getByRole('heading', { name: /Audit report \d+/ }).textContent())!,
    )![1]!;
    const api = s.client();
    await api.login(apikey, 'webuser', PASSWORD);
    const info = (await api.call('saGetAuditReport.php', { scanuid })).scaninfo;
    const csv = await saved(page.getByRole('button', { name: 'Export CSV' }));
    assert.deepEqual([csv.name, csv.text], [`vigil-audit-${scanuid}.csv`, renderReport(info, 'csv')]);
    const html = await saved(page.getByRole('button', { name: 'Export HTML' }));
    assert.deepEqual([html.name, html.text], [`vigil-audit-${scanuid}.html`, renderReport(info, 'html')]);
    // Print: no navigation or controls, every finding open (a closed one's description shows).
    const closed = page.locator('details.finding:not([open])').first();
    const description = closed.locator(':scope > :not(summary)').first();
    assert.equal(await description.isVisible(), false);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.getByRole('link', { name: 'Audits', exact: true }).isVisible(), false);
    assert.equal(await page.getByRole('button', { name: 'Export CSV' }).isVisible(), false);
    assert.equal(await page.getByRole('form', { name: 'Filter findings' }).isVisible(), false);
    assert.ok(await description.isVisible(), 'a closed finding prints open');
    await page.pdf({ path: join(SHOTS, '07-report.pdf') });
    await page.emulateMedia({ media: 'screen' });
    await shot('07-report');
    // The first screen as a person sees it (README's screenshot).
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, '07-report-screen.png') });
    await page.setViewportSize({ width: 380, height: 800 });
    await shot('08-report-narrow');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at 380px`);
    // The zone editor too: its forms stack, its records table scrolls in its own box.
    await page.getByRole('link', { name: 'Domains', exact: true }).click();
    await page.getByRole('link', { name: 'console-test.example' }).click();
    await page.getByRole('form', { name: 'Add A record' }).waitFor();
    // The records and the DNSSEC panel (a DS line of 64 hex digits) loaded: they are what could widen the page.
    await page.getByRole('cell', { name: 'www → 127.0.0.20', exact: true }).waitFor();
    await page.getByRole('button', { name: /^Copy DS record/ }).waitFor();
    const domainOverflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    await shot('09-domain-narrow');
    assert.ok(domainOverflow <= 0, `the domain page scrolls sideways by ${domainOverflow}px at 380px`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('API key').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('vigil.session')), null);
  });
});
