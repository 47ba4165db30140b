/**
 * Debian nginx (+ php-fpm) on plain HTTP: one site per weakness, each on
 * its own address, with the content an unlucky deployment leaves in its
 * web root (a real `git init` for .git; the files svn, hg and bzr write in
 * their control directories otherwise). Twins: a hardened site (PHP app,
 * dot-files denied), a catch-all that answers 200 to every path, and a
 * soft-404 site that answers "not found" pages with status 200: a scanner
 * that trusts the status code alone cries wolf on the last two.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { addr, any, grep, script, type Daemon, type Family, type VigilMatch, type Weakness } from './kit.ts';
import type { NmapPort } from '../nmap.ts';
import { HEADERS, INDEX, LIMITS, php, startNginx, startPhpFpm } from './nginx-proc.ts';

const K = 1;
interface Site {
  n: number;
  id: string;
  family: Family;
  label: string;
  files: Record<string, string | Buffer>;
  conf?: string;
  vigil: VigilMatch;
  nmap: (p: NmapPort) => string | null;
}

const ENV =
  'APP_ENV=production\nDB_HOST=10.0.0.5\nDB_PASSWORD=bench-not-a-secret\nAPP_KEY=base64:YmVuY2gtbm90LWEtc2VjcmV0\n';
const PHP_CONFIG = "<?php\n$db_host = '10.0.0.5';\n$db_user = 'shop';\n$db_password = 'bench-not-a-secret';\n";
const KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACBiZW5jaC1ub3QtYS1zZWNyZXQtYmVuY2gtbm90LWEtc2VjAAAAlGJlbmNo\n-----END OPENSSH PRIVATE KEY-----\n';
/** A .DS_Store starts with 00 00 00 01 "Bud1" (the Finder's buddy allocator). */
const DS_STORE = Buffer.concat([Buffer.from([0, 0, 0, 1]), Buffer.from('Bud1'), Buffer.alloc(2040, 0)]);
/** vim swap files start with "b0VIM <version>". */
const SWAP = Buffer.concat([Buffer.from('b0VIM 9.0\0'), Buffer.alloc(1014, 0), Buffer.from(PHP_CONFIG)]);

const noDots = 'location ~ /\\.(?!well-known) { return 404; }';
const t = (re: RegExp): VigilMatch => ({ text: re });

