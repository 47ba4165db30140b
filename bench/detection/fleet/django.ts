/**
 * A Django project (Debian python3-django), K = 101, in the foreground.
 * Weak: DEBUG = True under Django's development server (runserver) and
 * under gunicorn (the technical 404 page shows the URL map, and errors the
 * settings and source). Twins: DEBUG = False under gunicorn (gunicorn on
 * the network is no finding by itself) and under runserver.
 */
import {
  DEBIAN_PYTHON,
  djangoEnv,
  djangoSite,
  gunicornArgs,
  runserverArgs,
} from '../../../test/helpers/app-servers.ts';
import { addr, none, type Daemon, type Weakness } from './kit.ts';

const K = 101;
const A = (n: number) => addr(K, n);
const PORT = 8000;

const weak = (n: number, server: string): Weakness => ({
  id: `django-debug-${server}`,
  family: 'web',
  label: `Django DEBUG = True (${server})`,
  daemon: 'django',
  address: A(n),
  port: PORT,
  proto: 'tcp',
  vigil: { id: /^vigil\.web\.debugger-exposed$/ },
  nmap: none,
});

export const DJANGO_DEBUG: Daemon = {
  kind: 'django-debug',
  binaries: [DEBIAN_PYTHON, '/usr/lib/python3/dist-packages/django/__init__.py', 'gunicorn'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [weak(1, 'runserver'), weak(2, 'gunicorn')],
  twins: [
    { address: A(100), note: 'DEBUG = False under gunicorn' },
    { address: A(101), note: 'DEBUG = False under runserver' },
  ],
  async start(ctx) {
    for (const [n, debug, server] of [
      [1, true, 'runserver'],
      [2, true, 'gunicorn'],
      [100, false, 'gunicorn'],
      [101, false, 'runserver'],
    ] as const) {
      const dir = djangoSite(ctx.dir(`django-${n}`));
      const env = djangoEnv(dir, debug);
      const child =
        server === 'runserver'
          ? ctx.spawn(`runserver-${A(n)}`, DEBIAN_PYTHON, runserverArgs(A(n), PORT), { env, cwd: dir })
          : ctx.spawn(`gunicorn-${A(n)}`, 'gunicorn', gunicornArgs(dir, A(n), PORT), { env, cwd: dir });
      await ctx.waitTcp(A(n), PORT, child, 30_000);
    }
  },
};
