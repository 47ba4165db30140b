/**
 * Unbound's remote control (unbound-control(8), daemon/remote.c): the
 * client sends "UBCT1 " (magic and protocol version 1) and one command
 * line; the server answers in text and closes. With `control-use-cert:
 * yes` (the default) the exchange runs inside TLS with client
 * certificates, and a plaintext line is dropped unanswered; with `no` it
 * is plaintext and anyone who reaches the port is a controller. A line
 * without the magic is dropped silently ("bad magic string"), so only
 * Unbound answers this. Only `status` is sent: a read.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

export interface UnboundStatus {
  /** The answer's lines (version, verbosity, threads, modules, uptime, options, "unbound (pid N) is running..."). */
  lines: string[];
  version: string;
}

/** `UBCT1 status` in the clear; null unless Unbound's status came back. */
export function unboundStatus(net: Net, port: number): Promise<UnboundStatus | null> {
  return talk(net, port, async (c) => {
    const text = (await c.ask('UBCT1 status\n', 3000, (b) => /is running\.\.\.\n/.test(b.toString('latin1'))))
      .toString('latin1')
      .replace(/\r/g, '');
    const version = /^version: (\S+)$/m.exec(text)?.[1];
    if (!version || !/\(pid \d+\) is running/.test(text)) return null;
    return { lines: text.split('\n').filter(Boolean), version };
  });
}
