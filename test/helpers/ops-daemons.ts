/**
 * Configurations of the operations daemons the detection tests and the
 * detection bench both start (src/audit/checks/general/{carbon,varnish,
 * registry,vcs}.test.ts, bench/detection/fleet/{carbon,varnish,registry,
 * vcs}.ts): one place, so that the bench plants what the tests checked.
 * Writes files only; the callers start the daemons their own way.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** carbon.conf (and storage-schemas.conf beside it) for carbon-cache with its three TCP listeners on `bind`. */
export function carbonConf(dir: string, bind: string, ports: { line: number; pickle: number; query: number }): string {
  writeFileSync(join(dir, 'storage-schemas.conf'), '[default]\npattern = .*\nretentions = 60s:1d\n');
  const conf = join(dir, 'carbon.conf');
  writeFileSync(
    conf,
    [
      '[cache]',
      `STORAGE_DIR = ${dir}/storage/`,
      `LOCAL_DATA_DIR = ${dir}/storage/whisper/`,
      `WHITELISTS_DIR = ${dir}/storage/lists/`,
      `LOG_DIR = ${dir}/log/`,
      `PID_DIR = ${dir}/`,
      'ENABLE_LOGROTATION = False',
      'USER =',
      'MAX_CACHE_SIZE = inf',
      'MAX_UPDATES_PER_SECOND = 500',
      'MAX_CREATES_PER_MINUTE = 50',
      `LINE_RECEIVER_INTERFACE = ${bind}`,
      `LINE_RECEIVER_PORT = ${ports.line}`,
      `PICKLE_RECEIVER_INTERFACE = ${bind}`,
      `PICKLE_RECEIVER_PORT = ${ports.pickle}`,
      'ENABLE_UDP_LISTENER = False',
      `CACHE_QUERY_INTERFACE = ${bind}`,
      `CACHE_QUERY_PORT = ${ports.query}`,
      '',
    ].join('\n'),
  );
  return conf;
}

/** carbon-cache's arguments: in the foreground, with that configuration. */
export const carbonArgs = (conf: string) => [`--config=${conf}`, '--nodaemon', 'start'];

/**
 * varnishd's arguments: in the foreground (-F), no jail (-j none: the caller's user), the CLI on -T with
 * `-S none` (varnishd makes a secret of its own without -S) or a secret file, a backend nothing answers on.
 */
export function varnishArgs(dir: string, address: string, ports: { http: number; cli: number }, secret: boolean) {
  const secretFile = join(dir, 'secret');
  writeFileSync(secretFile, 'vigil-test-not-a-secret\n', { mode: 0o600 });
  return [
    '-F',
    '-j',
    'none',
    '-n',
    join(dir, 'work'),
    '-a',
    `${address}:${ports.http}`,
    '-T',
    `${address}:${ports.cli}`,
    '-S',
    secret ? secretFile : 'none',
    '-b',
    '127.0.0.1:9',
  ];
}

/**
 * A docker-registry config.yml in `dir` listening on address:port; storage under dir/data with a repository
 * `app` laid out (a _layers directory is what its catalog walks for), and htpasswd auth when `auth`.
 */
export function registryConf(
  dir: string,
  address: string,
  port: number,
  auth: boolean,
): { conf: string; root: string } {
  const root = join(dir, 'data');
  mkdirSync(join(root, 'docker/registry/v2/repositories/app/_layers'), { recursive: true });
  const htpasswd = join(dir, 'htpasswd');
  if (auth) writeFileSync(htpasswd, execFileSync('htpasswd', ['-nbB', 'pusher', 'not-a-real-password']));
  const conf = join(dir, 'config.yml');
  writeFileSync(
    conf,
    [
      'version: 0.1',
      'log:',
      '  level: error',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${root}`,
      'http:',
      `  addr: ${address}:${port}`,
      ...(auth ? ['auth:', '  htpasswd:', '    realm: vigil-test', `    path: ${htpasswd}`] : []),
      '',
    ].join('\n'),
  );
  return { conf, root };
}

/** A bare repository dir/project.git with one commit (made in dir/work); its head. */
export function gitProject(git: string, dir: string): string {
  const work = join(dir, 'work');
  const run = (cwd: string, ...args: string[]) =>
    execFileSync(git, ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
      encoding: 'utf8',
    });
  mkdirSync(work, { recursive: true });
  run(work, 'init', '-q', '-b', 'main');
  writeFileSync(join(work, 'README'), 'vigil test\n');
  run(work, 'add', 'README');
  run(work, 'commit', '-q', '-m', 'first');
  run(dir, 'clone', '-q', '--bare', work, 'project.git');
  return run(join(dir, 'project.git'), 'rev-parse', 'main').trim();
}

/** git daemon's arguments over `base`: --export-all, and receive-pack when `push`. */
export const gitDaemonArgs = (address: string, port: number, base: string, push: boolean) => [
  'daemon',
  '--reuseaddr',
  `--listen=${address}`,
  `--port=${port}`,
  `--base-path=${base}`,
  '--export-all',
  ...(push ? ['--enable=receive-pack'] : []),
  base,
];

/**
 * ROOT/repo made by svnadmin, for `svnserve -r ROOT` (so that "/" is no repository): anon-access = write,
 * or read with committers in a password-db.
 */
export function svnRepo(svnadmin: string, root: string, anon: 'write' | 'read'): string {
  const repo = join(root, 'repo');
  execFileSync(svnadmin, ['create', repo]);
  writeFileSync(
    join(repo, 'conf', 'svnserve.conf'),
    anon === 'write'
      ? '[general]\nanon-access = write\n'
      : '[general]\nanon-access = read\nauth-access = write\npassword-db = passwd\n',
  );
  writeFileSync(join(repo, 'conf', 'passwd'), '[users]\ncommitter = not-a-real-password\n');
  return repo;
}

export const svnserveArgs = (address: string, port: number, root: string) => [
  '-d',
  '--foreground',
  '--listen-host',
  address,
  '--listen-port',
  String(port),
  '-r',
  root,
];
