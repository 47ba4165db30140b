/**
 * Configurations of the daemons that run code or write files for whoever
 * reaches them (distccd, supervisord, Jupyter, a Flask app in debug mode,
 * aria2, transmission-daemon), shared by their detection tests
 * (src/audit/checks/{general,web}/*.test.ts) and the detection bench
 * (bench/detection/fleet/{distcc,supervisor,jupyter,flask-debug,downloaders}.ts):
 * one place, so that the bench plants what the tests checked. Writes files
 * and returns command lines only; the callers start the daemons their own
 * way, each bound to one loopback address (never 0.0.0.0), with every
 * feature that would reach beyond loopback off.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One picker for every fixture (server.ts): below the ephemeral range, reserved across the run's files. */
import { freePort } from './ports.ts';

export { freePort };

/** Debian's interpreter and its packages (python3-flask, jupyter-notebook), not a pyenv or venv one on PATH. */
export const DEBIAN_PYTHON = '/usr/bin/python3';
export const FLASK_INSTALLED = existsSync('/usr/lib/python3/dist-packages/flask/__init__.py');
export const JUPYTER_NOTEBOOK = existsSync('/usr/bin/jupyter-notebook') ? '/usr/bin/jupyter-notebook' : null;

/** distccd's environment: the system's PATH (a PATH dir it may not read as nobody makes execvp say EACCES). */
export const DISTCCD_ENV: NodeJS.ProcessEnv = { PATH: '/usr/local/bin:/usr/bin:/bin' };

/**
 * distccd in the foreground. `allow`: the networks --allow admits (the twin
 * admits a documentation network only: the scanner is closed at once);
 * `insecure`: --make-me-a-botnet, which turns the compiler whitelist off
 * (distcc before 3.3 had none).
 */
export function distccdArgs(address: string, port: number, allow: string, insecure = false): string[] {
  return [
    '--daemon',
    '--no-detach',
    '--log-stderr',
    '--listen',
    address,
    '--port',
    String(port),
    '--allow',
    allow,
    '--jobs',
    '2',
    ...(insecure ? ['--make-me-a-botnet'] : []),
  ];
}

/** supervisord.conf: the HTTP interface on address:port, with or without credentials, managing one sleeper. */
export function supervisorConf(dir: string, address: string, port: number, auth: boolean): string {
  const conf = join(dir, 'supervisord.conf');
  writeFileSync(
    conf,
    [
      '[supervisord]',
      'nodaemon=true',
      `logfile=${dir}/supervisord.log`,
      `pidfile=${dir}/supervisord.pid`,
      `childlogdir=${dir}`,
      '[inet_http_server]',
      `port=${address}:${port}`,
      ...(auth ? ['username=operator', 'password=vigil-test-Secret-91'] : []),
      '[rpcinterface:supervisor]',
      'supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface',
      '[program:vigil-sleeper]',
      'command=/bin/sleep 3600',
      'autorestart=false',
      '',
    ].join('\n'),
  );
  return conf;
}

/**
 * Jupyter Notebook (Debian's jupyter-notebook) on address:port, with no
 * token and no password (weak) or a token (the twin; what it starts with
 * by default is a random one). Its own HOME and runtime directory.
 */
export function jupyterArgs(dir: string, address: string, port: number, open: boolean): string[] {
  mkdirSync(join(dir, 'notebooks'), { recursive: true });
  return [
    '--no-browser',
    '--allow-root',
    `--ip=${address}`,
    `--port=${port}`,
    '--port-retries=0',
    `--notebook-dir=${join(dir, 'notebooks')}`,
    // An empty token (and no password, the default) is the open configuration.
    `--NotebookApp.token=${open ? '' : 'vigil-test-token-5e1f0c'}`,
  ];
}

/** Jupyter's environment: Debian's PATH, and HOME and its directories in `dir`. */
export const jupyterEnv = (dir: string): NodeJS.ProcessEnv => ({
  PATH: '/usr/bin:/bin',
  HOME: dir,
  JUPYTER_RUNTIME_DIR: join(dir, 'runtime'),
  JUPYTER_CONFIG_DIR: join(dir, 'config'),
  JUPYTER_DATA_DIR: join(dir, 'data'),
  IPYTHONDIR: join(dir, 'ipython'),
});

/**
 * A one-route Flask app (with the usual security headers) run by `flask run` on address:port, without the
 * reloader (one process to stop). Debug mode comes from flaskEnv.
 */
