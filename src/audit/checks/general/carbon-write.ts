import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import type { Target } from '../kit.ts';
import { carbonCacheQuery, carbonMetadata, carbonSendLine, carbonSendPickle } from '../../proto/carbon.ts';

/**
 * A datapoint written to carbon's plaintext (2003) or pickle (2004)
 * receiver and read back through the cache query port: the only proof that
 * a receiver stores what anyone sends, since receivers never answer. The
 * metric is named vigil.scanner-test.<random> with the value 1; its whisper
 * file remains (carbon cannot delete), which makes this intrusive. Without
 * a cache query port the write cannot be proven and nothing is reported.
 */
const QUERY_PORT = 7002;

/** The cache query port of the host: the one detection named, else 7002. */
const queryPort = (t: Target) => t.host.services.find((s) => s.name === 'graphite-query')?.port ?? QUERY_PORT;

export default defineCheck({
  id: 'vigil.carbon.write',
  shortid: 'CARBON-WRITE',
  title: 'Graphite carbon stores metrics written by anyone',
  family: 'General',
  categories: ['intrusive', 'auth'],
  risk: 'medium',
  type: 'HOLE',
  qod: 99,
  description:
    "Graphite's carbon stored a datapoint the scanner wrote without any authentication: anyone who reaches the receiver can write under any metric name, falsify graphs and the alerts built on them, or fill the disk with whisper files. The test metric (vigil.scanner-test.*, value 1) remains: carbon has no delete.",
  solution:
    'Bind the receivers to the loopback or a private interface in carbon.conf (LINE_RECEIVER_INTERFACE, PICKLE_RECEIVER_INTERFACE = 127.0.0.1) and firewall 2003 and 2004 from everything but the collectors; delete the whisper files under vigil/scanner-test/.',
  references: ['https://graphite.readthedocs.io/en/latest/feeding-carbon.html'],
  ports: { services: ['graphite', 'graphite-pickle'], ports: [2003, 2004] },
  run: async (t) => {
    const { net, port, service } = t;
    const qp = queryPort(t);
    if (!(await carbonCacheQuery(net, qp, 'vigil.scanner-test'))) return null; // no way to read a write back
    const metric = `vigil.scanner-test.${randomBytes(5).toString('hex')}`;
    const ts = Math.floor(Date.now() / 1000);
    const pickle = service?.name === 'graphite-pickle' || (port === 2004 && service?.name !== 'graphite');
    const how = pickle ? `a pickled [('${metric}', (${ts}, 1))]` : `the line "${metric} 1 ${ts}"`;
    if (!(await (pickle ? carbonSendPickle : carbonSendLine)(net, port, metric, 1, ts))) return null;
    // Carbon caches the point until its writer flushes it to a new whisper file (then the cache is empty
    // and get-metadata answers instead): a few reads, ~3 s at most.
    for (let i = 0; i < 12; i++) {
      const q = await carbonCacheQuery(net, qp, metric);
      const points = q && Array.isArray(q.reply.datapoints) ? q.reply.datapoints : [];
      if (points.length)
        return `Sent ${how} to port ${port}; the cache query port ${qp} then answered ${q!.request} with ${points.length} datapoint(s): the point was stored.`;
      const m = await carbonMetadata(net, qp, metric);
      if (m && 'value' in m.reply)
        return `Sent ${how} to port ${port}; the cache query port ${qp} then answered ${m.request} with '${String(m.reply.value)}': a whisper file was created for it.`;
      await new Promise((r) => setTimeout(r, 250));
    }
    return null;
  },
});
