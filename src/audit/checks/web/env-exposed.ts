import { defineCheck } from '../kit.ts';
import { maskEnv, notHtml, provenGet } from './lib/probes.ts';
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
    // Two or more NAME=value lines, not a page, and not what a random dot-file of the server answers (lib/probes.ts).
    const a = await provenGet(net, service!, '/.env', (x) => notHtml(x) && settings(x.body).length >= 2);
    return a ? `/.env is readable (${settings(a.body).length} settings, e.g. ${maskEnv(a.body)}).` : null;
  },
});

const settings = (body: string) => body.split(/\r?\n/).filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l));
