/**
 * Debian docker-registry (the distribution registry), K = 70 (N = 2 and
 * 102, beside varnish), in the foreground. A repository `app` is laid out
 * in its storage so that the catalog lists something. Weak: no `auth`
 * section (the registry's default: pulls and pushes from anyone). Twin:
 * htpasswd auth (401 with a Basic challenge on /v2/).
 */
import { registryConf } from '../../../test/helpers/ops-daemons.ts';
import { addr, none, type Daemon } from './kit.ts';

const K = 70;
const A = (n: number) => addr(K, n);
const PORT = 5000;

export const DOCKER_REGISTRY: Daemon = {
  kind: 'docker-registry',
  binaries: ['docker-registry', 'htpasswd'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'registry-open',
      family: 'auth',
      label: 'container registry without authentication (catalog listed, pushes accepted)',
      daemon: 'docker-registry',
      address: A(2),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.registry\.(open|push)$/ },
      // nmap -sV names "Docker Registry (API: 2.0)"; none of its http-* scripts reads /v2/_catalog or uploads.
      nmap: none,
    },
  ],
  twins: [{ address: A(102), note: 'htpasswd auth' }],
  async start(ctx) {
    for (const [n, auth] of [
      [2, false],
      [102, true],
    ] as const) {
      const { conf } = registryConf(ctx.dir(`registry-${n}`), A(n), PORT, auth);
      const child = ctx.spawn(`docker-registry-${A(n)}`, 'docker-registry', ['serve', conf]);
      await ctx.waitTcp(A(n), PORT, child);
    }
  },
};
