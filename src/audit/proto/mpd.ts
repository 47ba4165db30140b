/**
 * The MPD protocol (Music Player Daemon, TCP 6600; mpd.readthedocs.io
 * "Protocol"), which MPD and the servers written to its clients (Mopidy's
 * MPD frontend, …) share: the server greets `OK MPD <protocol version>`,
 * a command is a line, and its answer is `key: value` lines ended by `OK`,
 * or one `ACK [error@command_listNum] {command} message` line (error 4,
 * ACK_ERROR_PERMISSION: a password is required first).
 */
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

export const MPD_PORT = 6600;
export const MPD_GREETING = /^OK MPD (\d+\.\d+(?:\.\d+)?)\r?\n/;

export interface MpdAnswer {
  ok: boolean;
  /** The `key: value` lines, in order. */
  pairs: [string, string][];
  /** The ACK line of a refusal. */
  ack: string | null;
}

const ended = (b: Buffer) => /(^|\n)(OK|ACK [^\n]*)\n$/.test(b.toString('latin1'));

export function parseAnswer(text: string): MpdAnswer | null {
  const lines = text.replace(/\r/g, '').split('\n');
  if (lines.pop() !== '') return null;
  const last = lines.pop() ?? '';
  if (last.startsWith('ACK ')) return { ok: false, pairs: [], ack: last };
  if (last !== 'OK') return null;
  const pairs: [string, string][] = [];
  for (const l of lines) {
    const i = l.indexOf(': ');
    if (i <= 0) return null;
    pairs.push([l.slice(0, i), l.slice(i + 2)]);
  }
  return { ok: true, pairs, ack: null };
}

async function session(conv: Conv, commands: readonly string[]) {
  const greeting = MPD_GREETING.exec((await conv.read(3000, (b) => b.includes(10))).toString('latin1'));
  if (!greeting) return null;
  const answers: (MpdAnswer | null)[] = [];
  for (const c of commands) {
    const a = parseAnswer((await conv.ask(`${c}\n`, 3000, ended)).toString('latin1'));
    answers.push(a);
    if (!a) break;
  }
  return { protocol: greeting[1]!, answers };
}

/** The greeting's protocol version and the answers to `commands`, each sent only after the one before was answered. */
export const mpdAsk = (net: Net, port: number, commands: readonly string[]) =>
  talk(net, port, (conv) => session(conv, commands), 8000);
