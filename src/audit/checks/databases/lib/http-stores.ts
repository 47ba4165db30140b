/**
 * Data stores whose API is HTTP and JSON, and what proves one open: per
 * product, how it names itself (in detection's GET / answer, or to one
 * request of its own) and one read that only an unauthenticated client
 * could not make. Adding a product is one row. Elasticsearch has its own
 * check (vigil.elasticsearch.open).
 */
import type { HttpInfo, Net } from '../../../engine/types.ts';
import { type HttpAnswer, httpRequest } from '../../../proto/http.ts';
import { shown } from '../../../proto/talk.ts';

interface Request {
  method?: string;
  target: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface HttpStore {
  product: string;
  /** Detection's GET / already names the product. */
  seen(h: HttpInfo): boolean;
  /** Else one request that names it: its version, or null. */
  identify: Request & { version(a: HttpInfo): string | null };
  /** Reads tried in order; the first that answers with data is the proof (its evidence), else null. */
  proofs: (Request & { evidence(a: HttpAnswer): string | null })[];
}

const json = (a: HttpAnswer): unknown => {
  try {
    return JSON.parse(a.raw.toString('utf8'));
  } catch {
    return null;
  }
};
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const names = (list: unknown[]) =>
  list.length ? `: ${shown(list.slice(0, 8).map(String).join(', '), 120)}${list.length > 8 ? ', …' : ''}` : '';

/**
 * etcd v3 range over every key ("\0" to "\0" is the whole keyspace), keys only, five at most; serializable,
 * so the member answers from its own store without a Raft round (a read that cannot stall on a busy cluster).
 */
const RANGE_ALL = JSON.stringify({ key: 'AA==', range_end: 'AA==', keys_only: true, limit: 5, serializable: true });
const etcdRange = (target: string) => ({
  method: 'POST',
  target,
  body: RANGE_ALL,
  headers: { 'Content-Type': 'application/json' },
  evidence(a: HttpAnswer) {
    const r = obj(json(a));
    const header = obj(r.header);
    if (a.status !== 200 || header.revision === undefined) return null;
    const keys = Array.isArray(r.kvs)
      ? r.kvs.map((kv) => Buffer.from(String(obj(kv).key ?? ''), 'base64').toString('utf8'))
      : [];
    return `POST ${target} for every key (keys only) was answered 200 without credentials: count ${Number(r.count ?? 0)}, revision ${shown(String(header.revision), 20)}${names(keys)}`;
  },
});

export const HTTP_STORES: readonly HttpStore[] = [
  {
    product: 'etcd',
    seen: (h) => /"etcdserver"\s*:/.test(h.body),
    identify: {
      target: '/version',
      version: (a) => (a.status === 200 ? (/"etcdserver"\s*:\s*"([^"]{1,20})"/.exec(a.body)?.[1] ?? null) : null),
    },
    // The gRPC gateway's path moved: /v3 (3.4+), /v3beta (3.3), /v3alpha (3.2); v2 is /v2/keys.
    proofs: [
      etcdRange('/v3/kv/range'),
      etcdRange('/v3beta/kv/range'),
      {
        target: '/v2/keys/',
        evidence: (a) => {
          const node = obj(obj(json(a)).node);
          if (a.status !== 200 || node.dir !== true) return null;
          const keys = Array.isArray(node.nodes) ? node.nodes.map((n) => obj(n).key) : [];
          return `GET /v2/keys/ was answered 200 without credentials${names(keys)}`;
        },
      },
    ],
  },
  {
    product: 'InfluxDB',
    seen: (h) => 'x-influxdb-version' in h.headers,
    identify: { target: '/ping', version: (a) => a.headers['x-influxdb-version'] ?? null },
    proofs: [
      {
        target: '/query?q=SHOW%20DATABASES',
        evidence: (a) => {
          const series = obj(
            (obj((obj(json(a)).results as unknown[] | undefined)?.[0]).series as unknown[] | undefined)?.[0],
          );
          if (a.status !== 200 || series.name !== 'databases') return null;
          const dbs = Array.isArray(series.values) ? series.values.map((v) => (Array.isArray(v) ? v[0] : v)) : [];
          return `GET /query?q=SHOW DATABASES was answered 200 without credentials with ${dbs.length} database(s)${names(dbs)}`;
        },
      },
    ],
  },
  {
    product: 'CouchDB',
    seen: (h) => /"couchdb"\s*:\s*"Welcome"/.test(h.body),
    identify: {
      target: '/',
      version: (a) =>
        /"couchdb"\s*:\s*"Welcome"/.test(a.body) ? (/"version"\s*:\s*"([^"]{1,20})"/.exec(a.body)?.[1] ?? '?') : null,
    },
    // CouchDB 3 answers 401 to anyone but an admin here (admin_only_all_dbs); 1.x/2.x "admin party" answers.
    proofs: [
      {
        target: '/_all_dbs',
        evidence: (a) => {
          const list = json(a);
          return a.status === 200 && Array.isArray(list)
            ? `GET /_all_dbs was answered 200 without credentials with ${list.length} database(s)${names(list)}`
            : null;
        },
      },
    ],
  },
];

/** Go's net/http 404 body: etcd, InfluxDB, Consul and other Go stores answer GET / with it. */
export const GO_NOT_FOUND = /^404 page not found\s*$/;

/**
 * 8 s, not 4: one advanced bench run at load 22 on the 2-core VM missed etcd while the metrics check
 * read the same port, the likeliest cause a 4 s read running out. Bounded all the same.
 */
export const ask = (net: Net, port: number, tls: boolean, r: Request) =>
  httpRequest(net, port, tls, { ...r, timeoutMs: 8000, maxBytes: 32768 });
