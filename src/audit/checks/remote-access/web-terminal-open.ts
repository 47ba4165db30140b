import { defineCheck } from '../kit.ts';
import { httpRequest, isHttpService, usesTls } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';
import {
  gottyToken,
  lastLine,
  plainScreen,
  screenKind,
  shellinaboxFirstScreen,
  ttydToken,
} from '../../proto/web-terminal.ts';

/**
 * A terminal served to the browser without a login (the shell-in-a-browser
 * family: Shell In A Box, ttyd, GoTTY). Nothing is ever typed: proof is
 * what the server hands any visitor.
 * - Shell In A Box: a session is opened as its page opens one, and the
 *   first screen read. A shell prompt on the last line ("$ ", "# ") is a
 *   shell already running for the visitor: HOLE. A login prompt (LOGIN,
 *   the default as root, or SSH) is a door that still asks for
 *   credentials, as sshd's is, and is not reported; nor is a screen that
 *   is neither (a program such as top: no proof of a shell).
 * - ttyd and GoTTY: the page fetches the credential it must present (ttyd
 *   GET /token, GoTTY GET /auth_token.js); both put HTTP Basic auth in
 *   front of every path when started with -c. That endpoint answered with
 *   an empty credential proves no credential guards the terminal: HOLE,
 *   medium, since their command (a shell, or `login`) is seen only over
 *   the WebSocket, which is not opened.
 * wetty hands out ssh's or login's prompt by design and is not reported.
 */
export default defineCheck({
  id: 'vigil.web.terminal-open',
  shortid: 'WEB-TERMINAL',
  title: 'Web terminal gives a shell without login',
  family: 'Remote Access',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "A terminal is served to the browser without any login: whoever opens the page gets a shell on the server (Shell In A Box's user:group:dir:cmd services, ttyd or GoTTY without -c), with the rights of the account it runs as.",
  solution:
    'Serve only a login in the web terminal (Shell In A Box: the LOGIN or SSH service; ttyd/GoTTY: -c user:password over TLS, or run `login`), put it behind an authenticating reverse proxy, and bind it to 127.0.0.1 (shellinaboxd --localhost-only, ttyd -i lo).',
  references: [
    'https://github.com/shellinabox/shellinabox',
    'https://github.com/tsl0922/ttyd/wiki',
    'https://github.com/yudai/gotty#options',
  ],
  ports: { services: ['shellinabox'], ports: [4200, 7681, 8080], where: isHttpService },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const page = service?.http?.body ?? (await httpRequest(net, port, tls, { timeoutMs: 4000 }))?.body ?? '';
    if (/ShellInABox|shell_in_a_box\.js/.test(page)) {
      const first = await shellinaboxFirstScreen(net, port, tls);
      if (!first || screenKind(first.screen) !== 'shell') return null;
      return `Shell In A Box page at /: a session was opened as the page opens one (POST /? width=80&height=24&rooturl=…, answered with session ${shown(first.session, 30)}) and its first screen, with nothing typed, is a shell prompt: "${shown(lastLine(plainScreen(first.screen)), 80)}".`;
    }
    const ttyd = await ttydToken(net, port, tls);
    if (ttyd === '')
      return {
        detail: `GET /token was answered 200 with ttyd's {"token": ""}: no credential (-c) guards the terminal, and its WebSocket (/ws) starts the configured command for anyone (not opened: the command is unseen).`,
        risk: 'medium',
      };
    const gotty = await gottyToken(net, port, tls);
    if (gotty === '')
      return {
        detail: `GET /auth_token.js was answered 200 with GoTTY's "var gotty_auth_token = ''": no credential (-c) guards the terminal, and its WebSocket (/ws) starts the configured command for anyone (not opened: the command is unseen).`,
        risk: 'medium',
      };
    return null;
  },
});
