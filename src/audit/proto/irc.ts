/**
 * IRC client registration (RFC 2812 §3.1; RFC 1459 §4.1): NICK and USER,
 * a PONG to the cookie PING some servers send first, and the numerics of
 * the answer: 001 (welcome), 004 (RPL_MYINFO: the server's name and
 * version), or an error (ERROR, 432-465). Then the check's own commands on
 * the registered connection, and QUIT.
 */
import { randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

export interface IrcWelcome {
  nick: string;
  /** 004's server name and version ("irc.example.net", "ngircd-26.1"). */
  server: string | null;
  version: string | null;
}

const lines = (b: Buffer) => b.toString('utf8').split(/\r?\n/);
/** A numeric reply line: ":server NNN target …". */
export const numeric = (text: string, code: string) => new RegExp(`^:\\S+ ${code} \\S+(?: (.*))?$`, 'm').exec(text);

/** Registers on a fresh connection and runs `steps` on it; null when registration does not succeed. */
export function withIrc<T>(
  net: Net,
  port: number,
  steps: (c: Conv, w: IrcWelcome) => Promise<T | null>,
): Promise<T | null> {
  return talk(
    net,
    port,
    async (c) => {
      const nick = `vg${randomBytes(3).toString('hex')}`;
      c.send(`NICK ${nick}\r\nUSER vigil 0 * :Vigil audit\r\n`);
      let text = '';
      for (let i = 0; i < 6; i++) {
        const b = await c.read(5000, (x) => /(^|\n)(:\S+ (001|4\d\d|5\d\d) |ERROR |PING )/.test(x.toString('utf8')));
        text = c.take().toString('utf8');
        const ping = /^PING :?(\S+)/m.exec(text);
        if (ping && !/ 001 /.test(text)) {
          c.send(`PONG :${ping[1]}\r\n`);
          continue;
        }
        if (!b.length || c.closed) break;
        // 004 may trail 001 by a moment.
        if (/ 001 /.test(text) && !numeric(text, '004'))
          text += (await c.read(1500, (x) => / 004 /.test(x.toString('utf8')))).toString('utf8');
        break;
      }
      if (!numeric(text, '001')) return null;
      const info = numeric(text, '004')?.[1]?.split(' ') ?? [];
      try {
        return await steps(c, { nick, server: info[0] ?? null, version: info[1] ?? null });
      } finally {
        c.send('QUIT :Vigil audit\r\n');
      }
    },
    12_000,
  );
}

/** OPER (RFC 2812 §3.1.4): the server's reply line, 381 RPL_YOUREOPER on success. */
export async function oper(c: Conv, user: string, password: string): Promise<{ ok: boolean; reply: string }> {
  c.take();
  c.send(`OPER ${user} ${password}\r\n`);
  const r = (await c.read(4000, (b) => /(^|\n):\S+ (381|4\d\d|5\d\d) /.test(b.toString('utf8')))).toString('utf8');
  const line = lines(Buffer.from(r)).find((l) => /^:\S+ (381|4\d\d|5\d\d) /.test(l)) ?? '';
  return { ok: /^:\S+ 381 /.test(line), reply: line };
}
