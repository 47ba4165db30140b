import { defineCheck } from '../kit.ts';
import { fcgiGetValues, fcgiRequest } from '../../proto/fastcgi.ts';
import { shown } from '../../proto/talk.ts';

const NO_SUCH = '/vigil-scanner-no-such-script.php';

/**
 * A FastCGI application server (php-fpm, fcgiwrap, any libfcgi program)
 * listening to the network without a client restriction: FastCGI has no
 * authentication, and the client names the script to run and its
 * environment. php-fpm runs any PHP file on the server and takes
 * PHP_VALUE / PHP_ADMIN_VALUE from the client (auto_prepend_file =
 * php://input runs the request body as PHP); fcgiwrap runs any executable
 * it can reach. Proof, without running anything: FCGI_GET_VALUES answered,
 * else a request for a script that exists nowhere answered with its 404
 * and END_REQUEST. php-fpm with listen.allowed_clients drops the scanner
 * before reading a byte.
 */
export default defineCheck({
  id: 'vigil.fastcgi.open',
  shortid: 'FASTCGI-OPEN',
  title: 'FastCGI server (php-fpm) open to the network',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The FastCGI server answers anyone: FastCGI has no authentication and lets the client choose the script and its settings, so anyone who reaches the port runs code as the pool user (php-fpm: any PHP file, and PHP code of their own through PHP_VALUE auto_prepend_file; fcgiwrap: any program).',
  solution:
    'Listen on a Unix socket or 127.0.0.1 only (php-fpm pool: listen = /run/php/php-fpm.sock), and where the web server is on another host set listen.allowed_clients to its address and firewall the port.',
  references: ['https://www.php.net/manual/en/install.fpm.configuration.php'],
  ports: { services: ['fcgi', 'fastcgi', 'php-fpm'], ports: [9000] },
  run: async ({ net, port }) => {
    const values = await fcgiGetValues(net, port);
    if (values && Object.keys(values).length) {
      const shownValues = Object.entries(values)
        .map(([k, v]) => `${k}=${shown(v, 10)}`)
        .join(', ');
      return `FCGI_GET_VALUES was answered with FCGI_GET_VALUES_RESULT (${shown(shownValues, 120)}), without any client restriction.`;
    }
    const out = await fcgiRequest(net, port, NO_SUCH);
    if (out === null || !/^(Status|Content-type|X-Powered-By):/im.test(out)) return null;
    return `A Responder request for ${NO_SUCH} (a script that exists nowhere) was answered with "${shown(out, 120)}" and FCGI_END_REQUEST.`;
  },
});
