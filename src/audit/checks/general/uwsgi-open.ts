import { defineCheck } from '../kit.ts';
import { httpRequest } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';
import { UWSGI_NO_SUCH, UWSGI_PORTS, uwsgiAsk } from '../../proto/uwsgi.ts';

/**
 * uWSGI's uwsgi-protocol socket on TCP (`--socket ADDR:PORT`, meant for a
 * front web server on the same host). The protocol has no authentication,
 * and the client sets the request's variables, uWSGI's magic ones
 * included: UWSGI_FILE / UWSGI_SCRIPT / UWSGI_MODULE load and run a file
 * or module on the server (dynamic apps), and on some builds `exec://`
 * paths run commands, so whoever reaches the port runs code as the
 * worker's user, as with FastCGI (fastcgi-open.ts). Proof, without any of
 * those variables: a plain GET over the uwsgi protocol for a path that
 * exists nowhere, answered with the application's HTTP response. A port
 * that answers an ordinary HTTP request is an HTTP server (uWSGI's
 * --http-socket, gunicorn, any web server) and is not reported: an HTTP
 * server answers the binary packet with a 400 of its own.
 */
export default defineCheck({
  id: 'vigil.uwsgi.open',
  shortid: 'UWSGI-OPEN',
  title: 'uWSGI protocol socket open to the network',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The application server's uwsgi-protocol socket answers anyone: the protocol has no authentication and lets the client set uWSGI's own request variables (UWSGI_FILE, UWSGI_MODULE …), which load and run code on the server, so anyone who reaches the port can run code as the application's user, past any login or filter of the front web server.",
  solution:
    'Put the uwsgi socket on a Unix socket (socket = /run/uwsgi/app.sock, chmod-socket = 660) or 127.0.0.1 with the web server on the same host, and firewall the port; serve the network through the web server (or --http-socket) only.',
  references: [
    'https://uwsgi-docs.readthedocs.io/en/latest/Protocol.html',
    'https://uwsgi-docs.readthedocs.io/en/latest/Vars.html',
  ],
  ports: { services: ['uwsgi'], ports: UWSGI_PORTS },
  run: async ({ net, port, service }) => {
    if (service?.http) return null;
    const reply = await uwsgiAsk(net, port);
    if (!reply) return null;
    const status = reply.split('\r\n', 1)[0]!;
    if (/ 400 /.test(`${status} `)) {
      // An HTTP server's own answer to bytes it cannot parse? It answers a real HTTP request too.
      const http = await httpRequest(net, port, false, { timeoutMs: 3000 });
      if (http) return null;
    }
    const body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
    return `A uwsgi-protocol request (modifier1 0, GET ${UWSGI_NO_SUCH}, no variable that loads code) was answered with the application's HTTP response "${shown(status, 60)}"${body ? ` ("${shown(body, 80)}")` : ''}: the socket takes requests and uWSGI's variables from anyone.`;
  },
});
