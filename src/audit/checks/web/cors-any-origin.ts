import { defineCheck } from '../kit.ts';
import { PROBE_ORIGIN } from './lib/policy.ts';
import { httpRequest, isHttpService, usesTls } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.cors-any-origin',
  shortid: 'HTTP-CORS',
  title: 'CORS reflects any origin with credentials',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 99,
  description:
    "The server echoes any Origin in Access-Control-Allow-Origin together with Access-Control-Allow-Credentials: true, so any web site a logged-in user visits can read this site's authenticated responses.",
  solution:
    "Answer Access-Control-Allow-Origin only for a fixed list of your own origins (never echo the request's Origin) wherever Access-Control-Allow-Credentials is sent.",
  ports: { where: isHttpService },
  async run({ net, service }) {
    const svc = service!;
    // A simple GET, a preflight (some servers answer CORS only there), and an API root.
    const tries: [string, string, Record<string, string>][] = [
      ['GET', '/', {}],
      ['OPTIONS', '/', { 'Access-Control-Request-Method': 'GET' }],
      ['GET', '/api/', {}],
    ];
    for (const [method, target, headers] of tries) {
      const a = await httpRequest(net, svc.port, usesTls(svc), {
        method,
        target,
        headers: { Origin: PROBE_ORIGIN, ...headers },
        timeoutMs: 4000,
      });
      if (!a) return null; // no answer: the next tries would only wait as long
      const allow = a.headers['access-control-allow-origin'] ?? '';
      const creds = /^\s*true\s*$/i.test(a.headers['access-control-allow-credentials'] ?? '');
      if (allow.trim() === PROBE_ORIGIN && creds) {
        return `${method} ${target} with Origin: ${PROBE_ORIGIN} answered Access-Control-Allow-Origin: ${PROBE_ORIGIN} and Access-Control-Allow-Credentials: true.`;
      }
    }
    return null;
  },
});
