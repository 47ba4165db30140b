/**
 * Legacy information services: Finger (RFC 1288) and the Identification
 * Protocol (RFC 1413). One bounded exchange each through the fenced Net.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/** The reply to one finger query ("" = the list of users logged in, RFC 1288 §2.5.1), or null. */
export function fingerQuery(net: Net, port: number, query: string): Promise<string | null> {
  return talk(net, port, async (c) => {
    // The server answers and closes: read until the close (or 8 KB, or the timeout).
    const r = await c.ask(`${query}\r\n`, 3000, (b) => b.length > 8192);
    return r.length ? r.toString('latin1') : null;
  });
}

/**
 * RFC 1413 §6: asks about the connection this query travels on ("<port on
 * the server>, <port on our side>"), the one connection the scanner can
 * name. The reply's USERID or ERROR part, or null.
 */
export function identSelf(net: Net, port: number): Promise<{ query: string; reply: string } | null> {
  return talk(net, port, async (c) => {
    const ours = c.socket.localPort;
    if (!ours) return null;
    const query = `${port}, ${ours}`;
    const r = (await c.ask(`${query}\r\n`, 3000, (b) => b.includes(10))).toString('latin1').trim();
    return /^\s*\d+\s*,\s*\d+\s*:\s*(USERID|ERROR)\s*:/i.test(r) ? { query, reply: r.slice(0, 200) } : null;
  });
}
