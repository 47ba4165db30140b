import { defineCheck } from '../kit.ts';
import { get, maskEnv, notHtml } from './lib/probes.ts';
import { isHttpService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.env-exposed',
  shortid: 'HTTP-ENV',
  title: 'Environment file exposed (/.env)',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  description: 'The web root serves a .env file, which usually holds database passwords and API keys.',
  solution:
    'Move the .env file out of the web root or deny it in the server configuration, and rotate the secrets it held.',
  ports: { where: isHttpService },
  async run({ net, service }) {
    const svc = service!;
    const a = await get(net, svc, '/.env');
    if (!a || a.status !== 200 || !notHtml(a)) return null;
    const keys = a.body.split(/\r?\n/).filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l));
    return keys.length >= 2 ? `/.env is readable (${keys.length} settings, e.g. ${maskEnv(a.body)}).` : null;
  },
});
