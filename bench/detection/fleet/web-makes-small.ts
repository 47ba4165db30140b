/**
 * The small file servers of bench/detection/fleet/web-makes.ts (its header
 * says what each plants and how its twin is hardened): mini_httpd (K 117),
 * webfsd (K 118), BusyBox httpd (K 119, N < 50) and python3 -m http.server
 * (K 119, N 50-99 and 150).
 */
import { busyboxHttpd, HOME, miniHttpd, pythonHttp, webfsd } from '../../../test/helpers/web-makes.ts';
import { addr, type Daemon, none, RANGES_INHERENT, script } from './kit.ts';
import {
  BACKUP,
  BACKUP_NMAP,
  ENV,
  ENV_NMAP,
  GIT,
  GIT_NMAP,
  LISTED,
  LISTING,
  LISTING_NMAP,
  root,
  start,
  weak,
} from './web-makes.ts';

const M = (n: number) => addr(117, n);
const miniWeak = weak('mini_httpd', 80);
export const MINI_HTTPD: Daemon = {
  kind: 'mini-httpd',
  binaries: ['mini_httpd'],
  ports: { tcp: [80], udp: [] },
  weaknesses: [
    miniWeak('mini-httpd-listing', 'directory listing (no index page)', M(1), LISTING, LISTING_NMAP),
    miniWeak('mini-httpd-git', '/.git/ in the web root', M(2), GIT, GIT_NMAP),
    miniWeak('mini-httpd-env', '/.env in the web root', M(2), ENV, ENV_NMAP),
    miniWeak('mini-httpd-backup', 'config.php.bak in the web root', M(2), BACKUP, BACKUP_NMAP),
    miniWeak(
      'mini-httpd-default-page',
      "Debian mini-httpd package's welcome page",
      M(3),
      /^vigil\.http\.default-page$/,
      none,
    ),
  ],
  twins: [{ address: M(100), note: 'an index page, no leftovers' }],
  async start(ctx) {
    for (const [n, dir] of [
      [1, root(ctx, 'mini-1', LISTED)],
      [2, root(ctx, 'mini-2', { 'index.html': HOME }, true)],
      [3, '/usr/share/mini-httpd/html'],
      [100, root(ctx, 'mini-100', { 'index.html': HOME })],
    ] as const)
      await start(ctx, `mini-httpd-${n}`, miniHttpd(ctx.dir(`mini-log-${n}`), M(n), 80, dir), M(n), 80);
  },
};

const F = (n: number) => addr(118, n);
const webfsWeak = weak('webfsd', 80);
export const WEBFSD: Daemon = {
  kind: 'webfsd',
  binaries: ['webfsd'],
  ports: { tcp: [80], udp: [] },
  weaknesses: [
    webfsWeak('webfsd-listing', 'directory listing (its default)', F(1), LISTING, LISTING_NMAP),
    webfsWeak('webfsd-git', '/.git/ in the web root', F(2), GIT, GIT_NMAP),
    webfsWeak('webfsd-env', '/.env in the web root', F(2), ENV, ENV_NMAP),
    webfsWeak('webfsd-backup', 'config.php.bak in the web root', F(2), BACKUP, BACKUP_NMAP),
    // webfsd 1.21 sends every range asked for, overlapping or not, and has no option to limit them: its twin
    // serves them too, and that alarm on the twin is true (docs/audits.md, "Web servers of every make").
    webfsWeak(
      'webfsd-range-amplification',
      'overlapping byte ranges all served (no limit in webfsd)',
      F(2),
      /^vigil\.dos\.http-range-amplification$/,
      // nmap's Apache Killer script asks for overlapping ranges too (and says VULNERABLE on the twin as well).
      script('http-vuln-cve2011-3192', /VULNERABLE/),
      'dos',
    ),
  ],
  twins: [
    {
      address: F(100),
      note: '-j (no listings), -f index.html, no leftovers',
      inherent: [RANGES_INHERENT('webfsd 1.21')],
    },
  ],
  async start(ctx) {
    await start(ctx, 'webfsd-1', webfsd(F(1), 80, root(ctx, 'webfs-1', LISTED), false), F(1), 80);
    await start(ctx, 'webfsd-2', webfsd(F(2), 80, root(ctx, 'webfs-2', { 'index.html': HOME }, true), true), F(2), 80);
    await start(
      ctx,
      'webfsd-100',
      webfsd(F(100), 80, root(ctx, 'webfs-100', { 'index.html': HOME }), true),
      F(100),
      80,
    );
  },
};

const B = (n: number) => addr(119, n);
const busyWeak = weak('busybox httpd', 80);
export const BUSYBOX_HTTPD: Daemon = {
  kind: 'busybox-httpd',
  binaries: ['busybox'],
  ports: { tcp: [80], udp: [] },
  weaknesses: [
    busyWeak('busybox-httpd-git', '/.git/ in the web root', B(1), GIT, GIT_NMAP),
    busyWeak('busybox-httpd-env', '/.env in the web root', B(1), ENV, ENV_NMAP),
    busyWeak('busybox-httpd-backup', 'config.php.bak in the web root', B(1), BACKUP, BACKUP_NMAP),
    busyWeak(
      'busybox-httpd-basic-plain',
      'HTTP Basic authentication over plain HTTP (httpd.conf /admin:…)',
      B(2),
      /^vigil\.http\.basic-auth-cleartext$/,
      script('http-auth', /Basic/i),
      'cleartext',
    ),
  ],
  twins: [{ address: B(100), note: 'an index page, no leftovers, no protected area over plain HTTP' }],
  async start(ctx) {
    const site = (n: number, leftovers: boolean) =>
      root(ctx, `busybox-${n}`, { 'index.html': HOME, ...(n === 2 ? { 'admin/index.html': HOME } : {}) }, leftovers);
    for (const [n, leftovers] of [
      [1, true],
      [2, false],
      [100, false],
    ] as const) {
      const auth = n === 2 ? { path: '/admin', user: 'admin', password: 'bench-Bb-not-a-secret' } : undefined;
      await start(
        ctx,
        `busybox-${n}`,
        busyboxHttpd(ctx.dir(`busybox-conf-${n}`), B(n), 80, site(n, leftovers), auth),
        B(n),
        80,
      );
    }
  },
};

const P = (n: number) => addr(119, n);
const pyWeak = weak('python3 http.server', 8000);
export const PYTHON_HTTP: Daemon = {
  kind: 'python-http',
  binaries: ['/usr/bin/python3'],
  ports: { tcp: [8000], udp: [] },
  weaknesses: [
    pyWeak('python-http-listing', 'directory listing (no index page)', P(51), LISTING, LISTING_NMAP),
    pyWeak('python-http-env', '/.env in the served directory', P(52), ENV, ENV_NMAP),
    pyWeak('python-http-git', '/.git/ in the served directory', P(52), GIT, GIT_NMAP),
    pyWeak('python-http-backup', 'config.php.bak in the served directory', P(52), BACKUP, BACKUP_NMAP),
  ],
  twins: [{ address: P(150), note: 'an index page, no leftovers' }],
  async start(ctx) {
    for (const [n, dir] of [
      [51, root(ctx, 'python-51', LISTED)],
      [52, root(ctx, 'python-52', { 'index.html': HOME }, true)],
      [150, root(ctx, 'python-150', { 'index.html': HOME })],
    ] as const)
      await start(ctx, `python-http-${n}`, pythonHttp(P(n), 8000, dir), P(n), 8000);
  },
};
