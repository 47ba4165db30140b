/**
 * The web checks on the small web servers Debian packages besides nginx,
 * Apache and lighttpd (test/helpers/web-makes.ts): each weak site is found
 * with its evidence, and its hardened twin, a single-page app that answers
 * 200 for every path, and Supervisor's web server (which answers its home
 * page for `/%23anything`) stay silent. Each daemon starts once for the
 * file, on 127.14.119.2xx and a free port.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { supervisorConf } from '../../../../test/helpers/exec-daemons.ts';
import {
  busyboxHttpd,
  type CaddySite,
  caddy,
  type Command,
  h2o,
  HOME,
  LEFTOVERS,
  miniHttpd,
  pythonHttp,
  SPA,
  webfsd,
} from '../../../../test/helpers/web-makes.ts';
import {
  binary,
  daemon,
  freePort,
  netFor,
  service,
  tempDir,
  writeFiles,
} from '../../../../test/helpers/web-daemons.ts';
import type { Check, HostFacts } from '../../engine/types.ts';
import { settle } from '../../engine/qod.ts';
import { fetchHttpInfo } from '../../proto/http.ts';
import { detectOne } from '../../engine/detect.ts';
import { listingEvidence } from './lib/listing.ts';
import adminOpen from './admin-open.ts';
import defaultPage from './default-page.ts';
import dirListing from './dir-listing.ts';
import dirListingDirs from './dir-listing-dirs.ts';
import envExposed from './env-exposed.ts';
import exposedFiles from './exposed-files.ts';
import gitExposed from './git-exposed.ts';
import securityHeaders from './security-headers.ts';
import serverAdminApi from './server-admin-api.ts';
import serverStatus from './server-status.ts';
import webdavOpen from './webdav-open.ts';
import outdatedProducts from '../versions/outdated-products.ts';

/** Every web check that asks for paths or reads the home page (the catalogue's, imported one by one). */
const CHECKS: Check[] = [
  dirListing,
  dirListingDirs,
  gitExposed,
  envExposed,
  ...exposedFiles,
  serverStatus,
  defaultPage,
  securityHeaders,
  serverAdminApi,
  adminOpen,
  webdavOpen,
];
const A = (n: number) => `127.14.119.${n}`;

/** Check id -> finding details of HOLE and NOTE findings (a LOG is evidence, not an alarm) on address:port. */
async function alarms(address: string, port: number): Promise<Map<string, string>> {
  const net = netFor(address);
  const http = await fetchHttpInfo(net, port, false);
  const host: HostFacts = { address, openPorts: [port], services: [service(port, 'http', { http })] };
  const out = new Map<string, string>();
  for (const c of CHECKS)
    for (const f of await c.runOn(host, net))
      if (settle(c, f).type !== 'LOG') out.set(c.id, `${out.get(c.id) ?? ''}${f.detail} `);
  return out;
}

/** A web root holding `files` (and the leftovers of a careless deployment when asked). */
function site(files: Record<string, string>, leftovers = false): string {
  const root = tempDir('web-makes');
  writeFiles(root, { ...files, ...(leftovers ? LEFTOVERS : {}) });
  return root;
}
const LISTED = { 'files/report.pdf': '%PDF-1.4\n', 'notes.txt': 'todo\n' };
const start = (address: string, command: (port: number) => Command) =>
  daemon(address, (port) => {
    const c = command(port);
    return { cmd: c.cmd, args: c.args, ...(c.env ? { env: c.env } : {}) };
  });

function assertFound(found: Map<string, string>, id: string, evidence: RegExp, where: string): void {
  assert.match(found.get(id) ?? '', evidence, `${id} on ${where}: ${JSON.stringify([...found])}`);
}
const assertSilent = (found: Map<string, string>, where: string) =>
  assert.deepEqual([...found], [], `alarms on ${where}`);

