/**
 * Application servers and web terminals from Debian for the detection
 * tests and the bench fleet: a tiny Django project (python3-django) run by
 * `runserver`, gunicorn or uWSGI (uwsgi-plugin-python3), and Shell In A
 * Box (shellinabox). Only arguments and files here; the tests start them
 * with daemons-kit and the fleet with its context.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEBIAN_PYTHON } from './exec-daemons.ts';

export { DEBIAN_PYTHON };
export const DJANGO_INSTALLED = existsSync('/usr/lib/python3/dist-packages/django/__init__.py');
export const GUNICORN = existsSync('/usr/bin/gunicorn') ? '/usr/bin/gunicorn' : null;
export const UWSGI = existsSync('/usr/bin/uwsgi') ? '/usr/bin/uwsgi' : null;
export const UWSGI_PYTHON3 = existsSync('/usr/lib/uwsgi/plugins/python3_plugin.so');
export const SHELLINABOXD = existsSync('/usr/bin/shellinaboxd') ? '/usr/bin/shellinaboxd' : null;

/**
 * A Django project in `dir` (package vigilsite: two URL patterns, no
 * database, no apps): DEBUG comes from VIGIL_DJANGO_DEBUG (djangoEnv), so
 * one project serves the weak site and its twin.
 */
export function djangoSite(dir: string): string {
  const pkg = join(dir, 'vigilsite');
  mkdirSync(pkg, { recursive: true });
  const files: Record<string, string> = {
    '__init__.py': '',
    'settings.py': [
      'import os',
      "SECRET_KEY = 'vigil-test-only-not-a-secret'",
      "DEBUG = os.environ.get('VIGIL_DJANGO_DEBUG') == '1'",
      "ALLOWED_HOSTS = ['*']",
      "ROOT_URLCONF = 'vigilsite.urls'",
      'INSTALLED_APPS = []',
      'MIDDLEWARE = []',
      'DATABASES = {}',
      'USE_TZ = True',
      '',
    ].join('\n'),
    'urls.py': [
      'from django.http import HttpResponse',
      'from django.urls import path',
      'def home(request):',
      "    return HttpResponse('Vigil test site\\n', content_type='text/plain')",
      "urlpatterns = [path('', home), path('accounts/', home)]",
      '',
    ].join('\n'),
    'wsgi.py': [
      'import os',
      "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'vigilsite.settings')",
      'from django.core.wsgi import get_wsgi_application',
      'application = get_wsgi_application()',
      '',
    ].join('\n'),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(pkg, name), text);
  return dir;
}

export const djangoEnv = (dir: string, debug: boolean): NodeJS.ProcessEnv => ({
  PATH: '/usr/local/bin:/usr/bin:/bin',
  PYTHONPATH: dir,
  DJANGO_SETTINGS_MODULE: 'vigilsite.settings',
  VIGIL_DJANGO_DEBUG: debug ? '1' : '0',
  PYTHONDONTWRITEBYTECODE: '1',
});

/** Django's development server (what `manage.py runserver` runs), one process, no autoreloader. */
export const runserverArgs = (address: string, port: number): string[] => [
  '-m',
  'django',
  'runserver',
  '--noreload',
  `${address}:${port}`,
];

/** gunicorn serving the project's WSGI app, one worker. */
export const gunicornArgs = (dir: string, address: string, port: number): string[] => [
  '--bind',
  `${address}:${port}`,
  '--workers',
  '1',
  '--chdir',
  dir,
  'vigilsite.wsgi:application',
];

/**
 * uWSGI (Debian's, python3 plugin) serving a one-line WSGI app in the
 * foreground: `socket` is the uwsgi-protocol listener (ADDR:PORT, or a
 * path for a Unix socket), `http` an --http-socket, `stats` the stats
 * server (ADDR:PORT or a path).
 */
export function uwsgiArgs(dir: string, on: { socket?: string; http?: string; stats?: string }): string[] {
  const app = join(dir, 'app.py');
  writeFileSync(
    app,
    [
      'def application(env, start_response):',
      "    start_response('404 Not Found', [('Content-Type', 'text/plain')])",
      "    return [b'Vigil test app: not here\\n']",
      '',
    ].join('\n'),
  );
  return [
    '--plugin',
    'python3',
    ...(on.socket ? ['--socket', on.socket] : []),
    ...(on.http ? ['--http-socket', on.http] : []),
    ...(on.stats ? ['--stats', on.stats] : []),
    '--wsgi-file',
    app,
    '--master',
    '--processes',
    '1',
    '--die-on-term',
    '--need-app',
    '--disable-logging',
  ];
}

/**
 * shellinaboxd in the foreground on a Unix socket (it binds 0.0.0.0 or,
 * with --localhost-only, 127.0.0.1 only: no address of our choosing, so a
 * socat relay puts it on its loopback address; the relay passes bytes, TLS
 * included). `service` is its -s argument; `tls` false is -t. The
 * certificate directory must be writable by nobody, to whom it drops
 * before making its self-signed certificate.
 */
export function shellinaboxArgs(dir: string, socket: string, service: string, tls: boolean): string[] {
  const certs = join(dir, 'certs');
  mkdirSync(certs, { recursive: true });
  chmodSync(dir, 0o755);
  chmodSync(certs, 0o777);
  return [
    `--unixdomain-only=${socket}:nobody:nogroup:666`,
    '--cert',
    certs,
    '--no-beep',
    '--disable-ssl-menu',
    '-s',
    service,
    ...(tls ? [] : ['-t']),
  ];
}

/** The shell service of the weak configuration: /bin/sh as nobody, no login. */
export const SHELL_SERVICE = '/:nobody:nogroup:/:/bin/sh';
/** The default as root: /bin/login's prompt. */
export const LOGIN_SERVICE = '/:LOGIN';

/** socat's arguments relaying address:port to a Unix socket. */
export const relayArgs = (address: string, port: number, socket: string): string[] => [
  `TCP-LISTEN:${port},bind=${address},fork,reuseaddr`,
  `UNIX-CONNECT:${socket}`,
];
