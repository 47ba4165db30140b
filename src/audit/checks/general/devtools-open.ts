import { defineCheck } from '../kit.ts';
import { isHttpService, usesTls } from '../../proto/http.ts';
import { asRecord, getJson } from '../../proto/http-json.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A Chrome DevTools Protocol endpoint open to the network: Node.js started
 * with --inspect=0.0.0.0 (the V8 inspector), Chrome, Chromium or an
 * Electron app with --remote-debugging-port on an outside address, headless
 * browsers of test and scraping farms. The protocol has no authentication:
 * a client evaluates any JavaScript in the process (Node: with its
 * require('child_process')), or drives the browser (its cookies, its
 * file:// pages). Proof: GET /json/version answered with the protocol
 * version and GET /json/list with the debuggable targets (their
 * webSocketDebuggerUrl); the websocket is never opened.
 */
export default defineCheck({
  id: 'vigil.devtools.open',
  shortid: 'DEVTOOLS-OPEN',
  title: 'Debugger protocol open to the network (Node.js inspector, Chrome DevTools)',
  family: 'General',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The DevTools protocol endpoint answers anyone: the protocol has no authentication, so anyone who reaches the port runs any JavaScript in the process (a Node.js inspector: any command as its user) or takes over the browser (its sessions, cookies and local files).',
  solution:
    'Never start Node.js with --inspect on an outside address in production (--inspect binds 127.0.0.1 by default; keep it so), start browsers with --remote-debugging-port only on 127.0.0.1 (or --remote-debugging-pipe), and reach a debugger through an SSH tunnel.',
  references: [
    'https://nodejs.org/en/learn/getting-started/debugging#security-implications',
    'https://chromedevtools.github.io/devtools-protocol/',
  ],
  ports: { services: ['devtools'], ports: [9222, 9229], where: isHttpService },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const version = asRecord(await getJson(net, port, tls, '/json/version'));
    if (!version) return null;
    const protocol = version['Protocol-Version'];
    const browser = version.Browser;
    if (typeof protocol !== 'string' || typeof browser !== 'string') return null;
    const list = await getJson(net, port, tls, '/json/list');
    const targets = Array.isArray(list)
      ? list.map(asRecord).filter((t) => typeof t?.webSocketDebuggerUrl === 'string')
      : [];
    const kinds = [...new Set(targets.map((t) => String(t?.type ?? 'target')))];
    return `GET /json/version was answered with Browser "${shown(browser, 40)}" and Protocol-Version "${shown(protocol, 10)}"${targets.length ? `, GET /json/list with ${targets.length} debuggable target${targets.length === 1 ? '' : 's'} (${shown(kinds.join(', '), 40)}) and their webSocketDebuggerUrl` : ''}, without credentials.`;
  },
});
