import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/helpers/server.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { udpQuery } from '../test/helpers/dns-client.ts';
import { pinned, until } from './dnsperf-kit.ts';
import type { Peer, Placement } from './dnsperf-peers.ts';

const SOURCE = fileURLToPath(new URL('./dnsperf-floor.c', import.meta.url));

/**
 * The kernel's floor (dnsperf-floor.c: what a server that does no DNS work reaches here), built with the
 * system's C compiler into `dir` and started in this placement with its workers as threads; null when there is
 * no compiler. A reference row: neither Vigil nor a peer in the tables' ratios (dnsperf-kit.ts roundsTable).
 */
export async function startFloor(dir: string, where: Placement): Promise<Peer | null> {
  if (!hasTool('cc')) {
    console.log('floor: no C compiler (cc), left out');
    return null;
  }
  const bin = join(dir, 'dnsperf-floor');
  const built = spawnSync('cc', ['-O2', '-pthread', '-o', bin, SOURCE], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('dnsperf-floor.c did not build');
  const port = await freePort();
  const [cmd, ...args] = pinned(where.server, [bin, '127.0.0.1', String(port), String(where.workers)], where.nice);
  const proc = spawn(cmd!, args, { stdio: 'ignore' });
  const name = `floor: no DNS work (${where.workers} thread${where.workers > 1 ? 's' : ''}, ${where.name})`;
  await until(async () => (await udpQuery(port, 'probe.floor.example', 'A')).answers?.length === 1, name);
  return { name, port, proc };
}
