/**
 * STOMP (1.0, 1.1 and 1.2: https://stomp.github.io/stomp-specification-1.2.html),
 * the text protocol of ActiveMQ Classic and Artemis, RabbitMQ's STOMP
 * plugin, Apollo, CoilMQ and others: frames are a command line, header
 * lines "name:value", an empty line, a body and a NUL. A CONNECT without
 * `login`/`passcode` headers and the server's CONNECTED or ERROR frame;
 * nothing is subscribed or sent, and a DISCONNECT follows a CONNECTED.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

export interface StompFrame {
  command: string;
  /** Header names as sent (lower case in practice); the first of a repeated header wins (§ Repeated Header Entries). */
  headers: Record<string, string>;
  body: string;
}

/** A frame is complete at its NUL (heart-beat newlines before it are skipped). */
export const frameDone = (b: Buffer) => b.includes(0);

/** One frame, or null when the bytes are not a STOMP frame (no command line, no blank line, no NUL). */
export function parseFrame(b: Buffer): StompFrame | null {
  const text = b.toString('utf8').replace(/^[\r\n]+/, '');
  const end = text.indexOf('\0');
  const m = /^([A-Z]{3,12})\r?\n((?:[^\r\n:]+:[^\r\n]*\r?\n)*)\r?\n/.exec(text);
  if (!m || end < m[0].length) return null;
  const headers: Record<string, string> = {};
  for (const line of m[2]!.split(/\r?\n/).filter(Boolean)) {
    const i = line.indexOf(':');
    const name = line.slice(0, i).toLowerCase();
    headers[name] ??= line.slice(i + 1);
  }
  return { command: m[1]!, headers, body: text.slice(m[0].length, end) };
}

/**
 * CONNECT with no credentials. No `host` header first (STOMP 1.0 has none
 * and RabbitMQ takes its default virtual host without one); a server that
 * insists on it (Artemis and Apollo answer ERROR naming the header) is
 * asked again with host "/".
 */
export async function stompConnect(net: Net, port: number): Promise<{ sent: string; reply: StompFrame } | null> {
  const attempt = (host: string | null) => {
    const sent = `CONNECT\naccept-version:1.0,1.1,1.2\n${host === null ? '' : `host:${host}\n`}heart-beat:0,0\n\n`;
    return talk(net, port, async (c) => {
      const reply = parseFrame(await c.ask(`${sent}\0`, 3000, frameDone));
      if (reply?.command === 'CONNECTED') c.send('DISCONNECT\n\n\0');
      return reply ? { sent, reply } : null;
    });
  };
  const first = await attempt(null);
  if (first?.reply.command === 'ERROR' && /\bhost\b/i.test(`${first.reply.headers.message} ${first.reply.body}`))
    return (await attempt('/')) ?? first;
  return first;
}