const CADDY = binary('/usr/bin/caddy');
test('caddy: browse listing, leftovers, a .env beside a single-page app and the open admin API are found; the hardened twin and a bare single-page app are silent', {
  skip: CADDY ? false : 'caddy is not installed (apt-get install caddy)',
}, async () => {
  const admin = await freePort(A(200));
  const weak = (port: number): CaddySite[] => [
    { address: A(200), port, root: site(LISTED), browse: true },
    { address: A(201), port, root: site({ 'index.html': HOME }, true) },
    { address: A(202), port, root: site({ 'index.html': SPA, '.env': LEFTOVERS['.env']! }), spa: true },
  ];
  const w = await start(A(200), (port) => caddy(tempDir('caddy'), `${A(200)}:${admin}`, weak(port)));
  const twins = (port: number): CaddySite[] => [
    { address: A(203), port, root: site({ 'index.html': HOME }, true), headers: true, hide: ['.git', '.env', '*.bak'] },
    { address: A(204), port, root: site({ 'index.html': SPA }), spa: true, headers: true },
  ];
  const t = await start(A(203), (port) => caddy(tempDir('caddy'), 'off', twins(port)));
  const [browse, leftovers, spa, api, hardened, bareSpa] = await Promise.all([
    alarms(A(200), w),
    alarms(A(201), w),
    alarms(A(202), w),
    alarms(A(200), admin),
    alarms(A(203), t),
    alarms(A(204), t),
  ]);
  assertFound(
    browse,
    'vigil.http.dir-listing-dirs',
    /links to 2 entries by their own names \(files, notes\.txt\)/,
    'browse',
  );
  assertFound(leftovers, 'vigil.http.git-exposed', /\/\.git\/HEAD: ref: refs\/heads\/main/, 'leftovers');
  assertFound(leftovers, 'vigil.http.env-exposed', /3 settings/, 'leftovers');
  assertFound(leftovers, 'vigil.http.backup-files', /\/config\.php\.bak \(PHP source\)/, 'leftovers');
  // Every path of the app answers 200 with its page: only the .env, in its own format, is a finding.
  assertFound(spa, 'vigil.http.env-exposed', /3 settings/, 'SPA');
  assert.deepEqual(
    [...spa.keys()].filter((id) => id !== 'vigil.http.env-exposed' && id !== 'vigil.http.security-headers'),
    [],
  );
  assertFound(api, 'vigil.web.server-admin-api', /GET \/config\/ .*Caddy admin API/, 'admin');
  assertSilent(hardened, 'the hardened caddy');
  assertSilent(bareSpa, 'the single-page app without leftovers');
});

test('h2o: file.dirlisting and the stock /server-status are found; listing off, no status and headers are silent', {
  skip: binary('/usr/bin/h2o') ? false : 'h2o is not installed (apt-get install h2o)',
}, async () => {
  const w = await start(A(205), (port) =>
    h2o(tempDir('h2o'), A(205), port, site(LISTED), { listing: true, status: true }),
  );
  const t = await start(A(206), (port) =>
    h2o(tempDir('h2o'), A(206), port, site({ 'index.html': HOME }), { headers: true }),
  );
  assert.equal(await named(A(205), w), 'h2o httpd');
  const weak = await alarms(A(205), w);
  assertFound(weak, 'vigil.http.dir-listing', /"Index of \/"/, 'h2o');
  assertFound(weak, 'vigil.http.status-page', /\/server-status\/json \(the h2o status handler\)/, 'h2o');
  assertSilent(await alarms(A(206), t), 'the hardened h2o');
});

/** The product detection names from the Server header (BusyBox httpd sends none). */
const named = async (address: string, port: number) =>
  (await detectOne(netFor(address), port, { nmapProbes: false })).product;

const SMALL: [
  string,
  string | null,
  (root: string, address: string, port: number, hard: boolean) => Command,
  string | null,
][] = [
  [
    'mini_httpd',
    binary('/usr/sbin/mini_httpd'),
    (root, address, port) => miniHttpd(tempDir('mini'), address, port, root),
    'mini_httpd',
  ],
  [
    'webfsd',
    binary('/usr/bin/webfsd'),
    (root, address, port, hard) => webfsd(address, port, root, hard),
    'webfs httpd',
  ],
  [
    'BusyBox httpd',
    binary('/usr/bin/busybox', '/bin/busybox'),
    (root, address, port) => busyboxHttpd(tempDir('bb'), address, port, root),
    null,
  ],
  [
    'python3 http.server',
    binary('/usr/bin/python3'),
    (root, address, port) => pythonHttp(address, port, root),
    'Python http.server',
  ],
];

