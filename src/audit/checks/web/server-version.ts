import { defineCheck } from '../kit.ts';
import { hasHttpAnswer } from './lib/pages.ts';

// Information, as scanners report it (OpenVAS "HTTP Server type and version", Nessus
// "HTTP Server Type and Version": log/info): a patched Debian Apache says
// "Apache/2.4.x (Debian)" by default, and a NOTE there was a false alarm.
export default defineCheck({
  id: 'vigil.http.server-version',
  shortid: 'HTTP-SERVER-VERSION',
  title: 'Web server discloses its version',
  family: 'Web Servers',
  categories: ['safe', 'passive', 'default'],
  risk: 'other',
  type: 'LOG',
  description: 'The Server header names the software and its version, which tells an attacker which exploits to try.',
  solution: 'Hide the version (Apache: ServerTokens Prod; nginx: server_tokens off).',
  ports: { where: hasHttpAnswer },
  async run({ service }) {
    const h = service?.http;
    if (!h) return null;
    return /\d+\.\d+/.test(h.headers['server'] ?? '') ? `Server: ${h.headers['server']!.slice(0, 200)}` : null;
  },
});
