/**
 * Real Debian daemons for the web, cleartext and TLS check tests (nginx,
 * apache2 with mod_php / mod_dav, php-fpm; the FTP, mail, directory and
 * database ones are in mail-daemons.ts), each on its own loopback address
 * 127.0.62.x (all of 127/8 is on lo already) and a free port, in a
 * temporary directory, stopped when the test file ends.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import { Fence } from '../../src/audit/engine/fence.ts';
import type { HostFacts, Net, Service } from '../../src/audit/engine/types.ts';

const cleanup: (() => unknown)[] = [];
after(async () => {
  for (const c of cleanup.reverse()) await Promise.resolve(c()).catch(() => {});
});

/** Runs at the end of the test file, before the daemons started earlier are stopped. */
export const onCleanup = (fn: () => unknown) => void cleanup.push(fn);

export const ADDR = (n: number) => `127.0.62.${n}`;
export const netFor = (address: string): Net => new Fence([address], [address]).net(address, 5000);

/** Absolute path of the first candidate that exists, else null (the test skips with the reason). */
export const binary = (...paths: string[]) => paths.find((p) => existsSync(p)) ?? null;

export function tempDir(tag: string): string {
  const d = mkdtempSync(join(tmpdir(), `vigil-${tag}-`));
  chmodSync(d, 0o755); // daemons drop to their own users when the tests run as root
  cleanup.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), body);
  }
}

/** One picker for every fixture (server.ts): below the ephemeral range, reserved across the run's files. */
import { freePort } from './ports.ts';

export { freePort };

export const accepts = (addr: string, port: number) =>
  new Promise<boolean>((r) => {
    const s = connect(port, addr);
    s.on('connect', () => (s.destroy(), r(true))).on('error', () => r(false));
  });

/**
 * SIGTERM first: apache's parent stops its prefork children only on a
 * signal it can catch (SIGKILL would orphan them, and their inherited
 * pipes would keep this test process alive). SIGKILL after 5 s.
 */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    const group = (sig: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, sig);
      } catch {
        child.kill(sig);
      }
    };
    group('SIGTERM');
    const timer = setTimeout(() => group('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
}

/**
 * Spawn a foreground daemon and wait (≤ 15 s) until it accepts on addr:port.
 * A port found free may be taken by a test running beside this one before
 * the daemon binds it: then the daemon exits and we try another port.
 */
export async function daemon(
  addr: string,
  start: (port: number) => {
    cmd: string;
    args: string[];
    log?: string;
    env?: NodeJS.ProcessEnv;
    uid?: number;
    gid?: number;
  },
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort(addr);
    const s = start(port);
    let err = '';
    // Own process group: apache's prefork signals its whole group when it stops (unixd_killpg), which must
    // not reach this test.
    const child: ChildProcess = spawn(s.cmd, s.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: s.env ?? process.env,
      uid: s.uid,
      gid: s.gid,
      detached: true,
    });
    child.stdout!.on('data', (d) => (err = (err + d).slice(-3000)));
    child.stderr!.on('data', (d) => (err = (err + d).slice(-3000)));
    cleanup.push(() => stop(child));
    for (let i = 0; i < 300 && child.exitCode === null; i++) {
      if (await accepts(addr, port)) return port;
      await new Promise((r) => setTimeout(r, 50));
    }
    const log = s.log && existsSync(s.log) ? readFileSync(s.log, 'utf8').slice(-2000) : '';
    await stop(child);
    if (attempt === 3) throw new Error(`${s.cmd} did not start (exit ${child.exitCode}): ${err} ${log}`);
  }
}

/** A service record as detection would make it (checks read name, tls, http). */
export function service(port: number, name: string, extra: Partial<Service> = {}): Service {
  return {
    port,
    protocol: 'tcp',
    name,
    product: null,
    version: null,
    banner: null,
    tls: null,
    http: null,
    extra: {},
    ...extra,
  };
}
export const hostOf = (address: string, services: Service[]): HostFacts => ({
  address,
  openPorts: services.map((s) => s.port),
  services,
});

