/**
 * Graphite's carbon (carbon-cache, carbon-relay, carbon-aggregator:
 * https://graphite.readthedocs.io/en/latest/feeding-carbon.html) and the
 * daemons that copy its receivers:
 * - the plaintext receiver (2003): `metric value timestamp\n` lines, never
 *   answered; a line longer than Twisted's LineOnlyReceiver.MAX_LENGTH
 *   (16384) closes the connection (lineLengthExceeded);
 * - the pickle receiver (2004): 4-byte big-endian length, then a pickle of
 *   [(metric, (timestamp, value)), …], never answered; a length above
 *   MetricPickleReceiver.MAX_LENGTH (1 MiB) closes the connection at once,
 *   before any body (Twisted's IntNStringReceiver.lengthLimitExceeded);
 * - the cache query port (7002): the same framing both ways, a pickled
 *   request dict answered by a pickled dict (carbon/protocols.py,
 *   CacheManagementHandler): `cache-query` gives the datapoints still in
 *   the cache, `get-metadata` a whisper file's aggregation method.
 * Nothing here sends a pickle that names a class or a function.
 */
import type { Conv } from './conv.ts';
import type { Net } from '../engine/types.ts';
import { int32Done, int32Frame, pickleDatapoints, pickleDict, type PickleDict, unpickle } from './pickle.ts';
import { talk } from './talk.ts';

/** What a cache query port answered: the request sent (as text) and the reply dict. */
export interface CarbonAnswer {
  request: string;
  reply: PickleDict;
}

const asDict = (v: unknown): PickleDict | null =>
  v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v) ? (v as PickleDict) : null;

/** One framed request on an open conversation; the reply dict or null. */
async function ask(c: Conv, request: Record<string, string>): Promise<PickleDict | null> {
  const r = await c.ask(int32Frame(pickleDict(request)), 3000, int32Done);
  if (!int32Done(r)) return null;
  return asDict(unpickle(r.subarray(4, 4 + r.readUInt32BE(0))));
}

const shownRequest = (r: Record<string, string>) =>
  `{${Object.entries(r)
    .map(([k, v]) => `'${k}': '${v}'`)
    .join(', ')}}`;

/** A cache query (`cache-query` of `metric`): carbon answers {'datapoints': […]} for any name. */
export function carbonCacheQuery(net: Net, port: number, metric: string): Promise<CarbonAnswer | null> {
  const request = { type: 'cache-query', metric };
  return talk(net, port, async (c) => {
    const reply = await ask(c, request);
    return reply && Array.isArray(reply.datapoints) ? { request: shownRequest(request), reply } : null;
  });
}

/** `get-metadata` of `metric` (aggregationMethod): {'value': …} when its whisper file exists, else {'error': …}. */
export function carbonMetadata(net: Net, port: number, metric: string): Promise<CarbonAnswer | null> {
  const request = { type: 'get-metadata', metric, key: 'aggregationMethod' };
  return talk(net, port, async (c) => {
    const reply = await ask(c, request);
    return reply && ('value' in reply || 'error' in reply) ? { request: shownRequest(request), reply } : null;
  });
}

/**
 * The pickle receiver's framing, shown without sending anything it would
 * store: a frame holding an empty list is taken in silence and the
 * connection stays open; a length prefix of 16 MiB (above its 1 MiB limit)
 * closes it at once, with nothing sent back. True when both hold.
 */
export async function pickleReceiverFraming(net: Net, port: number): Promise<boolean> {
  const quiet = await talk(net, port, async (c) => {
    const r = await c.ask(int32Frame(pickleDatapoints([])), 800, () => false);
    return r.length === 0 && !c.closed;
  });
  if (!quiet) return false;
  // Carbon closes at once; 5 s leaves room for a loaded host (load 47 on 2 cores was seen during tests).
  const shut = await talk(
    net,
    port,
    async (c) => {
      const r = await c.ask(Buffer.from([1, 0, 0, 0]), 5000, () => false);
      return r.length === 0 && c.closed;
    },
    5000,
  );
  return shut === true;
}

/** One datapoint to the plaintext receiver (a write: intrusive checks only). True once sent and not refused. */
export function carbonSendLine(net: Net, port: number, metric: string, value: number, ts: number): Promise<boolean> {
  return talk(net, port, async (c) => {
    const r = await c.ask(`${metric} ${value} ${ts}\n`, 300, (b) => b.length > 0);
    return r.length === 0;
  }).then((ok) => ok === true);
}

/** One datapoint to the pickle receiver (a write: intrusive checks only). */
export function carbonSendPickle(net: Net, port: number, metric: string, value: number, ts: number): Promise<boolean> {
  return talk(net, port, async (c) => {
    const r = await c.ask(int32Frame(pickleDatapoints([[metric, ts, value]])), 300, (b) => b.length > 0);
    return r.length === 0;
  }).then((ok) => ok === true);
}
