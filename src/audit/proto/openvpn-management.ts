/**
 * OpenVPN's management interface (--management IP PORT [pw-file];
 * doc/management-notes.txt): the server speaks first. Without a password
 * file it greets ">INFO:OpenVPN Management Interface Version N -- type
 * 'help' for more info" and takes commands at once; with one it sends
 * "ENTER PASSWORD:" and nothing else until the password comes. Commands
 * are lines; a multi-line answer ends with "END"; lines starting with ">"
 * are notifications (>LOG, >STATE, >HOLD) that may arrive at any time.
 * Only `version` and `state` are sent here: reads.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

export interface OpenvpnManagement {
  /** The greeting's first line, or "ENTER PASSWORD:". */
  greeting: string;
  /** The server asked for the management password first. */
  password: boolean;
  /** Answer lines to `version`, `state` (notifications left out), or null if none came. */
  version: string[] | null;
  state: string[] | null;
}

export const OPENVPN_GREETING = /^>INFO:OpenVPN Management Interface Version [\d.]+/;
export const OPENVPN_PASSWORD = /^ENTER PASSWORD:/;

/** Answer lines up to END, without notifications; null until END came. */
export function endedLines(b: Buffer): string[] | null {
  const lines = b
    .toString('latin1')
    .split(/\r?\n/)
    .filter((l) => !l.startsWith('>'));
  const end = lines.indexOf('END');
  return end < 0 ? null : lines.slice(0, end);
}

const greeted = (b: Buffer) => OPENVPN_PASSWORD.test(b.toString('latin1')) || b.includes(10);

/** The greeting, then `version` and `state` when no password was asked; null when no OpenVPN greeted. */
export function openvpnManagement(net: Net, port: number): Promise<OpenvpnManagement | null> {
  return talk(net, port, async (c) => {
    const first = await c.read(3000, greeted);
    const greeting = first.toString('latin1').split(/\r?\n/, 1)[0]!.trim();
    if (OPENVPN_PASSWORD.test(greeting))
      return { greeting: 'ENTER PASSWORD:', password: true, version: null, state: null };
    if (!OPENVPN_GREETING.test(greeting)) return null;
    const version = endedLines(await c.ask('version\r\n', 3000, (b) => endedLines(b) !== null));
    const state = endedLines(await c.ask('state\r\n', 3000, (b) => endedLines(b) !== null));
    c.send('quit\r\n');
    return { greeting, password: false, version, state };
  });
}
