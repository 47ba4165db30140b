/**
 * Munin node protocol (munin-node, port 4949; the same line protocol is spoken by munin-async and the
 * node implementations of other agents): the node greets with "# munin node at HOST", then answers one
 * command per line. `list` is one line of plugin names, `nodes` lines ending ".", `version` one line.
 * A node that refuses the client's address (munin-node's `allow`/`cidr_allow`, Net::Server) closes the
 * connection before the greeting: that silence is the twin's.
 */
import type { Net } from '../engine/types.ts';
import { lineDone } from './conv.ts';
import { talk } from './talk.ts';

export interface MuninSession {
  greeting: string;
  version: string | null;
  plugins: string[];
  nodes: string[];
}

const GREETING = /^# munin node at (\S+)/;
const dotDone = (b: Buffer) => /(^|\n)\.\r?\n$/.test(b.toString('latin1'));

/** The greeting and what `version`, `nodes` and `list` answer; null when no munin greeting came. */
export function muninSession(net: Net, port: number): Promise<MuninSession | null> {
  return talk(net, port, async (c) => {
    const greeting = (await c.read(3000, lineDone)).toString('latin1').split(/\r?\n/, 1)[0]!.trim();
    if (!GREETING.test(greeting)) return null;
    c.take();
    const version = (await c.ask('version\n', 3000, lineDone)).toString('latin1').trim();
    const nodes = (await c.ask('nodes\n', 3000, dotDone)).toString('latin1').split(/\r?\n/);
    // Without an argument, `list` names the plugins of the node's own host name (the greeting's).
    const list = (await c.ask('list\n', 3000, lineDone)).toString('latin1').trim();
    c.send('quit\n');
    return {
      greeting,
      version: /version/i.test(version) ? version.split(/\r?\n/, 1)[0]! : null,
      nodes: nodes.map((n) => n.trim()).filter((n) => n && n !== '.' && !n.startsWith('#')),
      plugins: list && !list.startsWith('#') ? list.split(/\s+/) : [],
    };
  });
}