// ---- certificates ----------------------------------------------------------------------------

/** A self-signed RSA certificate for `cn` valid `days` days (openssl req), and optionally DH parameters. */
export function certificate(
  dir: string,
  opts: { cn?: string; days?: number; bits?: number } = {},
): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      `rsa:${opts.bits ?? 2048}`,
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      String(opts.days ?? 365),
      '-subj',
      `/CN=${opts.cn ?? 'vigil.test'}`,
    ],
    { stdio: 'ignore' },
  );
  chmodSync(key, 0o644); // read by daemons that drop privileges
  return { cert, key };
}

/**
 * A 1024-bit PKCS#3 group made once with `openssl dhparam 1024` (public
 * parameters; generating one takes ~9 s on a loaded 2-core machine, and
 * -dsaparam's X9.42 form is not read by every daemon).
 */
const DH1024 = `-----BEGIN DH PARAMETERS-----
MIGHAoGBAPQ5+v96t8p2Rlq2ePhURAUB81QOwTN03/a5CTbPfsFMebthH9bd3S9r
mi0tClpFLXZ5rsNBao3JahFRMfEtZ4sf9AhinGYXiT1HXRult/GjXpwX7jxE+6xX
ur7x4yjXBBgRsXErHEk30n2c9+MaZvvnz31vVvZZdG4i+e/A6PXfAgEC
-----END DH PARAMETERS-----
`;

/**
 * An OpenSSL configuration at SECLEVEL=0 with TLS 1.0 allowed, as older
 * distributions shipped it: Debian 12's own (SECLEVEL=2) makes a daemon
 * such as PostgreSQL refuse a 1024-bit group ("dh key too small").
 */
export function legacyOpenssl(dir: string): NodeJS.ProcessEnv {
  const conf = join(dir, 'openssl-legacy.cnf');
  writeFileSync(
    conf,
    'openssl_conf = default_conf\n[default_conf]\nssl_conf = ssl_sect\n[ssl_sect]\nsystem_default = system_default_sect\n[system_default_sect]\nCipherString = DEFAULT:@SECLEVEL=0\nMinProtocol = TLSv1\n',
  );
  chmodSync(conf, 0o644);
  return { OPENSSL_CONF: conf };
}

/** DH parameters: that 1024-bit group, or RFC 7919 ffdhe2048. */
export function dhParams(dir: string, weak: boolean): string {
  const out = join(dir, weak ? 'dh1024.pem' : 'ffdhe2048.pem');
  if (weak) writeFileSync(out, DH1024);
  else
    execFileSync('openssl', ['genpkey', '-genparam', '-algorithm', 'DH', '-pkeyopt', 'group:ffdhe2048', '-out', out], {
      stdio: 'ignore',
    });
  return out;
}

// ---- nginx -----------------------------------------------------------------------------------

export const NGINX = binary('/usr/sbin/nginx');

/** nginx in the foreground, one process, root `www/` holding `files`; `server` is the server block's body. */
export async function nginx(
  addr: string,
  server: string,
  files: Record<string, string | Buffer> = {},
  listenOpts = '',
): Promise<number> {
  const dir = tempDir('nginx');
  mkdirSync(join(dir, 'tmp'));
  mkdirSync(join(dir, 'www'));
  writeFiles(join(dir, 'www'), files);
  // dav_methods PUT writes as the worker user (nobody when root starts nginx).
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'nobody', join(dir, 'www'), join(dir, 'tmp')]);
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `${k}_temp_path ${dir}/tmp;`).join(' ');
  return daemon(addr, (port) => {
    writeFileSync(
      join(dir, 'nginx.conf'),
      `
master_process off;
error_log ${dir}/error.log;
pid ${dir}/nginx.pid;
events { worker_connections 64; }
http {
  access_log off; ${temps}
  default_type text/plain;
  server { listen ${addr}:${port} ${listenOpts}; root ${dir}/www; ${server.replaceAll('$DIR', dir)} }
}`,
    );
    return {
      cmd: NGINX!,
      args: ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'],
      log: `${dir}/error.log`,
    };
  });
}

