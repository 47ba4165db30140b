import { defineCheck } from '../kit.ts';
import type { Service } from '../../engine/types.ts';
import { isHttpService, usesTls } from '../../proto/http.ts';
import { shown } from '../../proto/talk.ts';
import { ask, GO_NOT_FOUND, HTTP_STORES } from './lib/http-stores.ts';

/** The stores' usual ports: etcd clients 2379, InfluxDB 8086, CouchDB 5984. */
const STORE_PORTS = [2379, 8086, 5984];

/**
 * A port worth asking: one a store already named itself on (detection's
 * GET /), a store's usual port, or a Go server answering GET / with Go's
 * bare 404 (etcd, InfluxDB, Consul … have no page at /). Other web servers
 * are left alone, so this check costs nothing on an ordinary site.
 */
export const httpStoreCandidate = (s: Service) =>
  isHttpService(s) &&
  (STORE_PORTS.includes(s.port) ||
    (!!s.http && (GO_NOT_FOUND.test(s.http.body) || HTTP_STORES.some((x) => x.seen(s.http!)))));

export default defineCheck({
  id: 'vigil.db.http-api-open',
  shortid: 'DB-HTTP-OPEN',
  title: 'Data store HTTP API answers without authentication',
  family: 'Databases',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The data store's HTTP API (etcd, InfluxDB, CouchDB) answered a read of its contents without any credentials: anyone who reaches the port can read every key or database, and the same API writes and deletes them (etcd often holds a cluster's secrets and configuration).",
  solution:
    'Turn authentication on (etcd: add a root user and run `etcdctl auth enable`, or require client certificates with --client-cert-auth; InfluxDB: auth-enabled = true in [http] with an admin user; CouchDB: an admin account and require_valid_user), and let only application hosts reach the port.',
  references: [
    'https://etcd.io/docs/v3.5/op-guide/authentication/rbac/',
    'https://docs.influxdata.com/influxdb/v1/administration/authentication_and_authorization/',
  ],
  ports: { services: ['etcd-client', 'etcd', 'influxdb', 'couchdb'], ports: STORE_PORTS, where: httpStoreCandidate },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    for (const store of HTTP_STORES) {
      let version = service?.http ? store.identify.version(service.http) : null;
      let how = 'GET /';
      if (!service?.http || !store.seen(service.http)) {
        // Detection's own GET / already said it is not this product: no second GET / to ask it again.
        if (service?.http && store.identify.target === '/') continue;
        how = `${store.identify.method ?? 'GET'} ${store.identify.target}`;
        const a = await ask(net, port, tls, store.identify);
        version = a && store.identify.version(a);
        if (version === null) continue;
      }
      for (const proof of store.proofs) {
        const a = await ask(net, port, tls, proof);
        const evidence = a && proof.evidence(a);
        if (evidence)
          return `${store.product}${version ? ` ${shown(version, 20)}` : ''} (named by ${how}): ${evidence}.`;
      }
      return null; // named itself but kept its data: a second product on one port is not looked for
    }
    return null;
  },
});
