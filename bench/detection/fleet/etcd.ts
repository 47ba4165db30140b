/**
 * Debian etcd-server (etcd 3.4), one single-member cluster per address in
 * the foreground; the peer listener is put on 127.0.0.1 (a port of its
 * own), out of the scanned addresses.
 * Weak: the client API on plain HTTP with authentication off (etcd's
 * default): the v3 gRPC gateway answers POST /v3/kv/range to anyone (a key
 * is put first so that there is something to read), and /metrics beside
 * it. Twin: client certificates required (--client-cert-auth, a bench CA):
 * no handshake without one, for the API and the metrics alike. Not
 * `etcdctl auth enable`: with auth on, etcd still serves /metrics and
 * /version to anyone, and the metrics endpoint would be a true finding on
 * the twin.
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import { addr, type Daemon } from './kit.ts';

const K = 35;
const A = (n: number) => addr(K, n);
const PORT = 2379;

export const ETCD: Daemon = {
  kind: 'etcd',
  binaries: ['etcd'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'etcd-noauth',
      family: 'auth',
      label: 'etcd client API without authentication (v3 KV range answered)',
      daemon: 'etcd',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.db\.http-api-open$/ },
      // nmap has no etcd script; its docker probe (GET /version on 2379) does not match etcd's answer.
      nmap: () => null,
    },
    {
      id: 'etcd-metrics-open',
      family: 'web',
      label: 'etcd Prometheus metrics open to anyone (/metrics on the client port)',
      daemon: 'etcd',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.metrics-exposed$/ },
      nmap: () => null,
    },
  ],
  twins: [{ address: A(100), note: 'client certificates required (--client-cert-auth, trusted CA)' }],
  async start(ctx) {
    for (const [n, open] of [
      [1, true],
      [100, false],
    ] as const) {
      const address = A(n);
      const dir = ctx.dir(address);
      const scheme = open ? 'http' : 'https';
      const peer = `http://127.0.0.1:${23_800 + n}`;
      const tls: string[] = [];
      if (!open) {
        const pem = await leaf(address);
        const ca = pem.cert.slice(pem.cert.indexOf('-----END CERTIFICATE-----') + 26).trim();
        tls.push(
          '--cert-file',
          ctx.write(join(dir, 'server.pem'), pem.cert),
          '--key-file',
          ctx.write(join(dir, 'server.key'), pem.key, 0o600),
          '--client-cert-auth',
          '--trusted-ca-file',
          ctx.write(join(dir, 'ca.pem'), `${ca}\n`),
          // Go 1.19's defaults still end with 3DES (SWEET32): a hardened twin names its suites.
          '--cipher-suites',
          'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305',
        );
      }
      const child = ctx.spawn(`etcd-${address}`, 'etcd', [
        '--name',
        `bench${n}`,
        '--data-dir',
        join(dir, 'data'),
        '--listen-client-urls',
        `${scheme}://${address}:${PORT}`,
        '--advertise-client-urls',
        `${scheme}://${address}:${PORT}`,
        '--listen-peer-urls',
        peer,
        '--initial-advertise-peer-urls',
        peer,
        '--initial-cluster',
        `bench${n}=${peer}`,
        ...tls,
      ]);
      await ctx.waitTcp(address, PORT, child, 60_000);
      if (open) {
        // Something to read: a key an application would keep there (base64 in the v3 JSON gateway).
        const b64 = (s: string) => Buffer.from(s).toString('base64');
        const r = await fetch(`http://${address}:${PORT}/v3/kv/put`, {
          method: 'POST',
          body: JSON.stringify({ key: b64('/app/db/password'), value: b64('bench-not-a-secret') }),
        });
        if (!r.ok) throw new Error(`etcd put: HTTP ${r.status}`);
      }
    }
  },
};
