/**
 * The command lines and configuration files of the small web servers
 * Debian packages besides nginx, Apache and lighttpd (caddy, h2o,
 * mini_httpd, webfsd, BusyBox httpd, python3 -m http.server), each in the
 * foreground on one address and port, serving `root`: shared by the web
 * check tests (web/web-makes.test.ts) and the detection bench's fleet
 * (bench/detection/fleet/web-makes.ts), so both run the same servers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Command {
  cmd: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/** Headers a hardened site sends where its server can (caddy `header`, h2o `header.add`). */
export const SECURITY_HEADERS: [string, string][] = [
  ['X-Frame-Options', 'DENY'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Content-Security-Policy', "default-src 'self'"],
];

export interface CaddySite {
  address: string;
  port: number;
  root: string;
  /** `file_server browse`: listings of directories without an index. */
  browse?: boolean;
  /** Every path that is no file answers /index.html (a single-page app: soft 200). */
  spa?: boolean;
  /** Hardened: the security headers and no Server header. */
  headers?: boolean;
  /** Hardened: these names answered 404 (`hide`), though on disk. */
  hide?: string[];
}

/**
 * caddy run with a Caddyfile of these sites; `admin` is where its admin API
 * listens ('off' for none). Its state (autosave, certificates) goes to
 * `dir`, never to the user's home.
 */
export function caddy(dir: string, admin: string, sites: CaddySite[]): Command {
  const blocks = sites.map((s) =>
    [
      `http://${s.address}:${s.port} {`,
      `  bind ${s.address}`,
      `  root * ${s.root}`,
      ...(s.headers
        ? [
            '  header {',
            ...SECURITY_HEADERS.map(([k, v]) => `    ${k} "${v.replaceAll('"', '\\"')}"`),
            '    -Server',
            '  }',
          ]
        : []),
      ...(s.spa ? ['  try_files {path} /index.html'] : []),
      `  file_server${s.browse ? ' browse' : ''}${s.hide ? ` {\n    hide ${s.hide.join(' ')}\n  }` : ''}`,
      '}',
    ].join('\n'),
  );
  const global = `{\n  admin ${admin}\n  auto_https off\n  storage file_system ${dir}/storage\n}\n`;
  const file = join(dir, 'Caddyfile');
  writeFileSync(file, `${global}\n${blocks.join('\n')}\n`);
  return {
    cmd: 'caddy',
    args: ['run', '--config', file, '--adapter', 'caddyfile'],
    env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir },
  };
}

/** h2o with one host on address:port: listing on or off, Debian's stock /server-status, security headers. */
export function h2o(
  dir: string,
  address: string,
  port: number,
  root: string,
  opts: { listing?: boolean; status?: boolean; headers?: boolean },
): Command {
  const file = join(dir, 'h2o.conf');
  writeFileSync(
    file,
    [
      'listen:',
      `  host: ${address}`,
      `  port: ${port}`,
      ...(opts.headers ? ['server-name: "web"', ...SECURITY_HEADERS.map(([k, v]) => `header.add: "${k}: ${v}"`)] : []),
      'hosts:',
      '  default:',
      '    paths:',
      '      /:',
      `        file.dir: ${root}`,
      `        file.dirlisting: ${opts.listing ? 'ON' : 'OFF'}`,
      ...(opts.status ? ['      /server-status:', '        status: ON'] : []),
      '',
    ].join('\n'),
  );
  return { cmd: 'h2o', args: ['-c', file] };
}

/** mini_httpd in the foreground (-D); it lists a directory without index.html. */
export const miniHttpd = (dir: string, address: string, port: number, root: string): Command => ({
  cmd: 'mini_httpd',
  args: ['-D', '-h', address, '-p', String(port), '-d', root, '-l', join(dir, 'access.log')],
});

/** webfsd in the foreground (-F); it lists directories unless -j, and serves index.html only with -f. */
export const webfsd = (address: string, port: number, root: string, hardened: boolean): Command => ({
  cmd: 'webfsd',
  args: ['-F', '-i', address, '-p', String(port), '-r', root, ...(hardened ? ['-j', '-f', 'index.html'] : [])],
});

/** BusyBox httpd in the foreground; `auth` protects a path with HTTP Basic (its httpd.conf "/path:user:pass"). */
export function busyboxHttpd(
  dir: string,
  address: string,
  port: number,
  root: string,
  auth?: { path: string; user: string; password: string },
): Command {
  const conf = join(dir, 'httpd.conf');
  writeFileSync(conf, auth ? `${auth.path}:${auth.user}:${auth.password}\n` : '');
  return { cmd: 'busybox', args: ['httpd', '-f', '-p', `${address}:${port}`, '-h', root, '-c', conf] };
}

/** python3 -m http.server: lists a directory without index.html. */
export const pythonHttp = (address: string, port: number, root: string): Command => ({
  cmd: '/usr/bin/python3',
  args: ['-m', 'http.server', String(port), '--bind', address, '--directory', root],
});

/** What a careless deployment leaves in a web root, in the files' own formats. */
export const LEFTOVERS: Record<string, string> = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.git/config': '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n',
  '.env': 'APP_ENV=production\nDB_HOST=10.0.0.5\nDB_PASSWORD=bench-not-a-secret\n',
  'config.php.bak': "<?php\n$db_user = 'shop';\n$db_password = 'bench-not-a-secret';\n",
};

/** A site's own home page: no scripts, no forms (a static page). */
export const HOME =
  '<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1><p>Opening hours.</p></body></html>\n';
/** A single-page app's one page. */
export const SPA =
  '<!doctype html><html><head><title>App</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>\n';
