import { daemon, which } from './daemons-kit.ts';

/** epmd's path, or null (the Erlang daemons' tests skip without it). */
export const EPMD = which('epmd');

/**
 * A run-scoped epmd for an Erlang daemon under test (RabbitMQ): its own,
 * in the foreground, on 127.0.0.1 (the address an Erlang node asks its
 * epmd at) and a free port, stopped with the test file. Returns the
 * environment for the node: ERL_EPMD_PORT and ERL_EPMD_ADDRESS, which erl
 * also hands to the `epmd -daemon` it starts when it finds none (at its
 * start, in a helper node, while it shuts down), so that one too stays on
 * loopback and on this port, never on 0.0.0.0:4369; and, started from the
 * node, it carries the kit's tag and is stopped at the end like the rest
 * (daemons-kit.ts).
 */
export async function runScopedEpmd(): Promise<{ ERL_EPMD_PORT: string; ERL_EPMD_ADDRESS: string }> {
  const address = '127.0.0.1';
  const env = { ...process.env, ERL_EPMD_ADDRESS: address };
  const port = await daemon(address, EPMD!, (p) => ['-address', address, '-port', String(p)], { env });
  return { ERL_EPMD_PORT: String(port), ERL_EPMD_ADDRESS: address };
}
