import type { Found } from '../../kit.ts';
import type { HttpAnswer } from '../../../proto/http.ts';
import { CookieJar, type Form, formBody, parseForms, samePath } from '../../../proto/http-form.ts';
import { FORM_LOGINS, type FormLoginRow } from '../../data/web-form-logins.ts';
import { type Asker, quote, text } from './admin-pages.ts';

/**
 * Default passwords on HTML login forms (data/web-form-logins.ts), as a
 * browser logs in: the login page fetched anew for each try (its session
 * cookie and anti-CSRF token are bound to each other), the form whose
 * password field the row names submitted with every field it carries,
 * hidden ones included, then its redirects followed with the cookies
 * set. Only a product recognised by its login page is tried, only its
 * own pairs, stopping at the first that works; proof is the row's
 * logged-in marker, which the login page itself must not carry.
 */

/** A password as reports print it: its first and last characters, the rest masked (RFC-free: a report is shared). */
export function masked(password: string): string {
  if (!password) return '"" (empty)';
  if (password.length <= 2) return `"${'*'.repeat(password.length)}"`;
  return `"${password[0]}${'*'.repeat(password.length - 2)}${password.at(-1)}"`;
}

/** How many redirects a login may take (phpMyAdmin 1, Cacti 1-2, Zabbix 1). */
const HOPS = 4;

interface Try {
  said: string[];
  proof: RegExpExecArray | null;
}

async function submit(
  ask: Asker,
  address: string,
  row: FormLoginRow,
  path: string,
  user: string,
  password: string,
): Promise<Try | null> {
  const page = await ask.send(path);
  if (page?.status !== 200 || !row.page.test(text(page))) return null;
  const form = parseForms(text(page)).find((f) => f.fields.some((x) => x.name === row.fields.password));
  const action = form && samePath(form.action, path, address);
  if (!form || !action) return null;
  const jar = new CookieJar();
  jar.take(page.setCookies);
  const body = formBody(form, { [row.fields.user]: user, [row.fields.password]: password });
  // A form without method="post" submits its fields in the query string (HTML §4.10.21.3).
  const post = form.method === 'post';
  const said = [
    `GET ${path}: the ${row.product} login form (${fieldList(form, row)})`,
    `${post ? 'POST' : 'GET'} ${action} with user "${user}" and password ${masked(password)} (${row.source})`,
  ];
  const cookie: Record<string, string> = jar.header() ? { Cookie: jar.header()! } : {};
  let a: HttpAnswer | null = post
    ? await ask.send(action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...cookie },
        body,
      })
    : await ask.send(`${action}${action.includes('?') ? '&' : '?'}${body}`, { headers: cookie });
  let at = action;
  for (let hop = 0; a; hop++) {
    jar.take(a.setCookies);
    const m = a.status === 200 ? row.proof.exec(text(a)) : null;
    const where = a.headers['location'] ? samePath(a.headers['location'], at, address) : null;
    const got = `HTTP ${a.status}${where ? ` to ${where}` : ''}${a.setCookies.length ? ` setting cookie${a.setCookies.length > 1 ? 's' : ''} ${cookieNames(a)}` : ''}`;
    if (hop) said.push(`GET ${at}: ${got}`);
    else said[said.length - 1] += `: ${got}`;
    if (m) return { said, proof: m };
    if (!where || a.status < 300 || a.status > 399 || hop >= HOPS) break;
    at = where;
    a = await ask.send(at, { headers: jar.header() ? { Cookie: jar.header()! } : {} });
  }
  return { said, proof: null };
}

const cookieNames = (a: HttpAnswer) => a.setCookies.map((c) => c.split('=')[0]!.trim()).join(', ');

function fieldList(form: Form, row: FormLoginRow): string {
  const hidden = form.fields.filter((f) => f.type === 'hidden').map((f) => f.name);
  return `fields ${row.fields.user}, ${row.fields.password}${hidden.length ? `; hidden ${hidden.slice(0, 4).join(', ')}` : ''}`;
}

async function tryRow(ask: Asker, address: string, row: FormLoginRow, path: string): Promise<Found | null> {
  for (const [user, password] of row.pairs) {
    const t = await submit(ask, address, row, path, user, password);
    if (!t) return null; // no form this time, or the server went away: no more tries
    if (t.proof)
      return {
        detail: `${t.said.join('; ')} showing "${quote(t.proof)}": logged in to ${row.product}.`,
        title: `Default credentials accepted: ${row.product}`,
        risk: row.risk,
      };
  }
  return null;
}

/** Each form product once (its shipped and guessed rows share paths and proof): what admin-open asks. */
export const FORM_PRODUCTS = [...new Map(FORM_LOGINS.map((r) => [r.product, r])).values()];

/**
 * The form rows of one kind (`shipped` for vendor-default-login.ts, the
 * guesses for default-credentials.ts) on one port: each product on the
 * first of its paths whose page is its login page.
 */
export async function formLogins(ask: Asker, address: string, rows: 'shipped' | 'guessed'): Promise<Found[]> {
  const out: Found[] = [];
  for (const row of FORM_LOGINS) {
    if ((rows === 'shipped') !== !!row.shipped) continue;
    for (const path of row.paths) {
      const bare = await ask.bare(path);
      if (bare?.status !== 200 || !row.page.test(text(bare))) continue;
      // A marker the login page carries proves nothing (and a page logged in for anyone is no password's doing).
      if (row.proof.test(text(bare))) break;
      const f = await tryRow(ask, address, row, path);
      if (f) out.push(f);
      break;
    }
  }
  return out;
}
