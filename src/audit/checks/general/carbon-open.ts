import { defineCheck } from '../kit.ts';
import { carbonCacheQuery, pickleReceiverFraming } from '../../proto/carbon.ts';

/**
 * Graphite's carbon receivers and cache query port open to the network.
 * Carbon has no authentication on any of them, so a receiver that speaks
 * its protocol to the scanner takes metrics from anyone. Proven by
 * protocol only, nothing stored:
 * - the cache query port (7002) answers a pickled `cache-query`;
 * - the pickle receiver (2004) takes a frame of an empty list in silence
 *   and closes on a length above its 1 MiB limit (proto/carbon.ts). It
 *   unpickles whatever it is sent: carbon limits that to plain data with
 *   its SafeUnpickler unless USE_INSECURE_UNPICKLER is set, and whether it
 *   is cannot be told without sending a malicious pickle, which a scanner
 *   never does: the finding says so, and stays medium.
 * The plaintext receiver (2003) never answers anything: only a write read
 * back proves it (vigil.carbon.write, intrusive).
 */
export default defineCheck({
  id: 'vigil.carbon.open',
  shortid: 'CARBON-OPEN',
  title: 'Graphite carbon accepts metrics and queries from anyone',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 95,
  description:
    "Graphite's carbon answered the scanner on a port that has no authentication: anyone who reaches its receivers can write datapoints under any metric name (falsify the graphs and alerts built on them, or fill the disk with new whisper files), anyone who reaches the cache query port can read recent values, and the pickle receiver unpickles what it is sent (code execution when USE_INSECURE_UNPICKLER is on).",
  solution:
    'Bind the receivers and the cache query port to the loopback or a private interface in carbon.conf (LINE_RECEIVER_INTERFACE, PICKLE_RECEIVER_INTERFACE, CACHE_QUERY_INTERFACE = 127.0.0.1), turn the pickle receiver off where nothing needs it, and firewall 2003, 2004 and 7002 from everything but the collectors.',
  references: [
    'https://graphite.readthedocs.io/en/latest/feeding-carbon.html',
    'https://graphite.readthedocs.io/en/latest/config-carbon.html',
  ],
  ports: { services: ['graphite-pickle', 'graphite-query'], ports: [2004, 7002] },
  run: async ({ net, port, service }) => {
    if (service?.name === 'graphite-query' || (port === 7002 && service?.name !== 'graphite-pickle')) {
      const q = await carbonCacheQuery(net, port, 'vigil.scanner-test');
      if (q)
        return `The cache query port answered the pickled request ${q.request} without any authentication with a dict of ${Array.isArray(q.reply.datapoints) ? q.reply.datapoints.length : 0} datapoint(s): anyone can read the values carbon holds.`;
      if (service?.name === 'graphite-query') return null;
    }
    if (!(await pickleReceiverFraming(net, port))) return null;
    return 'The pickle receiver took a 4-byte-length frame holding an empty pickled list in silence, and closed the connection at once on a length prefix of 16 MiB (above its default 1 MiB limit), as carbon does: it unpickles and stores what anyone sends, without authentication. No datapoint was sent.';
  },
});
