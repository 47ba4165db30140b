/**
 * Terminals in a browser, as their pages talk to their servers. Nothing
 * here types into a terminal: a session is opened the way a visitor's
 * browser opens one, and only its first screen is read.
 * - Shell In A Box (shellinabox/shell_in_a_box.jspp, ShellInABox.sendRequest):
 *   the page POSTs `width=…&height=…&rooturl=…` to its own URL + "?" and
 *   gets `{"session":…,"data":…}`; each later POST with `session=…` is a
 *   long poll answered with the terminal's new output. The service starts
 *   when the session does: /bin/login's "host login:" for LOGIN (the
 *   default as root), ssh's login for SSH, the configured program (a shell
 *   prompt) for `user:group:dir:cmd` services.
 * - ttyd (src/http.c): GET /token answers `{"token": "<credential>"}`,
 *   the base64 user:password of `-c`, which also puts HTTP Basic auth in
 *   front of every path (401, `WWW-Authenticate: Basic realm="ttyd"`); an
 *   answer with an empty token means no credential guards the terminal.
 * - GoTTY (yudai/gotty server/handlers.go, and its forks): GET
 *   /auth_token.js answers `var gotty_auth_token = '<credential>';`, and
 *   `-c user:pass` puts Basic auth in front of it.
 */
import type { Net } from '../engine/types.ts';
import { httpRequest } from './http.ts';

export interface TerminalScreen {
  session: string;
  /** The terminal's output, escape sequences and all, as the server sent it. */
  screen: string;
}

const isSession = (v: unknown): v is { session: string; data: string } =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as { session?: unknown }).session === 'string' &&
  typeof (v as { data?: unknown }).data === 'string';

function json(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens a Shell In A Box session on `path` and reads its first screen: the session's first answer, then up
 * to `polls` long polls (each answered as soon as there is output, else held: `pollMs` bounds it). Null
 * when the server does not answer as Shell In A Box does.
 */
export async function shellinaboxFirstScreen(
  net: Net,
  port: number,
  tls: boolean,
  opts: { path?: string; polls?: number; pollMs?: number } = {},
): Promise<TerminalScreen | null> {
  const path = opts.path ?? '/';
  const host = net.address.includes(':') ? `[${net.address}]:${port}` : `${net.address}:${port}`;
  const post = async (body: string, timeoutMs: number) => {
    const a = await httpRequest(net, port, tls, {
      method: 'POST',
      target: `${path}?`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
      timeoutMs,
      endAtLength: true,
    });
    const v = a?.status === 200 ? json(a.raw.toString('utf8')) : undefined;
    return isSession(v) ? v : null;
  };
  const rooturl = `${tls ? 'https' : 'http'}://${host}${path}`;
  // Generous bounds: a loaded host starts the session's program late (an advanced audit's nmap and seven other
  // checks beside it on a 2-core machine), and a poll returns as soon as there is output.
  const first = await post(`width=80&height=24&rooturl=${encodeURIComponent(rooturl)}`, 8000);
  if (!first) return null;
  let screen = first.data;
  // A poll held to its bound without output ends as no answer: the next poll asks again (measured in an
  // advanced bench run beside nmap: the shell's prompt came 5 s after the session started).
  for (let i = 0; i < (opts.polls ?? 5) && !/\S/.test(plainScreen(screen)); i++) {
    const next = await post(`width=80&height=24&session=${encodeURIComponent(first.session)}`, opts.pollMs ?? 4000);
    screen += next?.data ?? '';
  }
  return { session: first.session, screen };
}

/** A terminal's output as text: escape sequences (CSI, OSC, charset selection) and control bytes dropped. */
export function plainScreen(raw: string): string {
  return raw
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[()*+][0-9A-Za-z]|\x1b[=>78cDEHMZ]/g, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}

/** The last line with text on it, without trailing blanks kept apart (a prompt ends in "$ " or "login: "). */
export const lastLine = (text: string): string =>
  text
    .split('\n')
    .filter((l) => /\S/.test(l))
    .pop() ?? '';

/**
 * What a terminal's first screen asks for. A login prompt ("host login:", "Password:", "login as:",
 * "Username:") is a door that still needs credentials; a shell prompt (the last line ending in `$`, `#`,
 * `%` or `>` and a blank, as sh, bash, dash, zsh and csh print it) is a shell already logged in.
 */
export function screenKind(raw: string): 'shell' | 'login' | 'other' {
  const line = lastLine(plainScreen(raw)).trimEnd();
  if (/(login|user ?name|login as|password|passphrase)\s*:$/i.test(line)) return 'login';
  if (/[$#%>]$/.test(line) && line.length <= 200) return 'shell';
  return 'other';
}

/** ttyd's GET /token: the credential it hands the page ('' = none), or null when this is not ttyd's answer. */
export async function ttydToken(net: Net, port: number, tls: boolean): Promise<string | null> {
  const a = await httpRequest(net, port, tls, { target: '/token', timeoutMs: 4000, endAtLength: true });
  if (a?.status !== 200 || !/json/i.test(a.headers['content-type'] ?? '')) return null;
  return /^\{"token": "([A-Za-z0-9+/=]*)"\}$/.exec(a.raw.toString('latin1').trim())?.[1] ?? null;
}

/** GoTTY's GET /auth_token.js: the credential it hands the page ('' = none), or null when not GoTTY's. */
export async function gottyToken(net: Net, port: number, tls: boolean): Promise<string | null> {
  const a = await httpRequest(net, port, tls, { target: '/auth_token.js', timeoutMs: 4000, endAtLength: true });
  if (a?.status !== 200) return null;
  return (
    /^var gotty_auth_token = (?:'([^'\n]*)'|"([^"\n]*)");?$/
      .exec(a.raw.toString('latin1').trim())
      ?.slice(1)
      .find((x) => x !== undefined) ?? null
  );
}
