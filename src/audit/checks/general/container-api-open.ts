import { defineCheck } from '../kit.ts';
import { isHttpService, usesTls } from '../../proto/http.ts';
import { asRecord as obj, getJson } from '../../proto/http-json.ts';
import { shown } from '../../proto/talk.ts';

/**
 * The Docker Engine API (and the Docker-compatible API of Podman's
 * `podman system service`) served over TCP without TLS client
 * authentication (dockerd -H tcp://0.0.0.0:2375):
 * GET /version answered with ApiVersion and the engine's version, and
 * GET /containers/json with the running containers. The same API starts a
 * privileged container with the host's / mounted: root on the host for
 * anyone. Only those two reads are sent; a daemon with --tlsverify refuses
 * a client without a certificate during the handshake.
 */
export default defineCheck({
  id: 'vigil.docker.api-open',
  shortid: 'DOCKER-API-OPEN',
  title: 'Container engine API (Docker, Podman) open without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The container engine's remote API answered without client authentication: anyone who reaches the port can start a privileged container with the host's file system mounted, which is root on the host, and can read every container's environment (often passwords and keys).",
  solution:
    'Do not expose the API over TCP (remove -H tcp://… from dockerd, "hosts" from daemon.json, or `podman system service tcp:…`); where remote access is needed use SSH (DOCKER_HOST=ssh://…) or --tlsverify with client certificates on port 2376.',
  references: ['https://docs.docker.com/engine/security/protect-access/'],
  ports: { services: ['docker'], ports: [2375, 2376], where: isHttpService },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const v = obj(await getJson(net, port, tls, '/version'));
    const api = v?.ApiVersion;
    const version = v?.Version;
    if (typeof api !== 'string' || typeof version !== 'string' || !/^\d+\.\d+/.test(api)) return null;
    const platform = obj(v!.Platform)?.Name;
    const parts: unknown = v!.Components;
    const components = Array.isArray(parts)
      ? parts.map((c) => obj(c)?.Name).filter((n): n is string => typeof n === 'string')
      : [];
    const engine = typeof platform === 'string' && platform ? platform : (components[0] ?? 'engine');
    const list = await getJson(net, port, tls, '/containers/json', 262144);
    const running = Array.isArray(list) ? list.length : null;
    return `GET /version was answered with ApiVersion ${shown(api, 10)}, Version ${shown(version, 30)} (${shown(engine, 40)})${running !== null ? ` and GET /containers/json with ${running} running container${running === 1 ? '' : 's'}` : ''}, without client authentication.`;
  },
});
