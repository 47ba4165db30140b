/**
 * Varnish's management CLI (varnishd -T, varnish-cli(7)): every response
 * is `<status> <length>` padded to 12 bytes, a newline, `length` bytes and
 * a newline. On connect the server speaks first: 200 and its banner when
 * no secret file (-S) is set, else 107 and a 32-letter challenge
 * ("Authentication required."), answered only by `auth <sha256>` computed
 * with the secret. Only `ping` and `status` are sent here: reads.
 */
import type { Conv } from './conv.ts';
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

export interface CliReply {
  status: number;
  body: string;
}

/** A whole CLI response at the start of `b`, or null (not yet, or not the CLI's framing). */
export function parseCliReply(b: Buffer): CliReply | null {
  const m = /^(\d{3}) (\d+) *\n/.exec(b.toString('latin1'));
  if (!m || b.length < m[0].length + Number(m[2])) return null;
  return { status: Number(m[1]), body: b.subarray(m[0].length, m[0].length + Number(m[2])).toString('utf8') };
}

const replyDone = (b: Buffer) => parseCliReply(b) !== null;

export interface VarnishCli {
  greeting: CliReply;
  ping: CliReply | null;
  status: CliReply | null;
}

/** The greeting, then `ping` and `status` when it was 200 (no challenge); null when no CLI framing came. */
export function varnishCli(net: Net, port: number): Promise<VarnishCli | null> {
  return talk(net, port, async (c: Conv) => {
    const greeting = parseCliReply(await c.read(3000, replyDone));
    if (!greeting) return null;
    if (greeting.status !== 200) return { greeting, ping: null, status: null };
    const ping = parseCliReply(await c.ask('ping\n', 3000, replyDone));
    const status = parseCliReply(await c.ask('status\n', 3000, replyDone));
    c.send('quit\n');
    return { greeting, ping, status };
  });
}
