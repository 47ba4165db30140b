import { defineCheck } from '../kit.ts';
import { httpRequest, isHttpService, usesTls } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';

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
 */
export default defineCheck({
  id: 'vigil.web.debugger-exposed',
  shortid: 'WEB-DEBUGGER',
  title: 'Web framework debugger exposed (Werkzeug console)',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The application runs with Werkzeug's debugger on (Flask debug mode) and serves it to the network: its console runs any Python code as the application's user once unlocked, and every error page shows source code and local variables.",
  solution:
    'Never run a debug server in production: start the app without --debug / debug=True (FLASK_DEBUG unset) under a WSGI server (gunicorn, uWSGI, mod_wsgi), and keep development servers on 127.0.0.1.',
  references: [
    'https://werkzeug.palletsprojects.com/en/stable/debug/',
    'https://flask.palletsprojects.com/en/stable/debugging/',
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
