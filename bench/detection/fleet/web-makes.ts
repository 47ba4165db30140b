/**
 * The small web servers Debian packages besides nginx, Apache and
 * lighttpd, each planted with what it can really be misconfigured with,
 * and a hardened twin of each (test/helpers/web-makes.ts builds their
 * command lines, shared with web/web-makes.test.ts):
 * - caddy 2.6 (K 115): `file_server browse`, leftovers in the root, its
 *   admin API on a reachable address, the Debian package's "Caddy works!"
 *   page, and a single-page app (`try_files {path} /index.html`, a soft 200
 *   for every path) with a .env beside it; twins: security headers, `hide`
 *   of the leftovers (on disk, answered 404), admin off; and the same SPA
 *   without the leftovers (every path 200, nothing to find).
 * - h2o 2.2 (K 116): `file.dirlisting: ON` and Debian's stock
 *   `/server-status: status: ON`; leftovers; twin: listing off, no status,
 *   header.add, no leftovers.
 * - mini_httpd 1.30 (K 117), webfsd 1.21 (K 118): listings (their default
 *   without an index page), leftovers, mini_httpd's Debian welcome page;
 *   twins: an index page (webfsd -j), no leftovers.
 * - BusyBox httpd 1.35 (K 119, N < 50): leftovers, HTTP Basic over plain
 *   HTTP; python3 -m http.server (K 119, N 50-99): listing, leftovers.
 *   Twins: no leftovers, no protected area, an index page.
 * The last four are in web-makes-small.ts. None of mini_httpd, webfsd,
 * BusyBox httpd or http.server can send
 * security headers: their twins serve a static page, where the missing
 * headers are a LOG (web/security-headers.ts).
 */
import { join } from 'node:path';
import { caddy, type Command, h2o, HOME, LEFTOVERS, SPA } from '../../../test/helpers/web-makes.ts';
import { addr, any, type Ctx, type Daemon, grep, none, RANGES_INHERENT, script, type Weakness } from './kit.ts';
import type { NmapPort } from '../nmap.ts';

