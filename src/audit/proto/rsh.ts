/**
 * The BSD remote services: rexec (512), rlogin (513, RFC 1282) and rsh
 * (514). Each opens with NUL-terminated strings from the client and answers
 * with one byte: NUL (go on) or 1 followed by an error text. rlogind and
 * rshd drop a client whose source port is not 512–1023 without a byte
 * (rsh-redone, netkit and the BSDs alike), so the connection binds one:
 * that takes root or CAP_NET_BIND_SERVICE, and without it every exchange
 * here is null (nothing proven, nothing reported).
 */
import type { Net } from '../engine/types.ts';
import { Conv } from './conv.ts';

export type RService = 'rexec' | 'rlogin' | 'rsh';

/** The service a port usually carries (the checks also run on ports detection named so). */
export const R_PORTS: Readonly<Record<number, RService>> = { 512: 'rexec', 513: 'rlogin', 514: 'rsh' };

const nul = (...parts: string[]) => Buffer.from(parts.map((p) => `${p}\0`).join(''), 'latin1');

/** The opening a client sends (rlogin: a NUL, then client user, server user, terminal/speed). */
export function opening(kind: RService, user: string, command: string): Buffer {
  if (kind === 'rlogin') return Buffer.concat([Buffer.from([0]), nul(user, user, 'dumb/9600')]);
  // "0": no second connection for stderr (the server would connect back to us).
  if (kind === 'rsh') return nul('0', user, user, command);
  return nul('0', user, 'vigil-not-a-password', command);
}

/**
 * A connection from a random privileged source port, retried a few times on
 * EADDRINUSE (a port just closed stays in TIME_WAIT); null when none can be
 * bound (EACCES: not root) or the port refuses.
 */
export async function privilegedConnect(net: Net, port: number, ms: number): Promise<Conv | null> {
  for (let i = 0; i < 6; i++) {
    const localPort = 512 + Math.floor(Math.random() * 512);
    try {
      return new Conv(await net.connect(port, { timeoutMs: 3000, localPort }), ms);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') return null;
    }
  }
  return null;
}

export interface RReply {
  /** What was sent, printable (NULs shown as \0). */
  sent: string;
  /** The first byte: 0 = accepted so far, 1 = refused with a message. */
  status: number;
  /** The bytes after it, latin1. */
  text: string;
}

export const printableSent = (b: Buffer) => b.toString('latin1').replace(/\0/g, '\\0');

/**
 * One exchange: the opening, then everything the server says until `done`,
 * the close or `ms`. Null when the server said nothing (a dropped
 * connection proves nothing).
 */
export async function rExchange(
  net: Net,
  port: number,
  request: Buffer,
  ms = 4000,
  done: (text: string) => boolean = () => false,
  then?: (conv: Conv, text: string) => Promise<string>,
): Promise<RReply | null> {
  const conv = await privilegedConnect(net, port, ms);
  if (!conv) return null;
  try {
    const r = await conv.ask(request, ms, (b) => b.length > 1 && done(b.toString('latin1', 1)));
    if (!r.length || r[0]! > 1) return null;
    let text = r.toString('latin1', 1);
    if (then && r[0] === 0) text = await then(conv, text);
    return { sent: printableSent(request), status: r[0]!, text };
  } catch {
    return null;
  } finally {
    conv.close();
  }
}
