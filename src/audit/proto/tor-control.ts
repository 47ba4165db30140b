/**
 * Tor's control protocol (torspec control-spec.txt): lines ending in CRLF;
 * a reply is `NNN-text` continuation lines closed by `NNN text`. Before
 * authentication Tor accepts only PROTOCOLINFO (once), AUTHCHALLENGE,
 * AUTHENTICATE and QUIT (control.c is_valid_initial_command); any other
 * command gets "514 Authentication required." and the connection closes.
 * PROTOCOLINFO names the configured methods (`AUTH METHODS=NULL` when the
 * ControlPort has none); `AUTHENTICATE ""` (an empty secret) succeeds only
 * then, and is answered "515 Authentication failed" when a password or
 * cookie is required. `GETINFO version` is a read.
 */
import type { Net } from '../engine/types.ts';
import { replyDone, talk } from './talk.ts';

export interface TorControl {
  /** The PROTOCOLINFO reply, as sent. */
  protocolInfo: string;
  /** AUTH METHODS=…: NULL, HASHEDPASSWORD, COOKIE, SAFECOOKIE. */
  methods: string[];
  /** VERSION Tor="…" from PROTOCOLINFO. */
  version: string | null;
  /** The first line of the answer to `AUTHENTICATE ""`. */
  auth: string | null;
  /** The answer to `GETINFO version` (only after a 250 to AUTHENTICATE). */
  getinfo: string | null;
}

const text = (b: Buffer) => b.toString('latin1');
/** The line of a reply that starts so, without its CRLF. */
export const torLine = (reply: string, re: RegExp) =>
  reply
    .split(/\r?\n/)
    .find((l) => re.test(l))
    ?.trim() ?? null;

/** PROTOCOLINFO, then `AUTHENTICATE ""` and, if that was accepted, `GETINFO version`; null when no Tor answered. */
export function torControl(net: Net, port: number): Promise<TorControl | null> {
  return talk(net, port, async (c) => {
    const info = text(await c.ask('PROTOCOLINFO 1\r\n', 3000, replyDone));
    if (!/^250-PROTOCOLINFO \d+/.test(info)) return null;
    const out: TorControl = {
      protocolInfo: info,
      methods: /^250-AUTH METHODS=([\w,]+)/m.exec(info)?.[1]?.split(',') ?? [],
      version: /^250-VERSION Tor="([^"]*)"/m.exec(info)?.[1] ?? null,
      auth: null,
      getinfo: null,
    };
    // The empty secret, what a controller sends to a port without authentication: no password is guessed.
    out.auth = torLine(text(await c.ask('AUTHENTICATE ""\r\n', 3000, replyDone)), /^\d{3}[ -]/);
    if (!out.auth?.startsWith('250')) return out;
    out.getinfo = text(await c.ask('GETINFO version\r\n', 3000, replyDone));
    c.send('QUIT\r\n');
    return out;
  });
}