// ---- apache2 ---------------------------------------------------------------------------------

export const APACHE = binary('/usr/sbin/apache2');
const MODULES = '/usr/lib/apache2/modules';

/**
 * apache2 in the foreground (prefork, as mod_php wants) with its own
 * ServerRoot; `conf` is appended to a minimal configuration. Children run
 * as www-data when root starts it, so `writable` dirs are given to it.
 */
export async function apache(
  addr: string,
  conf: string,
  files: Record<string, string | Buffer> = {},
  writable: string[] = [],
): Promise<number> {
  const dir = tempDir('apache');
  mkdirSync(join(dir, 'www'));
  mkdirSync(join(dir, 'run'));
  writeFiles(join(dir, 'www'), files);
  for (const w of writable) mkdirSync(join(dir, 'www', w), { recursive: true });
  const root = process.getuid?.() === 0;
  if (root) {
    for (const w of [...writable.map((x) => join(dir, 'www', x)), join(dir, 'run')])
      execFileSync('chown', ['-R', 'www-data:www-data', w]);
  }
  const mods = [
    'mpm_prefork',
    'authz_core',
    'authz_host',
    'authz_user',
    'authn_core',
    'authn_file',
    'auth_basic',
    'dir',
    'mime',
    'status',
    'info',
    'dav',
    'dav_fs',
    'headers',
    'alias',
    'setenvif',
    'autoindex',
  ]
    .map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`)
    .join('\n');
  const php = existsSync(`${MODULES}/libphp8.2.so`)
    ? `LoadModule php_module ${MODULES}/libphp8.2.so\n<FilesMatch "\\.php$">\n SetHandler application/x-httpd-php\n</FilesMatch>`
    : '';
  return daemon(addr, (port) => {
    writeFileSync(
      join(dir, 'httpd.conf'),
      `
ServerRoot ${dir}
ServerName vigil.test
Listen ${addr}:${port}
PidFile ${dir}/run/httpd.pid
Mutex file:${dir}/run
ErrorLog ${dir}/error.log
LogLevel warn
${mods}
${php}
${root ? 'User www-data\nGroup www-data' : ''}
TypesConfig /etc/mime.types
DocumentRoot ${dir}/www
DavLockDB ${dir}/run/davlock
<Directory ${dir}/www>
  Require all granted
  AllowOverride None
</Directory>
${conf.replaceAll('$DIR', dir)}
`,
    );
    return {
      cmd: APACHE!,
      args: ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'],
      log: `${dir}/error.log`,
      env: { ...process.env, APACHE_RUN_DIR: `${dir}/run`, APACHE_LOCK_DIR: `${dir}/run` },
    };
  });
}

export const PHP_FPM = binary('/usr/sbin/php-fpm8.2', '/usr/sbin/php-fpm8.3', '/usr/sbin/php-fpm');

/** php-fpm in the foreground, one static pool on addr:port (FastCGI), `pool` lines appended to the pool. */
export async function phpFpm(addr: string, pool: string[] = []): Promise<number> {
  const dir = tempDir('php-fpm');
  const root = process.getuid?.() === 0;
  return daemon(addr, (port) => {
    writeFileSync(
      join(dir, 'php-fpm.conf'),
      [
        '[global]',
        `pid = ${dir}/fpm.pid`,
        `error_log = ${dir}/fpm.log`,
        'daemonize = no',
        '[www]',
        ...(root ? ['user = www-data', 'group = www-data'] : []),
        `listen = ${addr}:${port}`,
        'pm = static',
        'pm.max_children = 2',
        ...pool,
        '',
      ].join('\n'),
    );
    return {
      cmd: PHP_FPM!,
      args: ['-F', '-y', join(dir, 'php-fpm.conf'), ...(root ? ['-R'] : [])],
      log: `${dir}/fpm.log`,
    };
  });
}