test('mini_httpd, webfsd, BusyBox httpd, python3 http.server: listings and leftovers are found; an index page and a clean root are silent', async (t) => {
  await Promise.all(
    SMALL.map(async ([name, bin, command, product], i) => {
      if (!bin) return t.diagnostic(`${name} skipped: not installed`);
      // BusyBox httpd lists nothing (a directory without index.html is a 404): its weak site is the leftovers only.
      const listed = name !== 'BusyBox httpd';
      const [wa, ha] = [A(210 + 2 * i), A(211 + 2 * i)];
      const w = await start(wa, (port) =>
        command(site(listed ? LISTED : { 'index.html': HOME }, true), wa, port, false),
      );
      const h = await start(ha, (port) => command(site({ 'index.html': HOME }), ha, port, true));
      assert.equal(await named(wa, w), product, `${name} named by detection`);
      const [weak, hardened] = await Promise.all([alarms(wa, w), alarms(ha, h)]);
      if (listed)
        assertFound(
          weak,
          'vigil.http.dir-listing',
          /directory listing: "(?:Index of|listing:|Directory listing for)/,
          name,
        );
      assertFound(weak, 'vigil.http.git-exposed', /ref: refs\/heads\/main/, name);
      assertFound(weak, 'vigil.http.env-exposed', /3 settings/, name);
      assertFound(weak, 'vigil.http.backup-files', /config\.php\.bak/, name);
      assertSilent(hardened, `the hardened ${name}`);
    }),
  );
});

test('what makes a listing: its heading with a path, or links named as what they point to; not a document that names a few files', () => {
  assert.match(listingEvidence('<html><title>Index of /files/</title>') ?? '', /Index of \/files\//);
  assert.equal(listingEvidence('<title>Index of socat online documentation</title><a href="a.html">Intro</a>'), null);
  const caddyLike =
    '<a href="/">home</a><a href="..">Go up</a><a href="./a.txt"><svg><use/></svg><span class="name">a.txt</span></a>';
  assert.match(listingEvidence(caddyLike) ?? '', /1 entry by their own names \(a\.txt\) and to the parent/);
  const doc = `<h1>dnsmasq</h1>${['install', 'setup', 'faq', 'api', 'bugs'].map((p) => `<a href="${p}.html">The ${p} page</a>`).join('')}<a href="CHANGELOG">CHANGELOG</a> <a href="FAQ">FAQ</a>`;
  assert.equal(listingEvidence(doc), null);
  assert.equal(listingEvidence('<a href="about.html">About</a><a href="shop/">Shop</a>'), null);
  // Names alone, with no way up and no sizes or dates, are a download page, not a listing.
  const files = '<a href="app-1.0.tar.gz">app-1.0.tar.gz</a><a href="app-1.1.tar.gz">app-1.1.tar.gz</a>';
  assert.equal(listingEvidence(files), null);
  assert.match(listingEvidence(`${files.replace('</a>', '</a> 2025-03-01 12:00')}`) ?? '', /2 entries/);
});

test("mini_httpd's version: Debian's 1.30 (the release that fixed CVE-2018-18778) is not reported, 1.29 is", async () => {
  const check = outdatedProducts.find((c) => c.id === 'vigil.version.mini_httpd')!;
  const on = (server: string) => {
    const http = { status: 200, headers: { server }, body: '' };
    return check.runOn({ address: A(221), openPorts: [80], services: [service(80, 'http', { http })] }, netFor(A(221)));
  };
  assert.deepEqual(await on('mini_httpd/1.30 26Oct2018'), []);
  const [old] = await on('mini_httpd/1.29 23May2018');
  assert.match(old?.detail ?? '', /1\.29/);
  assert.deepEqual(old?.cves, ['CVE-2018-18778']);
});

test("Supervisor's web server answers its home page for /%23anything: no backup copy or other file is reported", {
  skip: existsSync('/usr/bin/supervisord') ? false : 'supervisor is not installed (apt-get install supervisor)',
}, async () => {
  const dir = tempDir('supervisor');
  const port = await daemon(A(220), (p) => ({
    cmd: '/usr/bin/supervisord',
    args: ['-n', '-c', supervisorConf(dir, A(220), p, false)],
  }));
  const found = await alarms(A(220), port);
  // Its status page answers anyone (admin-open's finding, true); nothing else may be claimed.
  found.delete('vigil.web.admin-open');
  found.delete('vigil.http.security-headers');
  assertSilent(found, 'supervisord');
});
