import { defineCheck } from '../kit.ts';
import { isHttpService, usesTls } from '../../proto/http.ts';
import { registryBase, registryCatalog } from '../../proto/registry.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A container registry (the OCI distribution API: Docker's registry,
 * Harbor, GitLab, Nexus, Artifactory, Quay) that lets anyone in: GET /v2/
 * answered 200 without credentials and /v2/_catalog listing its
 * repositories. A HOLE, medium: every image can be pulled (images carry
 * code, and often keys and passwords), and the catalog is the private
 * inventory (public registries such as Docker Hub refuse it). Docker's own
 * registry without `auth` takes pushes from anyone too, which only the
 * intrusive vigil.registry.push proves. One GET /v2/ per web port.
 */
export default defineCheck({
  id: 'vigil.registry.open',
  shortid: 'REGISTRY-OPEN',
  title: 'Container registry open without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 99,
  description:
    'The container registry answers its API without credentials and lists its repositories: anyone who reaches it can pull every image (application code, and the keys and passwords images often contain), and a registry without authentication usually accepts pushes too, which replace the images deployments pull.',
  solution:
    'Configure authentication (Docker registry: the auth: htpasswd or token section of config.yml; Harbor, GitLab, Nexus: turn anonymous access off), serve it over TLS, and let only build and deploy hosts reach it.',
  references: [
    'https://distribution.github.io/distribution/about/configuration/#auth',
    'https://github.com/opencontainers/distribution-spec/blob/main/spec.md',
  ],
  ports: { services: ['docker-registry'], ports: [5000], where: isHttpService },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const base = await registryBase(net, port, tls);
    if (!base) return null;
    const cat = await registryCatalog(net, port, tls);
    if (!cat) return null;
    const api = base.headers['docker-distribution-api-version'];
    const names = cat.repositories;
    return `GET /v2/ was answered 200${api ? ` (Docker-Distribution-Api-Version: ${shown(api, 30)})` : ''} and GET /v2/_catalog listed ${names.length} repositor${names.length === 1 ? 'y' : 'ies'}${names.length ? ` (${shown(names.slice(0, 8).join(', '), 120)}${names.length > 8 ? ', …' : ''})` : ''}, without credentials.`;
  },
});
