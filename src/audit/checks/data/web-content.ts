import type { HttpAnswer } from '../../proto/http.ts';

/**
 * The table of web content that should not be public: one family per
 * check, each candidate a path and the signature its body must carry
 * (web-content.ts adds the catch-all guard). Signatures are the files'
 * own formats, quoted from the tools that write them; the report names the
 * path and the kind of file, never a secret from it.
 */
export interface Candidate {
  path: string;
  /** What the file is, for the report. */
  what: string;
  /** The file's signature; 'exists' when it has no format of its own (then its random twin must be missing). */
  sig: ((a: HttpAnswer) => boolean) | 'exists';
}

export interface ContentFamily {
  id: string;
  shortid: string;
  title: string;
  risk: 'high' | 'medium' | 'low';
  type: 'HOLE' | 'NOTE';
  description: string;
  solution: string;
  /** Start of the finding's detail, before the list of paths. */
  lead: string;
  /** Stop at the first hit (the family is proven; spare the server the rest). */
  firstOnly?: boolean;
  candidates: Candidate[];
}

const text = (a: HttpAnswer) => a.body;
/** An HTML page is never one of these files: soft 404s and login pages are HTML. */
const notHtml = (a: HttpAnswer) => !/<html|<!doctype|<body/i.test(a.body.slice(0, 1024));
export const re = (pattern: RegExp) => (a: HttpAnswer) => notHtml(a) && pattern.test(text(a));
const starts = (magic: string) => (a: HttpAnswer) => a.raw.subarray(0, magic.length).toString('latin1') === magic;
export const each = (paths: string[], what: string, sig: Candidate['sig']): Candidate[] =>
  paths.map((path) => ({ path, what, sig }));

/** PHP source served as text: a backup copy the interpreter does not run. */
const phpSource = (a: HttpAnswer) => /<\?php\b/.test(a.body) && !/<html/i.test(a.body.slice(0, 256));
/** Vim swap files start with "b0VIM " followed by the version (vim's memline.c, block 0 id). */
const vimSwap = starts('b0VIM ');

