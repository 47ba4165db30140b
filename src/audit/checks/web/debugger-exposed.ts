import { defineCheck } from '../kit.ts';
import { httpRequest, isHttpService, usesTls } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';
import type { Found } from '../kit.ts';
import type { Net } from '../../engine/types.ts';
import { DEBUG_PAGES } from '../data/debug-pages.ts';

const NO_SUCH = '/vigil-scanner-no-such-page';

/**
 * The frameworks' debug pages (data/debug-pages.ts): one GET for a path that exists nowhere, then each
 * framework's own debug route. The first page whose markers all match is the finding; a plain 404 is not.
 */
async function debugPage(net: Net, port: number, tls: boolean, via: string): Promise<Found | null> {
  const answers = new Map<string, { status: number; text: string } | null>();
  for (const page of DEBUG_PAGES) {
    const target = page.target ?? NO_SUCH;
    if (!answers.has(target)) {
      const a = await httpRequest(net, port, tls, { target, timeoutMs: 5000, maxBytes: 65536 });
      const head = a ? Object.entries(a.headers).map(([k, v]) => `${k}: ${v}`) : [];
      answers.set(target, a && { status: a.status, text: `${head.join('\n')}\n\n${a.raw.toString('utf8')}` });
    }
    const a = answers.get(target);
    if (!a || !page.markers.every((m) => m.test(a.text))) continue;
    const quote = page.quote(a.text);
    return {
      detail: `GET ${target} was answered ${a.status} with ${page.product}'s debug page${quote ? ` ("${shown(quote, 160)}")` : ''}${via}: it shows anyone ${page.exposes}.`,
      ...(page.risk === 'high' ? {} : { risk: page.risk }),
    };
  }
  return null;
}

/**
 * Werkzeug's interactive debugger (Flask's `--debug` / `debug=True`, any
 * WSGI app wrapped in DebuggedApplication) served to the network. Its
 * middleware answers before the application: GET /console renders the
 * interactive Python console (when evaluation is on, the default) and
 * `?__debugger__=yes&cmd=resource&f=debugger.js` its script. The console
 * page states `EVALEX_TRUSTED = true` when no PIN guards it
 * (WERKZEUG_DEBUG_PIN=off: check_pin_trust is true without a PIN) and
 * false when the PIN must be entered first. Nothing is ever sent to the
 * console: only those two GETs. Werkzeug 3.0.3 and later answer the
 * console only to trusted hosts (localhost and 127.0.0.1 by default, from
 * the Host header: a defence against DNS rebinding, not a login), so the
 * console is asked for with `Host: localhost`, as any client can.
 *
 * Decision (docs/audits.md): no PIN: HOLE, high (anyone runs Python as the
 * app's user). PIN on: HOLE, medium: the PIN is derived from facts an
 * attacker can often read (user name, app path, MAC address, machine-id;
 * werkzeug/debug/__init__.py get_pin_and_cookie_name), so a file-read flaw
 * in the app turns into code execution, and tracebacks show source and
 * local variables to anyone; guessing is cut off after 10 wrong PINs.
 * Evaluation off (only the script answered): NOTE, low: tracebacks still
 * show source code and variables.
 * Other frameworks' debug modes (data/debug-pages.ts): the page a path
 * that exists nowhere gets, with the framework's own debug-template text
 * quoted as proof: HOLE, medium (the URL map, source paths, settings);
 * high where the debug mode hands out more (Symfony's profiler: every
 * request and the environment; Laravel's Ignition routes: CVE-2021-3129).
 */
export default defineCheck({
  id: 'vigil.web.debugger-exposed',
  shortid: 'WEB-DEBUGGER',
  title: 'Web framework debugger or debug mode exposed (Werkzeug, Django, Rails, Symfony, Laravel …)',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The application runs in its framework's debug mode and serves it to the network: Werkzeug's debugger console (Flask debug mode) runs any Python code as the application's user once unlocked, and the debug pages of Django, Rails, Symfony, Laravel and the rest show the URL map, source code, settings and local variables to anyone.",
  solution:
    'Never run a debug server or debug mode in production: start the app without --debug / debug=True (FLASK_DEBUG unset; Django DEBUG = False; Rails production; Symfony APP_ENV=prod; Laravel APP_DEBUG=false) under a production server (gunicorn, uWSGI, mod_wsgi, Puma), and keep development servers on 127.0.0.1.',
  references: [
    'https://werkzeug.palletsprojects.com/en/stable/debug/',
    'https://flask.palletsprojects.com/en/stable/debugging/',
    'https://docs.djangoproject.com/en/stable/ref/settings/#debug',
    'https://nvd.nist.gov/vuln/detail/CVE-2021-3129',
  ],
  ports: { where: isHttpService },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const server = service?.http?.headers['server'];
    const via = server ? ` (Server: ${shown(server, 40)})` : '';
    const consolePage = await httpRequest(net, port, tls, { target: '/console', host: 'localhost', timeoutMs: 5000 });
    const page = consolePage?.status === 200 ? consolePage.body : '';
    const evalex = /Werkzeug/i.test(page) && /CONSOLE_MODE\s*=\s*true/.test(page) && /EVALEX\s*=\s*true/.test(page);
    if (evalex) {
      const open = /EVALEX_TRUSTED\s*=\s*true/.test(page);
      return {
        detail: `GET /console (Host: localhost) was answered 200 with Werkzeug's interactive console ("EVALEX = true", "EVALEX_TRUSTED = ${open}")${via}: ${open ? 'no PIN guards it, so anyone can run Python code on the server' : 'a PIN guards it (derivable from host facts; tracebacks stay readable)'}.`,
        ...(open ? {} : { risk: 'medium' as const }),
      };
    }
    const debug = await debugPage(net, port, tls, via);
    if (debug) return debug;
    // Evaluation off is rare and only a NOTE: asked only where the server names itself Werkzeug.
    if (!/werkzeug/i.test(server ?? '')) return null;
    const target = '/?__debugger__=yes&cmd=resource&f=debugger.js';
    const js = await httpRequest(net, port, tls, { target, timeoutMs: 5000 });
    if (js?.status !== 200 || !/__debugger__/.test(js.body) || !/javascript/i.test(js.headers['content-type'] ?? ''))
      return null;
    return {
      detail: `GET ${target} was answered 200 with the debugger's script (${js.raw.length} bytes)${via}, and GET /console was not the console: the debugger is on without evaluation; error pages show source code and local variables.`,
      risk: 'low',
      type: 'NOTE',
    };
  },
});