export type Nmap = (p: NmapPort) => string | null;
export const LISTING_NMAP: Nmap = any(script('http-ls', /Volume/), grep(/Index of|Directory listing|listing:/i));
export const GIT_NMAP: Nmap = any(script('http-git', /Git repository found/i), grep(/\/\.git\//));
export const ENV_NMAP: Nmap = grep(/\/\.env\b/);
export const BACKUP_NMAP: Nmap = any(script('http-backup-finder', /\.bak/i), grep(/config\.php\.bak/));

/** One weakness on address:port, found by a check id. */
export const weak =
  (daemon: string, port: number) =>
  (id: string, label: string, address: string, check: RegExp, nmap: Nmap, family: Weakness['family'] = 'web') =>
    ({ id, family, label, daemon, address, port, proto: 'tcp', vigil: { id: check }, nmap }) satisfies Weakness;

export const LISTING = /^vigil\.http\.dir-listing/;
export const GIT = /^vigil\.http\.git-exposed$/;
export const ENV = /^vigil\.http\.env-exposed$/;
export const BACKUP = /^vigil\.http\.backup-files$/;

/** A web root: `files`, and the leftovers when asked. */
export function root(ctx: Ctx, name: string, files: Record<string, string>, leftovers = false): string {
  const dir = ctx.dir(name);
  for (const [f, body] of Object.entries({ ...files, ...(leftovers ? LEFTOVERS : {}) })) ctx.write(join(dir, f), body);
  return dir;
}
export const LISTED = {
  'files/report-2025.pdf': '%PDF-1.4\n',
  'files/customers.csv': 'id,name\n',
  'notes.txt': 'todo\n',
};

export async function start(ctx: Ctx, label: string, c: Command, address: string, port: number): Promise<void> {
  await ctx.waitTcp(address, port, ctx.spawn(label, c.cmd, c.args, c.env ? { env: c.env } : {}));
}

const C = (n: number) => addr(115, n);
const caddyWeak = weak('caddy', 80);
export const CADDY: Daemon = {
  kind: 'caddy',
  binaries: ['caddy'],
  ports: { tcp: [80, 2019], udp: [] },
  weaknesses: [
    caddyWeak('caddy-browse', 'directory listing (file_server browse)', C(1), LISTING, LISTING_NMAP),
    caddyWeak('caddy-git', '/.git/ in the web root', C(2), GIT, GIT_NMAP),
    caddyWeak('caddy-env', '/.env in the web root', C(2), ENV, ENV_NMAP),
    caddyWeak('caddy-backup', 'config.php.bak in the web root', C(2), BACKUP, BACKUP_NMAP),
    weak('caddy', 2019)(
      'caddy-admin-api',
      'admin API on a reachable address (admin 127.14.115.3:2019): anyone can POST /load a new configuration',
      C(3),
      /^vigil\.web\.server-admin-api$/,
      none,
      'auth',
    ),
    caddyWeak(
      'caddy-default-page',
      'Debian caddy package default page ("Caddy works!")',
      C(4),
      /^vigil\.http\.default-page$/,
      grep(/Caddy works!/),
    ),
    caddyWeak('caddy-spa-env', '/.env beside a single-page app (every path answers 200)', C(5), ENV, ENV_NMAP),
  ],
  twins: [
    {
      address: C(100),
      note: 'security headers, no Server header, hide .git .env *.bak (on disk, answered 404), admin off',
    },
    {
      address: C(101),
      note: 'single-page app: try_files {path} /index.html, every path 200, security headers, no leftovers',
    },
  ],
  async start(ctx) {
    const sites = [
      { address: C(1), port: 80, root: root(ctx, 'caddy-1', LISTED), browse: true },
      { address: C(2), port: 80, root: root(ctx, 'caddy-2', { 'index.html': HOME }, true) },
      { address: C(3), port: 80, root: root(ctx, 'caddy-3', { 'index.html': HOME }) },
      { address: C(4), port: 80, root: '/usr/share/caddy' },
      {
        address: C(5),
        port: 80,
        root: root(ctx, 'caddy-5', { 'index.html': SPA, '.env': LEFTOVERS['.env']! }),
        spa: true,
      },
    ];
    await start(ctx, 'caddy-weak', caddy(ctx.dir('caddy-weak'), `${C(3)}:2019`, sites), C(3), 2019);
    const twins = [
      {
        address: C(100),
        port: 80,
        root: root(ctx, 'caddy-100', { 'index.html': HOME }, true),
        headers: true,
        hide: ['.git', '.env', '*.bak'],
      },
      { address: C(101), port: 80, root: root(ctx, 'caddy-101', { 'index.html': SPA }), spa: true, headers: true },
    ];
    await start(ctx, 'caddy-twins', caddy(ctx.dir('caddy-twins'), 'off', twins), C(100), 80);
    for (const s of [...sites, ...twins]) await ctx.waitTcp(s.address, 80);
  },
};

const H = (n: number) => addr(116, n);
const h2oWeak = weak('h2o', 80);
export const H2O: Daemon = {
  kind: 'h2o',
  binaries: ['h2o'],
  ports: { tcp: [80], udp: [] },
  weaknesses: [
    h2oWeak('h2o-listing', 'directory listing (file.dirlisting: ON)', H(1), LISTING, LISTING_NMAP),
    h2oWeak(
      'h2o-status',
      "status handler open to anyone (Debian's stock /server-status: status: ON)",
      H(1),
      /^vigil\.http\.(status-page|server-status)$/,
      grep(/server-status/),
    ),
    h2oWeak('h2o-git', '/.git/ in the web root', H(2), GIT, GIT_NMAP),
    h2oWeak('h2o-env', '/.env in the web root', H(2), ENV, ENV_NMAP),
    h2oWeak('h2o-backup', 'config.php.bak in the web root', H(2), BACKUP, BACKUP_NMAP),
    // h2o 2.2's file handler sends every range asked for and has no setting to limit them: true on its twin too.
    h2oWeak(
      'h2o-range-amplification',
      'overlapping byte ranges all served (no limit in h2o 2.2)',
      H(2),
      /^vigil\.dos\.http-range-amplification$/,
      // nmap's Apache Killer script asks for overlapping ranges too (and says VULNERABLE on the twin as well).
      script('http-vuln-cve2011-3192', /VULNERABLE/),
      'dos',
    ),
  ],
  twins: [
    {
      address: H(100),
      note: 'file.dirlisting: OFF, no status handler, header.add security headers, no leftovers',
      inherent: [RANGES_INHERENT('h2o 2.2')],
    },
  ],
  async start(ctx) {
    for (const [n, files, leftovers, opts] of [
      [1, LISTED, false, { listing: true, status: true }],
      [2, { 'index.html': HOME }, true, {}],
      [100, { 'index.html': HOME }, false, { headers: true }],
    ] as const) {
      const dir = ctx.dir(`h2o-conf-${n}`);
      await start(ctx, `h2o-${n}`, h2o(dir, H(n), 80, root(ctx, `h2o-${n}`, files, leftovers), opts), H(n), 80);
    }
  },
};
