/**
 * Fleet side of test/helpers/legacy-daemons.ts: a namespace plan (its own
 * loopback, /run, PID 1) started in the foreground, then the socat relays
 * from 127.14.K.N ports to the Unix sockets it offers. Shared by the kinds
 * whose daemons cannot sit on a 127.14 address of the host themselves.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { forwardArgs, nsCommand, type NsPlan } from '../../../test/helpers/legacy-daemons.ts';
import { sleep, type Ctx } from './kit.ts';

export interface Relay {
  proto: 'tcp' | 'udp';
  port: number;
  socket: string;
}

/** Starts the plan in `dir`, waits for its ready file, then relays `address`'s ports (`relays(dir)`). */
export async function startNs(
  ctx: Ctx,
  label: string,
  dir: string,
  plan: NsPlan,
  address: string,
  relays: (dir: string) => Relay[],
): Promise<void> {
  const { cmd, args } = nsCommand(dir, plan);
  const ns = ctx.spawn(label, cmd, args);
  for (let i = 0; i < 300 && !existsSync(join(dir, 'ready')); i++) {
    if (ns.exitCode !== null) throw new Error(`${label}: namespace exited (${ns.exitCode})`);
    await sleep(100);
  }
  if (!existsSync(join(dir, 'ready'))) throw new Error(`${label}: namespace not ready after 30 s`);
  for (const r of relays(dir)) {
    const child = ctx.spawn(
      `${label}-${r.proto}-${r.port}`,
      'socat',
      forwardArgs(r.proto, address, r.port, join(dir, r.socket)),
    );
    if (r.proto === 'tcp') await ctx.waitTcp(address, r.port, child);
    else await sleep(200); // socat binds at once; a UDP relay has nothing to connect to
  }
}
