import { randomBytes } from 'node:crypto';
import type { Found } from '../kit.ts';
import { defineCheck } from '../kit.ts';
import { type HttpAnswer, httpRequest, isHttpService, usesTls } from '../../proto/http.ts';

/**
 * Web servers and proxies configured through an HTTP API of their own: an
 * API that answers anyone lets anyone replace the server's configuration
 * (Caddy: POST /load; NGINX Unit: PUT /config; Envoy: POST /quitquitquit,
 * /runtime_modify). Only GETs are sent; proof is the running configuration
 * (or server state) in the product's own JSON shape, on a path a random
 * twin of which is not JSON of that shape (soft-200 servers).
 */
interface AdminApi {
  product: string;
  path: string;
  /** The JSON document proves the API. */
  proof: (doc: unknown) => string | null;
  /** What anyone can do with it, for the report. */
  can: string;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
/** Caddy's config document: only its top-level keys (caddyserver.com/docs/json/), `null` when it runs none. */
const CADDY_KEYS = new Set(['admin', 'logging', 'storage', 'apps']);

const APIS: readonly AdminApi[] = [
  {
    product: 'Caddy admin API',
    path: '/config/',
    proof: (doc) => {
      if (doc === null) return 'null (no configuration loaded)';
      if (!isObject(doc)) return null;
      const keys = Object.keys(doc);
      return keys.length && keys.every((k) => CADDY_KEYS.has(k))
        ? `the running configuration (keys ${keys.join(', ')})`
        : null;
    },
    can: 'POST /load on it replaces the whole configuration (new sites, reverse proxies, file servers of any directory)',
  },
  {
    // unit.nginx.org/controlapi: the /config section holds "listeners" and "applications" or "routes".
    product: 'NGINX Unit control API',
    path: '/config/',
    proof: (doc) =>
      isObject(doc) && isObject(doc['listeners']) && (isObject(doc['applications']) || 'routes' in doc)
        ? `the running configuration (listeners ${Object.keys(doc['listeners'] as object).length})`
        : null,
    can: 'PUT /config on it replaces the listeners and the applications Unit runs',
  },
  {
    // envoyproxy.io admin interface: GET /server_info is the ServerInfo message.
    product: 'Envoy admin interface',
    path: '/server_info',
    proof: (doc) =>
      isObject(doc) && isObject(doc['command_line_options']) && typeof doc['state'] === 'string'
        ? `the server state (${String(doc['state'])}, version ${String(doc['version'] ?? '?').slice(0, 40)})`
        : null,
    can: 'POST /quitquitquit, /drain_listeners and /runtime_modify on it stop or reconfigure the proxy',
  },
];

function json(a: HttpAnswer | null): { doc: unknown } | null {
  if (a?.status !== 200 || !/json/i.test(a.headers['content-type'] ?? '')) return null;
  try {
    return { doc: JSON.parse(a.raw.toString('utf8')) };
  } catch {
    return null; // cut short at maxBytes, or not JSON: nothing proven
  }
}

export default defineCheck({
  id: 'vigil.web.server-admin-api',
  shortid: 'WEB-ADMIN-API',
  title: 'Web server admin API open to anyone (Caddy, NGINX Unit, Envoy)',
  family: 'Web Servers',
  // GETs of the API's read endpoints only: nothing is changed.
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 95,
  description:
    "The web server's configuration API answers without authentication: whoever reaches it can read the running configuration and replace it, turning the server into a proxy or file server of their choosing, or stop it.",
  solution:
    'Keep the API on a Unix socket or loopback only (Caddy: `admin unix//run/caddy-admin.sock` or `admin off`; NGINX Unit: the default control socket; Envoy: admin on 127.0.0.1 or a socket), never on an address others reach.',
  references: ['https://caddyserver.com/docs/api', 'https://unit.nginx.org/controlapi/'],
  ports: { where: isHttpService, ports: [2019, 9901] },
  async run({ net, service, port }): Promise<Found[]> {
    const tls = !!service && usesTls(service);
    // One GET a path: Caddy's and NGINX Unit's rows both read /config/.
    const asked = new Map<string, Promise<HttpAnswer | null>>();
    const get = (path: string) => {
      if (!asked.has(path))
        asked.set(
          path,
          httpRequest(net, port, tls, { target: path, timeoutMs: 4000, maxBytes: 262144 }).catch(() => null),
        );
      return asked.get(path)!;
    };
    const out: Found[] = [];
    for (const api of APIS) {
      const got = json(await get(api.path));
      const said = got && api.proof(got.doc);
      if (!said) continue;
      const twin = json(await get(`/vigil-${randomBytes(6).toString('hex')}${api.path.endsWith('/') ? '/' : ''}`));
      if (twin && api.proof(twin.doc)) continue; // the same JSON for any path: nothing proven
      out.push({
        detail: `GET ${api.path} without credentials: HTTP 200 with ${said}, while a random path did not answer so: the ${api.product} answers anyone; ${api.can}.`,
        title: `Admin API open to anyone: ${api.product}`,
      });
      break; // one API per port
    }
    return out;
  },
});
