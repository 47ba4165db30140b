/**
 * What the CUPS checks need beyond IPP: cupsd's refusal of a Host header,
 * and the locations of a cupsd.conf it serves.
 *
 * To a loopback client (127/8, ::1) cupsd accepts only `localhost`,
 * `localhost.`, `127.0.0.1` or `[::1]` as Host (valid_host in
 * scheduler/client.c, a DNS-rebinding guard since CUPS 1.4) and answers
 * anything else 400 Bad Request with its own error page; so a cupsd
 * planted on a 127.x address answers a scanner that names that address
 * nothing else. Asked again with `Host: localhost` it answers, but it also
 * lets every loopback client through whatever its Allow/Deny rules say
 * (cupsdCheckAccess: "Access from localhost is always allowed"), so what
 * is seen that way does not show what the network sees: the checks then
 * report only on the configuration it serves.
 */
import type { Net } from '../engine/types.ts';
import { type HttpAnswer, httpRequest } from './http.ts';

/** cupsd's 400 for a Host it refuses: its Server header and error page ("Bad Request - CUPS v2.4.2"). */
export const cupsHostRefused = (a: HttpAnswer | null) =>
  a?.status === 400 && /^CUPS\//i.test(a.headers['server'] ?? '') && /<TITLE>\s*Bad Request - CUPS\b/i.test(a.body);

/** The loopback addresses whose clients cupsd holds to a localhost Host. */
export const isLoopback = (address: string) =>
  /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);

export const LOCALHOST = 'localhost';

/**
 * GET `target`, Host the audited address; on a loopback address answered
 * with cupsd's Host refusal, once more with `Host: localhost`. `host` says
 * which was used for the answer returned (null: the address).
 */
export async function cupsGet(
  net: Net,
  port: number,
  tls: boolean,
  target: string,
): Promise<{ answer: HttpAnswer | null; host: string | null; refused: HttpAnswer | null }> {
  const first = await httpRequest(net, port, tls, { target });
  if (!isLoopback(net.address) || !cupsHostRefused(first)) return { answer: first, host: null, refused: null };
  return { answer: await httpRequest(net, port, tls, { target, host: LOCALHOST }), host: LOCALHOST, refused: first };
}

export interface Location {
  path: string;
  /** The directives inside, trimmed, comments dropped. */
  lines: string[];
}

/** The <Location> blocks of a cupsd.conf. */
export function locations(conf: string): Location[] {
  const out: Location[] = [];
  let cur: Location | null = null;
  for (const raw of conf.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const open = /^<Location\s+([^>\s]+)\s*>$/i.exec(line);
    if (open) cur = { path: open[1]!, lines: [] };
    else if (/^<\/Location>$/i.test(line)) {
      if (cur) out.push(cur);
      cur = null;
    } else if (cur && line) cur.lines.push(line);
  }
  return out;
}

/** The location cupsd applies to `path`: the longest whose path is a prefix of it (cupsdFindBest, a string prefix). */
export function bestLocation(conf: string, path: string): Location | null {
  const fits = locations(conf).filter((l) => path.startsWith(l.path));
  return fits.sort((x, y) => y.path.length - x.path.length)[0] ?? null;
}

const LOCAL_ONLY = /^(from\s+)?(localhost|127\.0\.0\.1|::1|\[::1\]|127\.\S*)$/i;

/**
 * Whether the location admits clients from the network without a login:
 * no `Require` (AuthType alone asks nobody for anything), and an `Allow`
 * naming anything beyond this host (all, @LOCAL, @IF(…), a network), or
 * `Order deny,allow` with no Deny (allowed unless denied). The directives
 * that prove it are returned for the evidence; null when it does not.
 */
export function openToNetwork(loc: Location | null): string[] | null {
  if (!loc || loc.lines.some((l) => /^Require\b/i.test(l))) return null;
  const allow = loc.lines.filter((l) => /^Allow\s+/i.test(l) && !LOCAL_ONLY.test(l.replace(/^Allow\s+/i, '')));
  if (allow.length) return allow;
  const order = loc.lines.find((l) => /^Order\s+deny\s*,\s*allow$/i.test(l));
  if (order && !loc.lines.some((l) => /^Deny\s+/i.test(l))) return [order];
  return null;
}

/** cupsd.conf as /admin/conf/cupsd.conf serves it: its directives, whatever the comments say. */
export const CONF_DIRECTIVE = /^\s*(?:Listen|Port|<Location\s|LogLevel|Browsing|DefaultAuthType|WebInterface)\b.*$/m;

/** The cupsd.conf the server hands out without credentials (HTTP 200 with directives), or null. */
export async function servedConf(net: Net, port: number, tls: boolean, host?: string): Promise<string | null> {
  const a = await httpRequest(net, port, tls, { target: '/admin/conf/cupsd.conf', ...(host ? { host } : {}) });
  return a?.status === 200 && CONF_DIRECTIVE.test(a.body) ? a.body : null;
}

/** What the evidence says first when the address was refused as Host. */
export const hostRetried = (net: Net, port: number) => {
  const addr = net.address.includes(':') ? `[${net.address}]` : net.address;
  return `cupsd answered Host "${addr}:${port}" with its 400 Bad Request (to a loopback client it takes only localhost as Host), so the requests went again with Host: localhost. A loopback client passes every Allow/Deny rule of cupsd, so the proof is the configuration it serves`;
};

/** "Allow all", "Allow @LOCAL" … quoted for a finding. */
export const quoted = (rules: string[]) => rules.map((r) => `"${r}"`).join(', ');

/**
 * The server settings the web interface's Administration page shows
 * (templates/admin.tmpl: a checkbox each, CHECKED when on): admin.cgi reads
 * them from cupsd.conf with its own authority (cupsAdminGetServerSettings),
 * so the page states them even where /admin/conf asks us for a login.
 * REMOTE_ADMIN: <Location /admin> allows beyond localhost; REMOTE_ANY:
 * <Location /> allows all; SHARE_PRINTERS: Browsing on and / open to the
 * local network. Null when the page shows no settings.
 */
export function adminSettings(page: string): Record<string, boolean> | null {
  const out: Record<string, boolean> = {};
  for (const m of page.matchAll(/<INPUT\b[^>]*\bTYPE="CHECKBOX"[^>]*>/gi)) {
    const name = /\bNAME="([A-Z_]+)"/i.exec(m[0])?.[1];
    if (name) out[name.toUpperCase()] = /\bCHECKED\b/i.test(m[0]);
  }
  return 'REMOTE_ADMIN' in out ? out : null;
}

/** The settings page as cupsd answers a loopback client (Host: localhost), whole. */
export async function adminPage(net: Net, port: number, tls: boolean): Promise<string | null> {
  const a = await httpRequest(net, port, tls, { target: '/admin', host: LOCALHOST, maxBytes: 65536 });
  return a?.status === 200 ? a.raw.toString('latin1') : null;
}

/** What the page's checkboxes say, for a finding: `"Allow remote administration" is checked (REMOTE_ADMIN)`. */
export const SETTING_LABELS: Readonly<Record<string, string>> = {
  REMOTE_ADMIN: 'Allow remote administration',
  REMOTE_ANY: 'Allow printing from the Internet',
  SHARE_PRINTERS: 'Share printers connected to this system',
};
export const checkedSettings = (settings: Record<string, boolean>, names: readonly string[]) =>
  names.filter((n) => settings[n]).map((n) => `"${SETTING_LABELS[n] ?? n}" (${n} CHECKED)`);
