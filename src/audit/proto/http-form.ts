/**
 * HTML forms and cookies, as a browser submitting a login form handles
 * them (HTML Living Standard §4.10.21 "form submission", RFC 6265 for the
 * cookies): the fields of a form with their values, hidden ones included
 * (the anti-CSRF tokens of phpMyAdmin, Cacti's csrf-magic, Zabbix's), the
 * urlencoded body, the cookies a server set, and where a redirect goes.
 */

export interface FormField {
  name: string;
  value: string;
  type: string;
}

export interface Form {
  /** The action attribute as written ('' when absent: the page itself). */
  action: string;
  method: string;
  fields: FormField[];
}

/** &amp; &quot; &#39; &#x27; &lt; &gt; and numeric references: what attribute values carry. */
export function decodeEntities(s: string): string {
  const named: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: '\u00a0' };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m;
    }
    return named[e.toLowerCase()] ?? m;
  });
}

/** The attributes of one start tag (`<input type="hidden" name=x value='y' disabled>`), names in lower case. */
export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const body = tag.replace(/^<\s*[\w-]+/, '').replace(/\/?>$/, '');
  for (const m of body.matchAll(/([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    const name = m[1]!.toLowerCase();
    if (!(name in out)) out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

/**
 * The forms of a page, each with the fields a submission sends: inputs
 * (not unchecked boxes, not buttons or images, which only the one clicked
 * sends), selects (their selected option, else the first) and textareas.
 * Submit buttons are listed with type `submit` so that a caller can send
 * the one a user would click.
 */
export function parseForms(html: string): Form[] {
  const forms: Form[] = [];
  for (const m of html.matchAll(/<form\b[^>]*>([\s\S]*?)(?:<\/form\s*>|(?=<form\b)|$)/gi)) {
    const head = attributes(/^<form\b[^>]*>/i.exec(m[0])![0]);
    const fields: FormField[] = [];
    const inner = m[1] ?? '';
    for (const t of inner.matchAll(/<(input|button|select|textarea)\b[^>]*>/gi)) {
      const a = attributes(t[0]);
      if (!a['name'] || 'disabled' in a) continue;
      const kind = t[1]!.toLowerCase();
      if (kind === 'select') {
        const rest = inner.slice(t.index! + t[0].length);
        const options = /^([\s\S]*?)<\/select/i.exec(rest)?.[1] ?? '';
        const opts = [...options.matchAll(/<option\b[^>]*>/gi)].map((o) => attributes(o[0]));
        const chosen = opts.find((o) => 'selected' in o) ?? opts[0];
        fields.push({ name: a['name'], value: chosen?.['value'] ?? '', type: 'select' });
        continue;
      }
      if (kind === 'textarea') {
        const rest = inner.slice(t.index! + t[0].length);
        fields.push({
          name: a['name'],
          value: decodeEntities(/^([\s\S]*?)<\/textarea/i.exec(rest)?.[1] ?? ''),
          type: 'textarea',
        });
        continue;
      }
      const type = (a['type'] ?? (kind === 'button' ? 'submit' : 'text')).toLowerCase();
      if ((type === 'checkbox' || type === 'radio') && !('checked' in a)) continue;
      if (type === 'reset' || type === 'file' || type === 'image' || (kind === 'button' && type !== 'submit')) continue;
      fields.push({ name: a['name'], value: a['value'] ?? '', type });
    }
    forms.push({ action: head['action'] ?? '', method: (head['method'] ?? 'get').toLowerCase(), fields });
  }
  return forms;
}

/**
 * The urlencoded body of a submission (application/x-www-form-urlencoded):
 * every field but the submit buttons, then `values` over them, then the
 * first submit button (what pressing Enter in the password field sends).
 */
export function formBody(form: Form, values: Record<string, string>): string {
  const out = new Map<string, string>();
  for (const f of form.fields) if (f.type !== 'submit' && !out.has(f.name)) out.set(f.name, f.value);
  for (const [k, v] of Object.entries(values)) out.set(k, v);
  const submit = form.fields.find((f) => f.type === 'submit');
  if (submit && !out.has(submit.name)) out.set(submit.name, submit.value);
  return new URLSearchParams([...out]).toString();
}

/**
 * A path on the same server for a link, form action or Location (RFC 9110
 * §10.2.2: possibly relative to the page), or null when it leads to
 * another server: a login is only ever followed on the audited one.
 */
export function samePath(ref: string, base: string, address: string): string | null {
  const host = address.includes(':') ? `[${address}]` : address;
  let u: URL;
  try {
    u = new URL(decodeEntities(ref || base), `http://${host}${base}`);
  } catch {
    return null;
  }
  if (u.hostname !== host || !/^https?:$/.test(u.protocol)) return null;
  return u.pathname + u.search;
}

/** Cookies by name, as a browser keeps them for one site (attributes ignored: one short login conversation). */
export class CookieJar {
  private readonly jar = new Map<string, string>();
  /** Takes the Set-Cookie lines of an answer; a cookie set to an empty value or expired is dropped. */
  take(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';');
      const i = pair!.indexOf('=');
      if (i <= 0) continue;
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      const gone = attrs.some((a) => /^\s*max-age\s*=\s*(?:0|-\d+)\s*$/i.test(a)) || value === 'deleted';
      if (gone) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }
  names(): string[] {
    return [...this.jar.keys()];
  }
  /** The Cookie header value, or null when empty. */
  header(): string | null {
    return this.jar.size ? [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ') : null;
  }
}
