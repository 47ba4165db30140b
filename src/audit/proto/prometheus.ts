/**
 * The HTTP APIs of the Prometheus stack (Prometheus, the Pushgateway,
 * Alertmanager, and the servers that copy Prometheus's API: Thanos,
 * Cortex, Mimir), which all answer JSON in one envelope,
 * `{"status":"success","data":…}` (Prometheus's api/v1, Pushgateway's
 * api/v1), or plain JSON (Alertmanager's api/v2). Their only access control
 * is exporter-toolkit's web.config (`basic_auth_users`, TLS client
 * certificates), which guards every path alike: an unauthenticated answer
 * on one path means one on all of them (checked on the three Debian
 * daemons: with basic_auth_users every path, / included, answers 401).
 *
 * GETs are shared per port and audit (the engine hands every check of a
 * host the same Net, engine/run.ts): the admin-API, lifecycle and
 * open-API checks read the same flags once.
 */
import type { Net } from '../engine/types.ts';
import { type HttpAnswer, httpRequest } from './http.ts';
import { asRecord, bodyJson } from './http-json.ts';

const shared = new WeakMap<Net, Map<string, Promise<HttpAnswer | null>>>();

/** GET `path`, once per port, TLS mode and audit (whichever check asks first); null on no answer. */
export function promGet(net: Net, port: number, tls: boolean, path: string): Promise<HttpAnswer | null> {
  let seen = shared.get(net);
  if (!seen) shared.set(net, (seen = new Map()));
  const answers = seen;
  const key = `${port}/${tls ? 'tls' : 'plain'} ${path}`;
  let a = answers.get(key);
  if (!a) {
    // 256 KB: a Prometheus with many jobs has a long configuration and target list (the detail quotes a few).
    // Only answers are shared: a request that got none is asked again by the next check (a loaded target).
    a = httpRequest(net, port, tls, { target: path, timeoutMs: 8000, maxBytes: 262_144 })
      .catch(() => null)
      .then((r) => {
        if (!r) answers.delete(key);
        return r;
      });
    answers.set(key, a);
  }
  return a;
}

/** The `data` of a `{"status":"success","data":…}` answer (HTTP 200), else undefined. */
export function envelope(a: HttpAnswer | null): unknown {
  if (a?.status !== 200) return undefined;
  const r = asRecord(bodyJson(a));
  return r?.status === 'success' && 'data' in r ? r.data : undefined;
}

/** A JSON object answered with HTTP 200, else null. */
export const okRecord = (a: HttpAnswer | null) => (a?.status === 200 ? asRecord(bodyJson(a)) : null);

export interface RunningFlags {
  /** Which component said so. */
  product: 'Prometheus' | 'Pushgateway';
  /** The request that answered. */
  via: string;
  flags: Record<string, string>;
  version: string | null;
}

const strings = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(asRecord(v) ?? {}).map(([k, x]) => [k, String(x)]));

/**
 * The command-line flags the server runs with, as it reports them to any
 * client it lets in: Prometheus's GET /api/v1/status/flags, the
 * Pushgateway's GET /api/v1/status (data.flags beside build_information).
 */
export async function runningFlags(net: Net, port: number, tls: boolean): Promise<RunningFlags | null> {
  const prom = asRecord(envelope(await promGet(net, port, tls, '/api/v1/status/flags')));
  // storage.tsdb.path or web.enable-admin-api: a Prometheus server's own flags, not any other JSON.
  if (prom && ('web.enable-admin-api' in prom || 'storage.tsdb.path' in prom)) {
    const build = asRecord(envelope(await promGet(net, port, tls, '/api/v1/status/buildinfo')));
    return {
      product: 'Prometheus',
      via: 'GET /api/v1/status/flags',
      flags: strings(prom),
      version: typeof build?.version === 'string' ? build.version : null,
    };
  }
  const pg = asRecord(envelope(await promGet(net, port, tls, '/api/v1/status')));
  const flags = asRecord(pg?.flags);
  if (pg && flags && asRecord(pg.build_information) && 'persistence.file' in flags) {
    const v = asRecord(pg.build_information)?.version;
    return {
      product: 'Pushgateway',
      via: 'GET /api/v1/status',
      flags: strings(flags),
      version: String(v ?? '') || null,
    };
  }
  return null;
}

/**
 * Pushgateway: PUT one metric group of the scanner's own name (a new group
 * replaces only a group of that exact grouping key, README "PUT method"),
 * then DELETE it again. A write, for intrusive checks only.
 */
