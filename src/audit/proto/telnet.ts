/**
 * Telnet (RFC 854) as far as the first prompt: the option negotiation a
 * client must answer before a server shows anything, then the text the
 * server prints, then, once, an empty line. What comes back tells a login
 * prompt ("login:", "Password:") from a shell prompt ("# ", "$ ",
 * "~ # ") that no login came before.
 *
 * Negotiation (RFC 854 "The Telnet Option Negotiation", RFC 1143's rule of
 * answering each request once): WILL ECHO and WILL SGA are accepted (DO),
 * as every interactive client does (RFC 857, RFC 858); every other WILL is
 * refused (DONT) and every DO is refused (WONT), so no terminal type, window
 * size or environment (RFC 1572: USER would skip a login prompt) is sent.
 * inetutils and netkit telnetd ask for TTYPE, TSPEED, XDISPLOC and
 * NEW-ENVIRON and wait for the answers before they start login; BusyBox
 * telnetd starts its login program at once.
 */
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { talk } from './talk.ts';

const IAC = 255;
const [WILL, WONT, DO, DONT, SB, SE] = [251, 252, 253, 254, 250, 240];
const ACCEPTED = new Set([1, 3]); // ECHO, SGA

/** A login or password prompt, anywhere in what the server printed. */
export const LOGIN_PROMPT = /\b(log ?in|user ?name|user|password|passcode|passwd)\s*:/i;
/**
 * A shell prompt at the end of what was printed: an optional short
 * user@host:dir part, then # $ % or >, then at most one space, nothing
 * after (dash "# ", bash "root@vm:~# ", BusyBox ash "~ # ", csh "% ").
 */
export const SHELL_PROMPT = /(?:^|\n)((?:[\w.@:~/[\]()-]{1,60} ?)?[#$%>]) ?$/;

export interface TelnetConsole {
  /** The options the server asked about, as "WILL ECHO"-style words. */
  negotiated: string[];
  /** Printable text before our empty line, and after it (null when not sent). */
  before: string;
  after: string | null;
}

/** Telnet options by number (RFC 857-1572, as the IANA registry names them). */
export const TELNET_OPTIONS: Readonly<Record<number, string>> = {
  1: 'ECHO',
  3: 'SGA',
  5: 'STATUS',
  24: 'TTYPE',
  31: 'NAWS',
  32: 'TSPEED',
  33: 'LFLOW',
  34: 'LINEMODE',
  35: 'XDISPLOC',
  36: 'OLD-ENVIRON',
  37: 'AUTH',
  39: 'NEW-ENVIRON',
};

/** Reads the server's text, answering its negotiation as it comes; the text since `from` with escapes and CRs removed. */
class Reader {
  private pos = 0;
  private text: number[] = [];
  private readonly answered = new Set<string>();
  readonly negotiated: string[] = [];

  constructor(private readonly c: Conv) {}

  /** Consumes what arrived, answering each new request once. */
  private consume(b: Buffer): void {
    while (this.pos < b.length) {
      const x = b[this.pos]!;
      if (x !== IAC) {
        this.text.push(x);
        this.pos++;
        continue;
      }
      if (this.pos + 1 >= b.length) return;
      const cmd = b[this.pos + 1]!;
      if (cmd >= WILL && cmd <= DONT) {
        if (this.pos + 2 >= b.length) return;
        const opt = b[this.pos + 2]!;
        this.pos += 3;
        const key = `${cmd}/${opt}`;
        if (this.answered.has(key)) continue;
        this.answered.add(key);
        this.negotiated.push(`${['WILL', 'WONT', 'DO', 'DONT'][cmd - WILL]} ${TELNET_OPTIONS[opt] ?? opt}`);
        const reply = cmd === WILL ? (ACCEPTED.has(opt) ? DO : DONT) : cmd === DO ? WONT : null;
        if (reply !== null) this.c.send(Buffer.from([IAC, reply, opt]));
      } else if (cmd === SB) {
        const end = b.indexOf(Buffer.from([IAC, SE]), this.pos + 2);
        if (end < 0) return;
        this.pos = end + 2;
      } else if (cmd === IAC) {
        this.text.push(IAC);
        this.pos += 2;
      } else this.pos += 2;
    }
  }

  /** The printable text so far: no CRs, NULs or ANSI escape sequences. */
  shown(from = 0): string {
    return Buffer.from(this.text.slice(from))
      .toString('latin1')
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
      .replace(/[\r\0]/g, '')
      .replace(/[^\x20-\x7e\n\t]/g, '');
  }

  get length(): number {
    return this.text.length;
  }

  /** Reads until `done(text since from)` holds or `ms` pass. */
  async until(ms: number, from: number, done: (text: string) => boolean): Promise<string> {
    await this.c.read(ms, (b) => {
      this.consume(b);
      return done(this.shown(from));
    });
    return this.shown(from);
  }
}

const settled = (t: string) => LOGIN_PROMPT.test(t) || SHELL_PROMPT.test(t);

/**
 * The server's first screen (up to a login or shell prompt, 4 s at most)
 * and, when it ends in a shell prompt with no login prompt before it, what
 * one empty line (CR LF) brings back: null when nothing printable came.
 */
export function telnetConsole(net: Net, port: number): Promise<TelnetConsole | null> {
  return talk(
    net,
    port,
    async (c) => {
      const r = new Reader(c);
      const before = await r.until(4000, 0, settled);
      if (!before.trim()) return null;
      if (LOGIN_PROMPT.test(before) || !SHELL_PROMPT.test(before))
        return { negotiated: r.negotiated, before, after: null };
      const mark = r.length;
      c.send('\r\n');
      const after = await r.until(3000, mark, (t) => settled(t.replace(/^\s+/, '')));
      return { negotiated: r.negotiated, before, after };
    },
    8000,
  );
}

/** The prompt a text ends with, or null. */
export const promptOf = (text: string): string | null => SHELL_PROMPT.exec(text)?.[1] ?? null;