export const CONTENT_FAMILIES: readonly ContentFamily[] = [
  {
    id: 'vigil.http.vcs-exposed',
    shortid: 'HTTP-VCS',
    title: 'Version-control metadata exposed (Subversion, Mercurial, Bazaar, CVS)',
    risk: 'high',
    type: 'HOLE',
    description:
      'The web root holds the working-copy metadata of a version-control system (.svn, .hg, .bzr, CVS): anyone can list the files, often download the source and its history, and find secrets committed to it.',
    solution:
      'Deploy without the version-control metadata (export, not a checkout) or deny /.svn, /.hg, /.bzr and /CVS in the server configuration.',
    lead: 'Version-control metadata is readable',
    firstOnly: false,
    candidates: [
      // Subversion 1.7+ keeps one SQLite database per working copy (wc.db); 1.6 and older an "entries" text
      // file whose first line is the format number (8-10) and 1.7+ writes "12".
      { path: '/.svn/wc.db', what: 'Subversion working-copy database', sig: starts('SQLite format 3\0') },
      {
        path: '/.svn/entries',
        what: 'Subversion entries file',
        sig: re(/^(?:8|9|10|12)\s*\n(?:\s*\n(?:dir|file)\s*\n|\s*$)/),
      },
      // Mercurial's .hg/requires lists repository features, one lowercase word a line.
      {
        path: '/.hg/requires',
        what: 'Mercurial repository',
        sig: re(
          /^(?:revlogv1|store|fncache|dotencode|generaldelta|sparserevlog|share-safe|revlog-compression-zstd)\s*$/m,
        ),
      },
      // Bazaar: .bzr/branch-format is "Bazaar-NG meta directory, format 1".
      { path: '/.bzr/branch-format', what: 'Bazaar branch', sig: re(/^Bazaar-NG meta directory/) },
      { path: '/.bzr/README', what: 'Bazaar control directory', sig: re(/This is a Bazaar control directory/) },
      // CVS/Entries: "/name/revision/timestamp/options/tagdate" or "D/dir////" lines.
      {
        path: '/CVS/Entries',
        what: 'CVS entries file',
        sig: re(/^(?:\/[^/\n]+\/[\d.]+\/|D\/[^/\n]+\/{4}\s*$|D\s*$)/m),
      },
      { path: '/CVS/Root', what: 'CVS root', sig: re(/^(?::(?:pserver|ext|local|gserver|fork|server):\S+|\/\S+)\s*$/) },
    ],
  },
  {
    id: 'vigil.http.backup-files',
    shortid: 'HTTP-BACKUP',
    title: 'Backup or editor copies of server scripts exposed',
    risk: 'medium',
    type: 'NOTE',
    description:
      'Copies left by editors and administrators (index.php~, .bak, .old, vim .swp files, SQL dumps and site archives) are served as plain files: the script source, its database credentials or the data itself can be downloaded.',
    solution:
      'Delete the copies and deny backup extensions (~, .bak, .old, .orig, .save, .swp, .sql, archives) in the server configuration.',
    lead: 'Backup or editor files are readable',
    candidates: [
      ...each(
        [
          '/index.php~',
          '/index.php.bak',
          '/index.php.old',
          '/index.php.orig',
          '/index.php.save',
          '/index.php.swp',
          '/config.php~',
          '/config.php.bak',
          '/config.php.old',
          '/config.php.save',
          '/config.inc.php.bak',
          '/settings.php.bak',
        ],
        'PHP source',
        phpSource,
      ),
      ...each(
        ['/.index.php.swp', '/.config.php.swp', '/.index.html.swp', '/.htaccess.swp', '/.wp-config.php.swp'],
        'vim swap file',
        vimSwap,
      ),
      // Copies of static pages have no format of their own: the copy exists while a random name with the same
      // suffix does not.
      ...each(
        [
          '/index.html~',
          '/index.html.bak',
          '/index.html.old',
          '/index.html.orig',
          '/index.bak',
          '/index.old',
          '/.htaccess.bak',
          '/.htaccess~',
          '/web.config.bak',
          '/config.bak',
          '/config.old',
          '/#index.php#'.replaceAll('#', '%23'),
        ],
        'backup copy',
        'exists',
      ),
      // SQL dumps: mysqldump and pg_dump headers, or plain DDL/DML.
      ...each(
        ['/backup.sql', '/dump.sql', '/db.sql', '/database.sql'],
        'SQL dump',
        re(/^-- (?:MySQL dump|MariaDB dump|PostgreSQL database dump)|^\s*(?:CREATE TABLE|INSERT INTO|DROP TABLE)\b/im),
      ),
      ...each(['/backup.zip', '/site.zip', '/www.zip'], 'ZIP archive', starts('PK\x03\x04')),
      ...each(['/backup.tar.gz', '/site.tar.gz', '/www.tar.gz', '/backup.tgz'], 'gzip archive', starts('\x1f\x8b\x08')),
    ],
  },
  {
    id: 'vigil.http.metadata-files',
    shortid: 'HTTP-OS-METADATA',
    title: 'Operating-system metadata files exposed (.DS_Store, Thumbs.db)',
    risk: 'low',
    type: 'NOTE',
    description:
      "Finder (.DS_Store) or Explorer (Thumbs.db) metadata was copied to the web root: it lists the names of the directory's files, including ones never linked.",
    solution: 'Delete these files and deny them in the server configuration.',
    lead: 'Desktop metadata files are readable',
    candidates: [
      // .DS_Store: 4-byte alignment header 00 00 00 01 then "Bud1" (the Buddy allocator magic).
      { path: '/.DS_Store', what: 'macOS Finder .DS_Store', sig: starts('\0\0\0\x01Bud1') },
      // Thumbs.db is an OLE2 compound file: D0 CF 11 E0 A1 B1 1A E1.
      { path: '/Thumbs.db', what: 'Windows Thumbs.db', sig: starts('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1') },
      // Explorer's folder settings and KDE Dolphin's, both INI files with a fixed section.
      { path: '/desktop.ini', what: 'Windows desktop.ini', sig: re(/^\s*\[\.ShellClassInfo\]/im) },
      { path: '/.directory', what: 'KDE .directory', sig: re(/^\s*\[Desktop Entry\]/m) },
      // AppleDouble resource forks copied from macOS: magic 00 05 16 07.
      { path: '/._index.html', what: 'macOS AppleDouble file', sig: starts('\0\x05\x16\x07') },
      { path: '/._.DS_Store', what: 'macOS AppleDouble file', sig: starts('\0\x05\x16\x07') },
    ],
  },
  {
    id: 'vigil.http.credential-files',
    shortid: 'HTTP-CREDENTIALS',
    title: 'Credential files exposed on the web server',
    risk: 'high',
    type: 'HOLE',
    description:
      'A file holding credentials is downloadable: password hashes (.htpasswd), private keys, cloud or registry tokens (.aws/credentials, .npmrc, .git-credentials), database passwords (a wp-config.php backup, .my.cnf, .pgpass).',
    solution: 'Remove it from the web root, deny dotfiles, and rotate every secret it held.',
    lead: 'Credential files are readable (contents not copied to this report)',
    candidates: [
      // htpasswd(1) formats: apr1-MD5, bcrypt, {SHA}, crypt(3) ($1$/$5$/$6$ or 13-char DES).
      {
        path: '/.htpasswd',
        what: 'Apache password file',
        sig: re(/^[^:\s<>]+:(?:\$apr1\$|\$2[aby]\$|\{SHA\}|\$[156]\$|[./0-9A-Za-z]{13}\s*$)/m),
      },
      ...each(
        [
          '/id_rsa',
          '/id_dsa',
          '/id_ecdsa',
          '/id_ed25519',
          '/.ssh/id_rsa',
          '/.ssh/id_ed25519',
          '/server.key',
          '/private.key',
        ],
        'private key',
        re(/-----BEGIN (?:RSA |DSA |EC |OPENSSH |ENCRYPTED )?PRIVATE KEY-----/),
      ),
      {
        path: '/.aws/credentials',
        what: 'AWS credentials',
        sig: re(/^\s*aws_(?:access_key_id|secret_access_key)\s*=/m),
      },
      { path: '/.npmrc', what: 'npm registry token', sig: re(/(?:_authToken|_auth|_password)\s*=/) },
      // git-credential-store: one "https://user:password@host" per line.
      { path: '/.git-credentials', what: 'git credential store', sig: re(/^https?:\/\/[^:\s/]+:[^@\s]+@/m) },
      ...each(
        [
          '/wp-config.php.bak',
          '/wp-config.php~',
          '/wp-config.php.old',
          '/wp-config.php.save',
          '/wp-config.bak',
          '/wp-config.txt',
        ],
        'WordPress configuration copy',
        (a) => /define\(\s*['"]DB_PASSWORD['"]/.test(a.body),
      ),
      { path: '/.my.cnf', what: 'MySQL client configuration', sig: re(/^\s*password\s*=/m) },
      // .pgpass: hostname:port:database:username:password.
      { path: '/.pgpass', what: 'PostgreSQL password file', sig: re(/^[^:\s]+:(?:\d+|\*):[^:\s]+:[^:\s]+:\S+\s*$/m) },
      // Copies of .env next to it: NAME=value lines with a secret-looking name.
      ...each(
        [
          '/.env.bak',
          '/.env.local',
          '/.env.production',
          '/.env.prod',
          '/.env.backup',
          '/.env.old',
          '/.env.save',
          '/.env~',
        ],
        'environment file copy',
        re(/^[A-Z_][A-Z0-9_]*(?:PASS|PASSWORD|SECRET|TOKEN|KEY)[A-Z0-9_]*\s*=/m),
      ),
      {
        path: '/.htpasswd.bak',
        what: 'Apache password file copy',
        sig: re(/^[^:\s<>]+:(?:\$apr1\$|\$2[aby]\$|\{SHA\}|\$[156]\$)/m),
      },
      // ~/.netrc: "machine host login user password secret".
      { path: '/.netrc', what: 'netrc credentials', sig: re(/\b(?:machine|default)\b[\s\S]*\bpassword\s+\S/) },
      { path: '/.s3cfg', what: 's3cmd credentials', sig: re(/^\s*(?:access_key|secret_key)\s*=/m) },
      { path: '/.pypirc', what: 'PyPI credentials', sig: re(/^\s*password\s*[:=]/m) },
      {
        path: '/.kube/config',
        what: 'Kubernetes credentials',
        sig: re(/^\s*(?:client-key-data|token|password):\s*\S/m),
      },
      {
        path: '/.docker/config.json',
        what: 'Docker registry credentials',
        sig: (a) => /"auths"\s*:/.test(a.body) && /"auth"\s*:\s*"[A-Za-z0-9+/=]{8,}"/.test(a.body),
      },
    ],
  },
  {
    id: 'vigil.http.phpinfo',
    shortid: 'HTTP-PHPINFO',
    title: 'PHP information page (phpinfo()) exposed',
    risk: 'medium',
    type: 'NOTE',
    firstOnly: true,
    description:
      'A page calling phpinfo() is public: it shows the PHP version and modules, file paths, environment variables (often secrets) and request headers including cookies.',
    solution: 'Delete the phpinfo() page from the web root.',
    lead: 'phpinfo() output is served',
    // phpinfo() writes "<title>PHP 8.2.x - phpinfo()</title>" (older: "phpinfo()") and "<h1 class="p">PHP
    // Version X</h1>".
    candidates: each(
      [
        '/phpinfo.php',
        '/info.php',
        '/test.php',
        '/php_info.php',
        '/php-info.php',
        '/phpinfo',
        '/i.php',
        '/pi.php',
        '/pinfo.php',
        '/php.php',
        '/infophp.php',
        '/_phpinfo.php',
        '/phpinfo.php5',
      ],
      'phpinfo()',
      (a) => /<title>[^<]*phpinfo\(\)\s*<\/title>/i.test(a.body) || /<h1 class="p">PHP Version \d/.test(a.body),
    ),
  },
];