export function flaskArgs(dir: string, address: string, port: number): string[] {
  const app = join(dir, 'vigilapp.py');
  writeFileSync(
    app,
    [
      'from flask import Flask',
      'app = Flask(__name__)',
      '',
      "@app.route('/')",
      'def index():',
      "    return 'vigil test app'",
      '',
      '',
      '# The headers a careful app sets, so that the twin (debug off) has nothing else to report.',
      '@app.after_request',
      'def headers(r):',
      "    r.headers['X-Frame-Options'] = 'DENY'",
      "    r.headers['X-Content-Type-Options'] = 'nosniff'",
      "    r.headers['Content-Security-Policy'] = \"default-src 'self'\"",
      '    return r',
      '',
    ].join('\n'),
  );
  return ['-m', 'flask', '--app', app, 'run', '--host', address, '--port', String(port), '--no-reload'];
}

/**
 * The app's environment: FLASK_DEBUG=1 turns Werkzeug's debugger on (what
 * `--debug` does, read by Flask 2.2 as by 3.x), `pin: false` sets
 * WERKZEUG_DEBUG_PIN=off (the console needs no PIN).
 */
export const flaskEnv = (dir: string, debug: boolean, pin = true): NodeJS.ProcessEnv => ({
  PATH: '/usr/bin:/bin',
  HOME: dir,
  FLASK_DEBUG: debug ? '1' : '0',
  ...(debug && !pin ? { WERKZEUG_DEBUG_PIN: 'off' } : {}),
});

/**
 * A shell behind a password, as a socat SYSTEM address: the first line
 * must be the password, anything else closes the connection (the bind
 * shell's hardened twin).
 */
export const PASSWORD_SHELL = 'SYSTEM:read -r p; [ "$p" = vigil-twin-Secret-91 ] && exec /bin/sh';

/**
 * aria2c with its RPC on the loopback interface (aria2 binds 127.0.0.1 or
 * every interface, nothing in between: callers put a socat on the address
 * they audit), with or without --rpc-secret. No configuration file read, no
 * DHT or peer listener until a download starts (none does).
 */
export function aria2Args(dir: string, port: number, secret: boolean): string[] {
  return [
    '--no-conf',
    '--enable-rpc',
    '--rpc-listen-all=false',
    `--rpc-listen-port=${port}`,
    '--disable-ipv6',
    `--dir=${dir}`,
    '--quiet',
    ...(secret ? ['--rpc-secret=vigil-test-Secret-91'] : []),
  ];
}

/**
 * settings.json for transmission-daemon -f -g DIR: RPC on address:port;
 * `rpc`: 'open' (no authentication, whitelist off), 'auth' (user and
 * password: 401) or 'whitelist' (127.0.0.2 only: 403 to anyone else, the
 * scanner included, whose connections to 127/8 come from 127.0.0.1).
 * Peers, DHT, LPD, PEX, uTP and port mapping off, the peer listener on the
 * same address: nothing leaves loopback.
 */
export function transmissionSettings(
  dir: string,
  address: string,
  port: number,
  peerPort: number,
  rpc: 'open' | 'auth' | 'whitelist',
): void {
  writeFileSync(
    join(dir, 'settings.json'),
    JSON.stringify(
      {
        'bind-address-ipv4': address,
        'bind-address-ipv6': '::1',
        'peer-port': peerPort,
        'peer-port-random-on-start': false,
        'dht-enabled': false,
        'lpd-enabled': false,
        'pex-enabled': false,
        'utp-enabled': false,
        'port-forwarding-enabled': false,
        'blocklist-enabled': false,
        'download-dir': join(dir, 'downloads'),
        'incomplete-dir-enabled': false,
        'rpc-enabled': true,
        'rpc-bind-address': address,
        'rpc-port': port,
        'rpc-authentication-required': rpc === 'auth',
        'rpc-username': rpc === 'auth' ? 'operator' : '',
        'rpc-password': rpc === 'auth' ? 'vigil-test-Secret-91' : '',
        'rpc-whitelist-enabled': rpc === 'whitelist',
        'rpc-whitelist': '127.0.0.2',
        'rpc-host-whitelist-enabled': false,
        'message-level': 1,
      },
      null,
      2,
    ),
  );
}

/**
 * A JVM doing nothing, its JDWP agent listening on address:port (no
 * suspension): Java 11+ runs the one-file source without a javac step.
 */
export function jdwpJvmArgs(dir: string, address: string, port: number): string[] {
  const src = join(dir, 'Idle.java');
  writeFileSync(
    src,
    'public class Idle { public static void main(String[] a) throws Exception { Thread.sleep(Long.MAX_VALUE); } }\n',
  );
  return [
    `-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=${address}:${port}`,
    '-Xshare:auto',
    '-XX:TieredStopAtLevel=1',
    src,
  ];
}

/** Node.js idling with its inspector on address:port. */
export const nodeInspectorArgs = (address: string, port: number): string[] => [
  `--inspect=${address}:${port}`,
  '-e',
  'setInterval(() => {}, 1 << 30)',
];