export async function pushAndDelete(
  net: Net,
  port: number,
  tls: boolean,
  job: string,
): Promise<{ put: HttpAnswer; deleted: HttpAnswer | null } | null> {
  const path = `/metrics/job/${job}`;
  const body = `# TYPE ${job} untyped\n${job} 1\n`;
  const put = await httpRequest(net, port, tls, { method: 'PUT', target: path, body, timeoutMs: 8000 });
  if (!put || (put.status !== 200 && put.status !== 202)) return null;
  const deleted = await httpRequest(net, port, tls, { method: 'DELETE', target: path, timeoutMs: 8000 });
  return { put, deleted };
}

/**
 * Alertmanager API v2: a silence for a label that no alert carries
 * (`name`=`value`), from the server's own time (its Date header, so a
 * scanner's skewed clock cannot make it expire at once or last long) for
 * one minute, then expired again (DELETE /api/v2/silence/{id}). A write,
 * for intrusive checks only.
 */
export async function silenceAndExpire(
  net: Net,
  port: number,
  tls: boolean,
  matcher: { name: string; value: string },
  serverDate: Date,
): Promise<{ id: string; expired: HttpAnswer | null } | null> {
  const body = JSON.stringify({
    matchers: [{ ...matcher, isRegex: false, isEqual: true }],
    startsAt: serverDate.toISOString(),
    endsAt: new Date(serverDate.getTime() + 60_000).toISOString(),
    createdBy: 'vigil-scanner',
    comment: 'Vigil audit: proves that anyone can create silences; expired at once, matches no alert.',
  });
  const a = await httpRequest(net, port, tls, {
    method: 'POST',
    target: '/api/v2/silences',
    body,
    headers: { 'Content-Type': 'application/json' },
    timeoutMs: 8000,
  });
  const id = okRecord(a)?.silenceID;
  if (typeof id !== 'string' || !/^[\w-]{1,64}$/.test(id)) return null;
  const expired = await httpRequest(net, port, tls, {
    method: 'DELETE',
    target: `/api/v2/silence/${id}`,
    timeoutMs: 8000,
  });
  return { id, expired };
}

/**
 * The component a GET / answer names (detection's, Service.http): Prometheus
 * (and Thanos) redirect / to the query page (/graph, 2.x's /classic/graph,
 * 3.x's /query), the Pushgateway and Alertmanager serve their own titled
 * page. Null for anything else, and for a 401 (web.config's basic auth
 * names nothing).
 */
export function stackProduct(
  h: { status: number; headers: Record<string, string>; body: string } | null,
): string | null {
  if (!h) return null;
  if (
    h.status >= 300 &&
    h.status < 400 &&
    /^(?:\/[\w-]*)?\/(?:classic\/)?(?:graph|query)$/.test(h.headers.location ?? '')
  )
    return 'Prometheus';
  if (h.status !== 200) return null;
  if (/<title>\s*Prometheus Pushgateway\s*<\/title>/i.test(h.body)) return 'Prometheus Pushgateway';
  if (/<title>\s*Alertmanager\s*<\/title>/i.test(h.body)) return 'Prometheus Alertmanager';
  return null;
}

export interface AlertmanagerStatus {
  via: string;
  version: string | null;
  /** The configuration as the server prints it (its own Secret fields shown as <secret>). */
  yaml: string;
  /** Cluster state and peer count (API v2), or null. */
  cluster: { status: string; peers: number } | null;
  /** The answer's Date header, parsed: the server's own clock. */
  date: Date | null;
}

/**
 * Alertmanager's status, which it gives any client it lets in: GET
 * /api/v2/status (config.original, versionInfo, cluster), else the v1 API
 * that versions before 0.27 also serve (configYAML in the envelope).
 */
export async function alertmanagerStatus(net: Net, port: number, tls: boolean): Promise<AlertmanagerStatus | null> {
  const a = await promGet(net, port, tls, '/api/v2/status');
  const v2 = okRecord(a);
  const original = asRecord(v2?.config)?.original;
  const date = (x: HttpAnswer | null) => {
    const d = x?.headers.date ? new Date(x.headers.date) : null;
    return d && Number.isFinite(d.getTime()) ? d : null;
  };
  if (v2 && typeof original === 'string' && asRecord(v2.versionInfo)) {
    const c = asRecord(v2.cluster);
    return {
      via: 'GET /api/v2/status',
      version: String(asRecord(v2.versionInfo)?.version ?? '') || null,
      yaml: original,
      cluster: c ? { status: String(c.status ?? '?'), peers: Array.isArray(c.peers) ? c.peers.length : 0 } : null,
      date: date(a),
    };
  }
  const b = await promGet(net, port, tls, '/api/v1/status');
  const v1 = asRecord(envelope(b));
  if (v1 && typeof v1.configYAML === 'string' && asRecord(v1.versionInfo))
    return {
      via: 'GET /api/v1/status',
      version: String(asRecord(v1.versionInfo)?.version ?? '') || null,
      yaml: v1.configYAML,
      cluster: null,
      date: date(b),
    };
  return null;
}