const SITES: Site[] = [
  {
    n: 1,
    id: 'web-git',
    family: 'web',
    label: '/.git/ in the web root',
    files: {},
    conf: '',
    vigil: t(/\.git\b|\bgit\b/i),
    nmap: any(script('http-git', /Git repository found/i), grep(/\/\.git\//)),
  },
  {
    n: 2,
    id: 'web-svn',
    family: 'web',
    label: '/.svn/ (Subversion working copy)',
    files: { '.svn/entries': '12\n', '.svn/wc.db': 'SQLite format 3\0', '.svn/format': '12\n' },
    vigil: t(/svn|subversion/i),
    nmap: grep(/\.svn/),
  },
  {
    n: 3,
    id: 'web-hg',
    family: 'web',
    label: '/.hg/ (Mercurial repository)',
    files: {
      '.hg/requires': 'dotencode\nfncache\ngeneraldelta\nrevlogv1\nsparserevlog\nstore\n',
      '.hg/store/00changelog.i': '\0\0\0\x01',
      '.hg/hgrc': '[paths]\ndefault = ssh://hg@10.0.0.5/shop\n',
    },
    vigil: t(/\.hg\b|mercurial/i),
    nmap: grep(/\.hg\b/),
  },
  {
    n: 4,
    id: 'web-bzr',
    family: 'web',
    label: '/.bzr/ (Bazaar branch)',
    files: {
      '.bzr/README': 'This is a Bazaar control directory.\nDo not change any files in this directory.\n',
      '.bzr/branch-format': 'Bazaar-NG meta directory, format 1\n',
      '.bzr/branch/branch.conf': 'parent_location = bzr+ssh://10.0.0.5/shop/\n',
    },
    vigil: t(/\.bzr|bazaar/i),
    nmap: grep(/\.bzr/),
  },
  {
    n: 5,
    id: 'web-env',
    family: 'web',
    label: '/.env with secrets',
    files: { '.env': ENV },
    vigil: t(/\.env\b|dotenv/i),
    nmap: grep(/\/\.env\b/),
  },
  {
    n: 6,
    id: 'web-htpasswd',
    family: 'web',
    label: '/.htpasswd readable',
    files: { '.htpasswd': 'admin:$apr1$bench$0uEJq3A1mzK4FqN1vnBfV.\n' },
    vigil: t(/htpasswd/i),
    nmap: grep(/htpasswd/i),
  },
  {
    n: 7,
    id: 'web-backup',
    family: 'web',
    label: 'backup copies (config.php.bak, index.php.bak, backup.sql)',
    files: {
      'config.php.bak': PHP_CONFIG,
      'index.php.bak': '<?php echo "shop";\n',
      'backup.sql': '-- MySQL dump 10.13\nCREATE TABLE users (id int, password varchar(64));\n',
      'index.php': '<?php echo "shop";\n',
    },
    vigil: t(/\.bak\b|backup|\.sql\b/i),
    nmap: any(script('http-backup-finder', /\.bak|backup/i), grep(/\.bak\b|backup\.sql/)),
  },
  {
    n: 8,
    id: 'web-editor',
    family: 'web',
    label: 'editor leftovers (.config.php.swp, config.php~)',
    files: { '.config.php.swp': SWAP, 'config.php~': PHP_CONFIG, 'index.php': '<?php echo "shop";\n' },
    conf: 'location ~ /\\.(?!config\\.php\\.swp$) { return 404; }',
    vigil: t(/\.swp\b|~|swap|editor/i),
    nmap: grep(/\.swp\b|\.php~/),
  },
  {
    n: 9,
    id: 'web-ds-store',
    family: 'web',
    label: '/.DS_Store (macOS folder metadata)',
    files: { '.DS_Store': DS_STORE },
    vigil: t(/ds_store/i),
    nmap: grep(/DS_Store/i),
  },
  {
    n: 10,
    id: 'web-aws-credentials',
    family: 'web',
    label: '/.aws/credentials',
    files: {
      '.aws/credentials':
        '[default]\naws_access_key_id = AKIABENCHNOTASECRET0\naws_secret_access_key = YmVuY2gtbm90LWEtc2VjcmV0LWJlbmNoLW5vdC1h\n',
    },
    vigil: t(/\.aws|aws.credential|credential/i),
    nmap: grep(/\.aws|credentials/),
  },
  {
    n: 11,
    id: 'web-private-key',
    family: 'web',
    label: 'SSH private key /id_rsa in the web root',
    files: { id_rsa: KEY },
    vigil: t(/id_rsa|private.key/i),
    nmap: grep(/id_rsa/),
  },
  {
    n: 12,
    id: 'web-phpinfo',
    family: 'web',
    label: 'phpinfo() page (/phpinfo.php, /info.php)',
    files: {
      'phpinfo.php': '<?php phpinfo();\n',
      'info.php': '<?php phpinfo();\n',
      'index.php': '<?php echo "shop";\n',
    },
    vigil: t(/phpinfo|php.?info/i),
    nmap: grep(/phpinfo|info\.php/i),
  },
  {
    n: 13,
    id: 'web-webdav-put',
    family: 'web',
    label: 'WebDAV PUT/DELETE accepted (nginx dav_methods)',
    files: {},
    conf: 'location / { dav_methods PUT DELETE MKCOL COPY MOVE; create_full_put_path on; dav_access user:rw group:rw all:r; }',
    vigil: t(/\bput\b|webdav|dav\b|write/i),
    nmap: any(script('http-methods', /PUT/), script('http-webdav-scan', /PUT|Allowed/), script('http-put', /success/i)),
  },
  {
    n: 14,
    id: 'web-cors',
    family: 'web',
    label: 'CORS reflects any Origin with credentials',
    files: {},
    conf: 'add_header Access-Control-Allow-Origin $http_origin always; add_header Access-Control-Allow-Credentials true always;',
    vigil: t(/cors|cross-origin|origin/i),
    nmap: any(script('http-cors', /./), grep(/Access-Control-Allow-Origin/)),
  },
  {
    n: 15,
    id: 'web-basic-plain',
    family: 'cleartext',
    label: 'HTTP Basic authentication over plain HTTP',
    files: {},
    conf: 'auth_basic "Shop admin"; auth_basic_user_file htpasswd.users;',
    vigil: t(/basic/i),
    nmap: script('http-auth', /Basic/i),
  },
  {
    n: 16,
    id: 'web-listing',
    family: 'web',
    label: 'directory listing (autoindex)',
    files: { 'files/report-2025.pdf': 'x', 'files/customers.csv': 'id,name\n' },
    conf: 'autoindex on;',
    vigil: t(/listing|autoindex|index of/i),
    nmap: any(script('http-ls', /Volume/), grep(/w\/ listing|Index of/i)),
  },
  {
    n: 17,
    id: 'web-nginx-status',
    family: 'web',
    label: 'nginx stub_status page (/nginx_status, /server-status)',
    files: {},
    conf: 'location = /nginx_status { stub_status; } location = /server-status { stub_status; }',
    vigil: t(/status/i),
    nmap: grep(/nginx_status|server-status/),
  },
  // No Range-amplification site: nginx answers the whole resource (200) when the ranges asked for add up to more
  // than it (ngx_http_range_filter_module), whatever max_ranges says; Apache merges overlapping ranges (since 2.2.20).
  // No Debian web server can be configured into the "Apache Killer" any more; the twins still carry the check.
];

const TWINS = [
  {
    n: 100,
    note: 'hardened nginx + php-fpm app: dot-files 404, security headers, max_ranges 1, short timeouts, server_tokens off',
  },
  { n: 101, note: 'catch-all: every path answers 200 with the shop page' },
  { n: 102, note: 'soft-404: unknown paths answer 200 "page not found"' },
];

export const NGINX: Daemon = {
  kind: 'nginx',
  binaries: ['nginx', 'php-fpm8.2'],
  ports: { tcp: [80], udp: [] },
  wrongCves: (cves) => cves.some((c) => /CVE-2011-3192|CVE-2021-41773|CVE-2021-42013/.test(c)), // Apache httpd's, never nginx's
  weaknesses: SITES.map(
    (s): Weakness => ({
      id: s.id,
      family: s.family,
      label: s.label,
      daemon: 'nginx',
      address: addr(K, s.n),
      port: 80,
      proto: 'tcp',
      vigil: s.vigil,
      nmap: s.nmap,
    }),
  ),
  twins: TWINS.map((x) => ({ address: addr(K, x.n), note: x.note })),
  async start(ctx) {
    const root = ctx.dir('nginx');
    const sock = await startPhpFpm(ctx, root);
    const servers: string[] = [];
    const users = ctx.write(join(root, 'htpasswd.users'), 'admin:$apr1$bench$0uEJq3A1mzK4FqN1vnBfV.\n');
    const site = (n: number) => {
      const dir = ctx.dir(`www-${n}`);
      if (n !== 16) ctx.write(join(dir, 'index.html'), INDEX); // the listing site lists its root
      return dir;
    };
    for (const s of SITES) {
      const dir = site(s.n);
      for (const [f, body] of Object.entries(s.files)) ctx.write(join(dir, f), body);
      if (s.id === 'web-git') {
        spawnSync('git', ['init', '-q', '-b', 'main', dir]);
        spawnSync('git', [
          '-C',
          dir,
          '-c',
          'user.name=bench',
          '-c',
          'user.email=bench@example.test',
          'add',
          'index.html',
        ]);
        spawnSync('git', [
          '-C',
          dir,
          '-c',
          'user.name=bench',
          '-c',
          'user.email=bench@example.test',
          'commit',
          '-qm',
          'shop',
        ]);
        ctx.write(
          join(dir, '.git/config'),
          '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = https://deploy:bench-not-a-secret@git.example.test/shop.git\n',
        );
      }
      const dots = s.conf?.startsWith('location ~ /\\.(')
        ? ''
        : /^web-(git|svn|hg|bzr|env|htpasswd|ds-store|aws)/.test(s.id)
          ? ''
          : noDots;
      servers.push(
        `server { listen ${addr(K, s.n)}:80; root ${dir}; index index.php index.html; ${HEADERS} ${LIMITS} ${dots} ${s.conf ?? ''} ${php(sock)} }`.replace(
          /htpasswd\.users/,
          users,
        ),
      );
    }
    const hardened = site(100);
    ctx.write(join(hardened, 'index.php'), '<?php echo "<!doctype html><title>Shop</title><h1>Shop</h1>";\n');
    ctx.write(join(hardened, '.env'), ENV); // present on disk, denied by the configuration
    ctx.write(join(hardened, 'backup'), 'x');
    servers.push(
      `server { listen ${addr(K, 100)}:80; root ${hardened}; index index.php index.html; ${HEADERS} ${LIMITS} ${noDots} ${php(sock)} }`,
    );
    const catchAll = site(101);
    servers.push(
      `server { listen ${addr(K, 101)}:80; root ${catchAll}; ${HEADERS} ${LIMITS} location / { try_files $uri /index.html; } }`,
    );
    const soft = site(102);
    ctx.write(
      join(soft, 'notfound.html'),
      '<!doctype html><html><head><title>Not found</title></head><body><h1>Sorry, this page does not exist</h1></body></html>\n',
    );
    servers.push(
      `server { listen ${addr(K, 102)}:80; root ${soft}; ${HEADERS} ${LIMITS} error_page 404 =200 /notfound.html; }`,
    );
    await startNginx(ctx, root, servers, [
      ...SITES.map((s) => [addr(K, s.n), 80] as [string, number]),
      ...TWINS.map((x) => [addr(K, x.n), 80] as [string, number]),
    ]);
  },
};
