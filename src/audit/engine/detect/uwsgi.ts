/**
 * uWSGI's two TCP faces. The uwsgi protocol socket (`--socket ADDR:PORT`)
 * is client-first and binary: an HTTP request (its bytes read as a packet
 * header) is closed at once without a byte, so every text probe misses it.
 * The probe sends a uwsgi packet (GET of a path that exists nowhere, no
 * variable that loads code: proto/uwsgi.ts) and names the port when the
 * application's HTTP response comes back. An HTTP server answers the
 * binary packet with its own 400, which is not taken (an application
 * answering 400 through uwsgi stays unnamed: a miss, never a false name).
 * Tried first on uWSGI's usual port only, and after the other families
 * elsewhere. The stats server (`--stats`) writes its JSON document
 * unasked: a greeting.
 */
import { httpStatusLine, parseUwsgiStats, UWSGI_PORTS, uwsgiRequest } from '../../proto/uwsgi.ts';
import type { Family } from './family.ts';

export const uwsgi: Family = {
  id: 'uwsgi',
  ports: UWSGI_PORTS,
  async probe(conv, s, net) {
    const r = await conv.ask(uwsgiRequest('/vigil-scanner-no-such-page', net.address, s.port), 3000, (b) =>
      b.includes('\r\n\r\n'),
    );
    const status = httpStatusLine(r);
    if (!status || / 400 /.test(`${status} `)) return false;
    Object.assign(s, { name: 'uwsgi', product: 'uWSGI', version: null });
    s.extra.uwsgiStatus = status;
    return true;
  },
};

export const uwsgiStats: Family = {
  id: 'uwsgi-stats',
  async banner(greeting, s, conv) {
    if (!/^\{\s*"version":"/.test(greeting.subarray(0, 40).toString('latin1'))) return false;
    // The document arrives in pieces on a busy server: read on until the server closes (it always does).
    const all = await conv.read(2000, () => false);
    const stats = parseUwsgiStats(all.toString('utf8'));
    if (!stats) return false;
    Object.assign(s, { name: 'uwsgi-stats', product: 'uWSGI stats server', version: stats.version });
    return true;
  },
};
