import { defineCheck } from '../kit.ts';
import { isHttpService, usesTls } from '../../proto/http.ts';
import { registryBase, registryUploadAndCancel } from '../../proto/registry.ts';

/**
 * A container registry that opens an upload for anyone: POST
 * /v2/vigil-scanner-test/blobs/uploads/ answered 202 with an upload
 * location, which is cancelled at once (DELETE). No blob or manifest is
 * written, but an upload session is state on the registry, and Docker's
 * registry 2.8 keeps the cancelled upload's directory with a hash-state
 * file (measured) until its upload purging (maintenance.uploadpurging,
 * uploads older than a week): intrusive.
 */
const REPOSITORY = 'vigil-scanner-test';

export default defineCheck({
  id: 'vigil.registry.push',
  shortid: 'REGISTRY-PUSH',
  title: 'Container registry accepts pushes from anyone',
  family: 'General',
  categories: ['intrusive', 'auth'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The container registry opened an image upload for a client without credentials: anyone who reaches it can push images and overwrite the tags that builds and deployments pull, which runs their code wherever those images run. The test upload (repository vigil-scanner-test) was cancelled at once, with no data: Docker's registry still keeps a small directory of it until its upload purging removes it (a week by default).",
  solution:
    'Configure authentication for pushes (Docker registry: the auth: htpasswd or token section of config.yml; read-only mirrors: storage maintenance readonly), serve it over TLS, and let only build hosts reach it.',
  references: ['https://github.com/opencontainers/distribution-spec/blob/main/spec.md#push'],
  ports: { services: ['docker-registry'], ports: [5000], where: isHttpService },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    if (!(await registryBase(net, port, tls))) return null;
    const u = await registryUploadAndCancel(net, port, tls, REPOSITORY);
    if (!u) return null;
    return `${u.started} with an upload location (${u.location}${u.uuid ? `, Docker-Upload-UUID ${u.uuid}` : ''}) without credentials; DELETE of that location answered ${u.cancelled ?? 'nothing'}, cancelling the upload.`;
  },
});
