/**
 * Graphite carbon-cache (Debian graphite-carbon) with its line, pickle and
 * cache query receivers on the audited address, against its hardened twin
 * (the same daemon bound to 127.0.0.1 only, its ports audited on the
 * twin's address, where nothing answers). Detection names the ports first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daemon, freePort, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { carbonArgs, carbonConf } from '../../../../test/helpers/ops-daemons.ts';
import { detectServices } from '../../engine/detect.ts';
import { checkById } from '../catalogue.ts';

const WEAK = '127.0.183.11';
const TWIN = '127.0.183.12';
const CARBON = which('carbon-cache');

interface Ports {
  line: number;
  pickle: number;
  query: number;
}

/** carbon-cache in the foreground with its three TCP listeners on `bind` (carbon's own ports, or free ones). */
async function carbon(bind: string, usual: boolean): Promise<Ports> {
  const dir = tempDir('carbon');
  const line = usual ? 2003 : await freePort(bind);
  const pickle = usual ? 2004 : await freePort(bind);
  const query = await daemon(
    bind,
    CARBON!,
    (port) => carbonArgs(carbonConf(dir, bind, { line, pickle, query: port })),
    usual ? { port: 7002 } : {},
  );
  return { line, pickle, query };
}

test('carbon-cache open: the cache query port and the pickle receiver found (standard), a datapoint written and read back on both receivers (advanced); bound to 127.0.0.1: nothing', {
  skip: CARBON ? false : 'carbon-cache (graphite-carbon) is not installed',
}, async () => {
  // The weak one on carbon's own ports (its address is this file's), which detection probes for carbon.
  const [p, t] = await Promise.all([carbon(WEAK, true), carbon('127.0.0.1', false)]);
  const net = netFor(WEAK);
  const services = await detectServices(net, [p.line, p.pickle, p.query], { bannerMs: 300 });
  assert.deepEqual(
    services.map((s) => s.name),
    ['graphite', 'graphite-pickle', 'graphite-query'],
  );
  const host = hostOf(WEAK, services);
  const open = await checkById('vigil.carbon.open').runOn(host, net);
  assert.deepEqual(open.map((f) => f.port).sort(), [p.pickle, p.query].sort());
  assert.match(
    open.find((f) => f.port === p.query)!.detail,
    /answered the pickled request \{'type': 'cache-query', 'metric': 'vigil.scanner-test'\} without any authentication with a dict of 0 datapoint/,
  );
  assert.match(
    open.find((f) => f.port === p.pickle)!.detail,
    /empty pickled list in silence, and closed the connection at once on a length prefix of 16 MiB/,
  );
  const written = await checkById('vigil.carbon.write').runOn(host, net);
  assert.deepEqual(written.map((f) => f.port).sort(), [p.line, p.pickle].sort());
  for (const f of written)
    assert.match(
      f.detail,
      /^Sent (the line "vigil\.scanner-test\.[0-9a-f]+ 1 \d+"|a pickled \[\('vigil\.scanner-test\.[0-9a-f]+', \(\d+, 1\)\)\]) to port \d+; the cache query port \d+ then answered .*(datapoint|whisper file)/,
    );

  const twin = hostOf(TWIN, [
    service(t.line, 'graphite'),
    service(t.pickle, 'graphite-pickle'),
    service(t.query, 'graphite-query'),
  ]);
  for (const id of ['vigil.carbon.open', 'vigil.carbon.write'])
    assert.deepEqual(await checkById(id).runOn(twin, netFor(TWIN)), [], id);
});
