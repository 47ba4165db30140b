import { defineCheck } from '../kit.ts';
import { shown } from '../../proto/talk.ts';
import { parseUwsgiStats, UWSGI_STATS_PORTS, uwsgiStats } from '../../proto/uwsgi.ts';

/**
 * uWSGI's stats server (`--stats ADDR:PORT`) on TCP: it writes its JSON
 * document to whoever connects (uwsgi core/stats.c; no authentication, no
 * request), naming the uWSGI version, the master's pid, uid and working
 * directory, each worker's pid, the sockets and the apps' directories,
 * and each core's request in flight (its CGI variables: paths, query
 * strings, cookies). A NOTE: it reads, it does not run anything. uWSGI's
 * docs put it on 127.0.0.1 or a Unix socket.
 */
export default defineCheck({
  id: 'vigil.uwsgi.stats-open',
  shortid: 'UWSGI-STATS',
  title: 'uWSGI stats server open to the network',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 99,
  description:
    "uWSGI's stats server answers anyone with the application server's inner state: its version, process ids and user, working directory and application paths, its sockets, and the variables of requests in flight (paths, query strings, cookies).",
  solution:
    'Put the stats server on a Unix socket (stats = /run/uwsgi/stats.sock) or 127.0.0.1 and read it locally (uwsgitop), or turn it off.',
  references: ['https://uwsgi-docs.readthedocs.io/en/latest/StatsServer.html'],
  ports: { services: ['uwsgi-stats'], ports: UWSGI_STATS_PORTS },
  run: async ({ net, port }) => {
    const text = await uwsgiStats(net, port);
    const stats = text ? parseUwsgiStats(text) : null;
    if (!stats) return null;
    const facts = [
      `uWSGI ${shown(stats.version, 30)}`,
      ...(stats.pid !== null ? [`master pid ${stats.pid}`] : []),
      ...(stats.uid !== null ? [`uid ${stats.uid}`] : []),
      ...(stats.cwd ? [`cwd ${shown(stats.cwd, 60)}`] : []),
      `${stats.workers} worker${stats.workers === 1 ? '' : 's'}`,
      ...(stats.sockets.length ? [`sockets ${shown(stats.sockets.slice(0, 4).join(' '), 80)}`] : []),
      ...(stats.paths.length ? [`app paths ${shown(stats.paths.slice(0, 4).join(' '), 80)}`] : []),
    ];
    return `Connecting, without sending a byte, was answered with uWSGI's stats document (${text!.length} bytes): ${facts.join(', ')}.`;
  },
});
