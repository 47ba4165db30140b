/**
 * A Flask app (Debian python3-flask, `flask run`), K = 90, in the
 * foreground. Weak: debug mode (FLASK_DEBUG=1, what --debug sets) with
 * WERKZEUG_DEBUG_PIN=off (the console runs code for anyone), and debug
 * mode with Werkzeug's default PIN (the console and tracebacks exposed
 * behind a derivable PIN). Twin: debug mode off.
 */
import { DEBIAN_PYTHON, flaskArgs, flaskEnv } from '../../../test/helpers/exec-daemons.ts';
import { addr, none, type Daemon } from './kit.ts';

const K = 90;
const A = (n: number) => addr(K, n);
const PORT = 5000;

export const FLASK_DEBUG: Daemon = {
  kind: 'flask-debug',
  binaries: [DEBIAN_PYTHON, '/usr/lib/python3/dist-packages/flask/__init__.py'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'werkzeug-console-open',
      family: 'web',
      label: 'Flask debug mode, Werkzeug console without a PIN',
      daemon: 'flask',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.web\.debugger-exposed$/ },
      nmap: none,
    },
    {
      id: 'werkzeug-console-pin',
      family: 'web',
      label: 'Flask debug mode, Werkzeug console behind its default PIN',
      daemon: 'flask',
      address: A(2),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.web\.debugger-exposed$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(100), note: 'debug off' }],
  async start(ctx) {
    for (const [n, debug, pin] of [
      [1, true, false],
      [2, true, true],
      [100, false, true],
    ] as const) {
      const dir = ctx.dir(`flask-${n}`);
      const child = ctx.spawn(`flask-${A(n)}`, DEBIAN_PYTHON, flaskArgs(dir, A(n), PORT), {
        env: flaskEnv(dir, debug, pin),
      });
      await ctx.waitTcp(A(n), PORT, child, 30_000);
    }
  },
};
