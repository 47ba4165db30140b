import { defineCheck } from '../kit.ts';
import type { Service } from '../../engine/types.ts';
import { httpRequest, isHttpService, usesTls } from '../../proto/http.ts';
import { CookieJar } from '../../proto/http-form.ts';
import { asRecord, bodyJson } from '../../proto/http-json.ts';
import { shown } from '../../proto/talk.ts';
import { masked } from './lib/form-login.ts';

/**
 * Grafana still on its shipped administrator, admin/admin (conf/defaults.ini
 * [security] admin_user and admin_password, which Grafana's documentation
 * names as the first login). Grafana is a single-page application: its
 * login is JSON (POST /login {"user","password"}: 200 "Logged in" with a
 * grafana_session cookie, 401 "Invalid username or password"), not an HTML
 * form, so it is not a row of data/web-form-logins.ts. Identified first by
 * GET /api/health (`database` and, since 5.x, `version`, answered without
 * login). Proof: GET /api/user with the session's cookie answers the
 * account (login, isGrafanaAdmin), which no login page carries; the session
 * is ended again (GET /logout). One login, the product's documented
 * default: safe, as vendor-default-login.ts's shipped pairs. Grafana is not
 * in Debian 12: the test replays its documented answers on loopback.
 */
const USER = 'admin';
const PASSWORD = 'admin';

/** Grafana's port (3000), or a site whose GET / sends the browser to /login, or names Grafana. */
const grafanaCandidate = (s: Service) =>
  isHttpService(s) &&
  (s.port === 3000 ||
    /^(?:\/[\w-]+)?\/login$/.test(s.http?.headers.location ?? '') ||
    /grafana/i.test(s.http?.body ?? ''));

export default defineCheck({
  id: 'vigil.grafana.default-login',
  shortid: 'GRAFANA-DEFAULT',
  title: 'Grafana accepts its shipped administrator password (admin/admin)',
  family: 'Web Servers',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "Grafana still accepts the administrator account it ships with (admin, password admin): anyone who reaches it is a Grafana server admin, who reads every dashboard and the data sources' queries, adds users and API keys, and edits data sources (their URLs and stored credentials: a way into the databases behind them).",
  solution:
    'Change the admin password (grafana-cli admin reset-admin-password, or admin_password in grafana.ini before the first start), disable the account if SSO is used, and let only users\u2019 networks reach Grafana, over HTTPS.',
  references: ['https://grafana.com/docs/grafana/latest/setup-grafana/sign-in-to-grafana/'],
  ports: { ports: [3000], where: grafanaCandidate },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const ask = (method: string, target: string, headers: Record<string, string> = {}, body?: string) =>
      httpRequest(net, port, tls, { method, target, headers, body, timeoutMs: 8000, maxBytes: 32768 });
    const health = asRecord(bodyJson(await ask('GET', '/api/health')));
    if (!health || typeof health.database !== 'string') return null;
    const version = typeof health.version === 'string' ? health.version : null;
    const body = JSON.stringify({ user: USER, password: PASSWORD });
    const login = await ask('POST', '/login', { 'Content-Type': 'application/json' }, body);
    if (login?.status !== 200) return null;
    const jar = new CookieJar();
    jar.take(login.setCookies);
    const cookie = jar.header();
    if (!cookie) return null;
    const user = await ask('GET', '/api/user', { Cookie: cookie });
    const me = user?.status === 200 ? asRecord(bodyJson(user)) : null;
    if (typeof me?.login !== 'string') return null;
    await ask('GET', '/logout', { Cookie: cookie });
    const said = shown(String(asRecord(bodyJson(login))?.message ?? ''), 40);
    return `Grafana${version ? ` ${shown(version, 20)}` : ''} (GET /api/health): POST /login with {"user":"${USER}","password":${masked(PASSWORD)}} was answered 200${said ? ` "${said}"` : ''} setting ${jar.names().join(', ')}; GET /api/user with that session answered login "${shown(me.login, 40)}"${me.isGrafanaAdmin === true ? ', isGrafanaAdmin true' : ''}. The session was ended again (GET /logout).`;
  },
});
