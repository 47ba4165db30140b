/**
 * Operations plumbing that nmap's database leaves unnamed or names only for
 * old versions: job queues (beanstalkd, Gearman), Graphite's carbon
 * receivers, Varnish's management CLI, git daemon and svnserve.
 * - Greetings: the Varnish CLI (`200`/`107` framing) and svnserve (`( success
 *   ( 2 2 …`) speak first. nmap's varnish-cli lines match only 2.x-3.0
 *   banners; Varnish 7's was left "unknown".
 * - Probes, each on its usual ports only (the connection is dropped at once
 *   elsewhere): a probe costs a silent port up to 800 ms, and these servers
 *   answer only their own protocol, so running them on every unnamed port
 *   would slow every audit for services rarely moved.
 */
import { okData, parseBeanstalkStats } from '../../proto/jobqueue.ts';
import { readPktLines, gitRequest } from '../../proto/git.ts';
import { int32Done, int32Frame, pickleDatapoints, pickleDict, unpickle } from '../../proto/pickle.ts';
import { parseCliReply } from '../../proto/varnish.ts';
import type { Family } from './family.ts';

export const varnishCli: Family = {
  id: 'varnish-cli',
  async banner(greeting, s) {
    const r = parseCliReply(greeting);
    if (!r || (r.status !== 200 && r.status !== 107)) return false;
    if (r.status === 200 && !/Varnish/i.test(r.body)) return false;
    if (r.status === 107 && !/^[a-z]{32}\n\nAuthentication required\./.test(r.body)) return false;
    Object.assign(s, { name: 'varnish-cli', product: 'Varnish Cache CLI' });
    const v = /varnish-([\w.]+) revision/.exec(r.body);
    if (v) s.version = v[1]!;
    s.extra.auth = r.status === 107 ? 'challenge' : 'none';
    return true;
  },
};

export const svn: Family = {
  id: 'svn',
  async banner(greeting, s) {
    if (!/^\( success \( \d+ \d+ \( [^)]*\) \( [\w -]*\) \) \) /.test(greeting.toString('latin1'))) return false;
    Object.assign(s, { name: 'svn', product: 'Subversion svnserve' });
    return true;
  },
};

const BEANSTALK_PORTS = [11300, 11301];
export const beanstalkd: Family = {
  id: 'beanstalkd',
  ports: BEANSTALK_PORTS,
  only: true,
  async probe(conv, s) {
    const stats = parseBeanstalkStats(await conv.ask('stats\r\n', 1500, okData));
    if (!stats) return false;
    Object.assign(s, { name: 'beanstalkd', product: 'beanstalkd', version: stats.version ?? null });
    return true;
  },
};

const GEARMAN_PORTS = [4730, 7003];
export const gearman: Family = {
  id: 'gearman',
  ports: GEARMAN_PORTS,
  only: true,
  async probe(conv, s) {
    const v = /^OK (\d[\w.+-]*)\r?\n/.exec(
      (await conv.ask('version\n', 1500, (b) => b.includes(10))).toString('latin1'),
    );
    if (!v) return false;
    const status = (await conv.ask('status\n', 1500, (b) => /(^|\n)\.\r?\n$/.test(b.toString('latin1')))).toString(
      'latin1',
    );
    if (!/(^|\n)\.\r?\n$/.test(status)) return false;
    Object.assign(s, { name: 'gearman', product: 'Gearman job server', version: v[1]! });
    return true;
  },
};

const GIT_PORTS = [9418];
export const git: Family = {
  id: 'git',
  ports: GIT_PORTS,
  only: true,
  async probe(conv, s, net) {
    // upload-pack (a read) for "/": an advertisement or an ERR pkt-line, both git daemon's.
    const r = readPktLines(
      await conv.ask(gitRequest('upload-pack', '/', net.address), 1500, (b) => {
        const p = readPktLines(b);
        return !p || p.flushed || p.lines.length > 0;
      }),
    );
    if (!r || (!r.lines.length && !r.flushed)) return false;
    if (r.lines.length && !/^(ERR |[0-9a-f]{40})/.test(r.lines[0]!)) return false;
    conv.send('0000');
    Object.assign(s, { name: 'git', product: 'git daemon' });
    return true;
  },
};

/**
 * Carbon: the cache query port answers a pickled `cache-query`; the pickle
 * receiver takes a frame of an empty list in silence and closes on a length
 * above 1 MiB; the line receiver takes a malformed line in silence and
 * closes on a line above 16 KiB (proto/carbon.ts). Nothing is stored.
 */
/** carbon-cache's ports, carbon-relay's (2013/2014) and carbon-aggregator's (2023/2024), as Debian's carbon.conf sets them. */
const CARBON = { line: [2003, 2013, 2023], pickle: [2004, 2014, 2024], query: [7002] };
export const carbon: Family = {
  id: 'carbon',
  ports: [...CARBON.line, ...CARBON.pickle, ...CARBON.query],
  only: true,
  async probe(conv, s) {
    const port = conv.socket.remotePort ?? 0;
    if (CARBON.query.includes(port)) {
      const r = await conv.ask(
        int32Frame(pickleDict({ type: 'cache-query', metric: 'vigil.detect' })),
        1500,
        int32Done,
      );
      const reply = int32Done(r) ? unpickle(r.subarray(4, 4 + r.readUInt32BE(0))) : null;
      if (!reply || typeof reply !== 'object' || !('datapoints' in reply)) return false;
      Object.assign(s, { name: 'graphite-query', product: 'Graphite carbon-cache' });
      return true;
    }
    const pickle = CARBON.pickle.includes(port);
    if (!pickle && !CARBON.line.includes(port)) return false;
    const quiet = await conv.ask(pickle ? int32Frame(pickleDatapoints([])) : 'vigil\n', 600, () => false);
    if (quiet.length || conv.closed) return false;
    const big = pickle ? Buffer.from([1, 0, 0, 0]) : Buffer.alloc(17_000, 0x78);
    const shut = await conv.ask(big, 2500, () => false);
    if (shut.length || !conv.closed) return false;
    Object.assign(s, { name: pickle ? 'graphite-pickle' : 'graphite', product: 'Graphite carbon' });
    return true;
  },
};
