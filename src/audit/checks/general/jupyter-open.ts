import { defineCheck } from '../kit.ts';
import { httpRequest, isHttpService, usesTls } from '../../proto/http.ts';
import { asRecord, bodyJson, getJson } from '../../proto/http-json.ts';
import { shown } from '../../proto/talk.ts';

/**
 * A Jupyter server (classic Notebook, Jupyter Server under JupyterLab,
 * Voilà, …: they share the REST API of jupyter_server/notebook) without a
 * token or password: GET /api/kernelspecs, which every authenticated API
 * handler guards, answered 200 with the kernel specs. The same API starts a
 * kernel (POST /api/kernels) and runs code in it over its websocket, so
 * the answer alone proves that anyone can run code as the server's user.
 * Never started here. With a token or password the handler answers 403
 * (Jupyter Server 2: 403 too, or a redirect to /login for pages).
 * GET /api (the version, public in every configuration) is read only to
 * name the product.
 */

export default defineCheck({
  id: 'vigil.jupyter.open',
  shortid: 'JUPYTER-OPEN',
  title: 'Jupyter server open without a token or password',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The Jupyter server's REST API answered without a token or password: anyone who reaches the port can start a kernel and run any code as the server's user, and read and write every file it can (notebooks, keys, credentials).",
  solution:
    'Keep token authentication on (never start it with --NotebookApp.token= / --ServerApp.token= empty and no password), set a password (jupyter notebook password / jupyter server password), bind it to 127.0.0.1 and reach it through SSH or an authenticating proxy (JupyterHub).',
  references: [
    'https://jupyter-server.readthedocs.io/en/latest/operators/security.html',
    'https://jupyter-notebook.readthedocs.io/en/stable/security.html',
  ],
  ports: { services: ['jupyter'], ports: [8888], where: isHttpService },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const specs = await httpRequest(net, port, tls, { target: '/api/kernelspecs', timeoutMs: 5000, maxBytes: 65536 });
    const body = specs?.status === 200 ? asRecord(bodyJson(specs)) : null;
    const kernels = body?.kernelspecs;
    if (!body || !kernels || typeof kernels !== 'object' || Array.isArray(kernels)) return null;
    const names = Object.keys(kernels);
    const version = asRecord(await getJson(net, port, tls, '/api'))?.version;
    const server = specs!.headers['server'];
    return `GET /api/kernelspecs was answered 200 with ${names.length} kernel spec${names.length === 1 ? '' : 's'}${names.length ? ` (${shown(names.slice(0, 6).join(', '), 80)}${typeof body.default === 'string' ? `; default ${shown(body.default, 30)}` : ''})` : ''} without a token or password${typeof version === 'string' ? `; GET /api names Jupyter ${shown(version, 20)}` : ''}${server ? ` (Server: ${shown(server, 40)})` : ''}.`;
  },
});
