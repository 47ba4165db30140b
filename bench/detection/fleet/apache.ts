/**
 * Debian Apache httpd: the weaknesses that are Apache's own (server-status,
 * TRACE, mod_dav PUT, no request-read timeout) each on its own
 * virtual host. Two processes, because ServerTokens is server-wide: the
 * first says "Apache" only; the second is a patched Debian Apache that
 * shows "Apache/2.4.x (Debian)" (backported fixes: no version HOLE may
 * come of it) and keeps server-status for 127.0.0.2 only (403 to us).
 */
import { join } from 'node:path';
import { addr, grep, script, any, type Ctx, type Daemon, type Weakness } from './kit.ts';
import { INDEX } from './nginx-proc.ts';

const K = 2;
const MOD = '/usr/lib/apache2/modules';
const MODULES = [
  'mpm_event',
  'authz_core',
  'authz_host',
  'authn_core',
  'mime',
  'dir',
  'status',
  'dav',
  'dav_fs',
  'reqtimeout',
  'headers',
  'alias',
];
/** What a hardened virtual host says; the weak ones repeat it and undo one line. */
const HARDENED = [
  'TraceEnable Off',
  'MaxRanges 1',
  'RequestReadTimeout handshake=0 header=5-10,MinRate=500 body=10,MinRate=500',
  'Timeout 10',
  'Header always set X-Frame-Options DENY',
  'Header always set X-Content-Type-Options nosniff',
  `Header always set Content-Security-Policy "default-src 'self'"`,
];

const w = (
  n: number,
  id: string,
  family: Weakness['family'],
  label: string,
  text: RegExp,
  nmap: Weakness['nmap'],
): Weakness => ({
  id,
  family,
  label,
  daemon: 'apache2',
  address: addr(K, n),
  port: 80,
  proto: 'tcp',
  vigil: { text },
  nmap,
});

const WEAK: (Weakness & { conf: string })[] = [
  {
    ...w(
      1,
      'apache-server-status',
      'web',
      'mod_status /server-status open to all',
      /server.?status|status page/i,
      any(script('http-apache-server-status', /./), grep(/server-status/)),
    ),
    conf: '<Location /server-status>\n SetHandler server-status\n Require all granted\n</Location>',
  },
  {
    ...w(
      2,
      'apache-trace',
      'web',
      'TRACE enabled (TraceEnable On)',
      /trace/i,
      any(script('http-trace', /TRACE is enabled/), script('http-methods', /TRACE/)),
    ),
    conf: 'TraceEnable On',
  },
  {
    ...w(
      3,
      'apache-dav-put',
      'web',
      'mod_dav: PUT/DELETE accepted on /',
      /\bput\b|webdav|dav\b|write/i,
      any(script('http-methods', /PUT/), script('http-webdav-scan', /./)),
    ),
    conf: '<Location />\n Dav On\n</Location>',
  },
  {
    ...w(
      4,
      'dos-slow-apache',
      'dos',
      'no request-read timeout (slowloris-style slow headers held for minutes)',
      /slow|slowloris|timeout/i,
      any(script('http-slowloris-check', /VULNERABLE/)),
    ),
    conf: 'RequestReadTimeout handshake=0 header=0 body=0\nTimeout 300',
  },
];

export const APACHE: Daemon = {
  kind: 'apache2',
  binaries: ['apache2'],
  ports: { tcp: [80], udp: [] },
  weaknesses: WEAK.map(({ conf: _conf, ...x }) => x),
  twins: [
    {
      address: addr(K, 100),
      note: 'hardened Apache (ServerTokens Prod, TraceEnable Off, MaxRanges 1, mod_reqtimeout, no DAV, no status)',
    },
    {
      address: addr(K, 101),
      note: 'patched Debian Apache showing "Apache/2.4.x (Debian)", server-status for 127.0.0.2 only',
    },
  ],
  async start(ctx) {
    const vhosts = WEAK.map((x) => vhost(ctx, x.address, x.conf, x.id === 'apache-dav-put'));
    vhosts.push(vhost(ctx, addr(K, 100), '', false));
    await apache(ctx, 'prod', 'Prod', [...WEAK.map((x) => x.address), addr(K, 100)], vhosts);
    const status = '<Location /server-status>\n SetHandler server-status\n Require ip 127.0.0.2\n</Location>';
    await apache(ctx, 'os', 'OS', [addr(K, 101)], [vhost(ctx, addr(K, 101), status, false)]);
  },
};

function vhost(ctx: Ctx, address: string, conf: string, writable: boolean): string {
  const dir = ctx.dir(`www-${address}`);
  ctx.write(join(dir, 'index.html'), INDEX);
  ctx.write(join(dir, 'big.bin'), Buffer.alloc(256 * 1024, 7));
  if (writable) ctx.run('chown', ['-R', 'www-data:www-data', dir]);
  return `<VirtualHost ${address}:80>\n ServerName ${address}\n DocumentRoot ${dir}\n <Directory ${dir}>\n  Require all granted\n  Options None\n  AllowOverride None\n </Directory>\n ${HARDENED.join('\n ')}\n ${conf.replace(/\n/g, '\n ')}\n</VirtualHost>`;
}

function apache(ctx: Ctx, name: string, tokens: string, addresses: string[], vhosts: string[]): Promise<void> {
  const root = ctx.dir(name);
  const extra = [
    'ExtendedStatus On',
    `DavLockDB ${root}/davlock`,
    'StartServers 1',
    'ServerLimit 2',
    'ThreadsPerChild 32',
    'MaxRequestWorkers 64',
  ];
  return startApache(ctx, { name, root, tokens, modules: MODULES, extra, addresses, vhosts });
}

/**
 * Debian's apache2 in the foreground on a server configuration of its own in `root` (nothing of /etc/apache2):
 * the modules named, `extra` server lines, everything denied outside the virtual hosts, which listen on
 * `addresses`:80. Shared by the kinds that plant Apache (this file, web-logins.ts).
 */
export async function startApache(
  ctx: Ctx,
  o: {
    name: string;
    root: string;
    tokens: string;
    modules: string[];
    extra: string[];
    addresses: string[];
    vhosts: string[];
  },
): Promise<void> {
  const { root } = o;
  const conf = ctx.write(
    join(root, 'apache2.conf'),
    `ServerRoot ${root}
DefaultRuntimeDir ${root}
PidFile ${root}/apache2.pid
Mutex file:${root} default
ErrorLog ${root}/error.log
LogLevel warn
${o.modules.map((m) => `LoadModule ${m}_module ${MOD}/mod_${m}.so`).join('\n')}
User www-data
Group www-data
ServerName bench
ServerTokens ${o.tokens}
ServerSignature Off
TypesConfig /etc/mime.types
DirectoryIndex index.html
${o.extra.join('\n')}
<Directory />
 Require all denied
 AllowOverride None
</Directory>
${o.addresses.map((a) => `Listen ${a}:80`).join('\n')}
${o.vhosts.join('\n')}
`,
  );
  ctx.run('chown', ['-R', 'www-data:www-data', root]);
  const child = ctx.spawn(`apache-${o.name}`, '/usr/sbin/apache2', ['-f', conf, '-DFOREGROUND'], {
    env: { ...process.env, APACHE_RUN_DIR: root, APACHE_LOCK_DIR: root, APACHE_LOG_DIR: root },
  });
  for (const a of o.addresses) await ctx.waitTcp(a, 80, child);
}
