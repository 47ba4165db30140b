import type { Found, Target } from '../../kit.ts';
import type { HttpAnswer } from '../../../proto/http.ts';
import { describeChallenge } from '../../../proto/http-auth.ts';
import { type Asker, asker, controlPassword, type Recognised, eachRecognised, quote, text } from './admin-pages.ts';
import { formLogins, masked } from './form-login.ts';

/**
 * Default credentials on web admin pages (data/web-admin-defaults.ts):
 * only on a product recognised by its 401 (realm, Server header), only
 * its own few default pairs, stopping at the first that works. A login
 * counts only on proof: the logged-in page's marker, or for the generic
 * realm a 200 where a random password is still refused.
 */
const challenge = (r: Recognised) =>
  `HTTP 401 (WWW-Authenticate: ${describeChallenge(r.challenge)}${r.bare.headers['server'] ? `, Server: ${r.bare.headers['server'].slice(0, 40)}` : ''})`;

async function tryPage(ask: Asker, r: Recognised): Promise<Found | null> {
  const { page } = r;
  for (const [user, password] of page.pairs) {
    const a = await ask.login(page.path, user, password, r.challenge);
    if (!a) return null; // the server went away: no more tries
    const said = `GET ${page.path} without credentials: ${challenge(r)}; with user "${user}" and password ${masked(password)} (${page.source}): HTTP ${a.status}`;
    if (a.status === 200 && page.proof) {
      const m = page.proof.exec(text(a));
      if (m) return found(r, `${said} showing "${quote(m)}": logged in to the ${page.product}.`);
      continue;
    }
    if (a.status === 200) {
      // No product marker: the same user with a random password must still be refused.
      const control = await ask.login(page.path, user, controlPassword(), r.challenge);
      if (control?.status === 401)
        return found(
          r,
          `${said}, while the same user with a random password got HTTP 401 again: the default password opens the ${page.product}.`,
        );
      return null; // lets anyone in: not a matter of passwords (nothing proven here)
    }
    if (a.status === 403) {
      // Authenticated, without the role for this page: its other pages of the same realm.
      const other = await otherPages(ask, r, user, password);
      if (other) return found(r, `${said} (authenticated, no role for it); ${other}`);
    }
  }
  return null;
}

async function otherPages(ask: Asker, r: Recognised, user: string, password: string): Promise<string | null> {
  for (const o of r.page.also ?? []) {
    // A page that answers anyone proves no password (vigil.web.admin-open reports it).
    if ((await ask.bare(o.path))?.status === 200) continue;
    const a: HttpAnswer | null = await ask.login(o.path, user, password, r.challenge);
    const m = a?.status === 200 ? o.proof.exec(text(a)) : null;
    if (m) return `GET ${o.path} with the same pair: HTTP 200 showing "${quote(m)}": logged in to ${o.what}.`;
  }
  return null;
}

const found = (r: Recognised, detail: string): Found => ({
  detail,
  title: `Default credentials accepted: ${r.page.product}`,
  risk: r.page.risk,
});

/**
 * The run of both login checks: `shipped` rows (the product's own default, one login: vendor-default-login.ts)
 * or the guessed ones (tutorial pairs and the generic realm: default-credentials.ts), HTTP authentication's
 * rows first, then the HTML login forms' (lib/form-login.ts).
 */
export function loginRun(rows: 'shipped' | 'guessed') {
  return async ({ net, service, port }: Target): Promise<Found[]> => {
    const ask = asker(net, port, service);
    const out: Found[] = [];
    await eachRecognised(
      ask,
      service,
      async (r) => {
        const f = await tryPage(ask, r);
        if (f) out.push(f);
      },
      rows,
    );
    out.push(...(await formLogins(ask, net.address, rows)));
    return out;
  };
}
