import { defineCheck } from '../kit.ts';
import { AUTH_PATHS, linkedPaths } from './lib/policy.ts';
import { httpRequest, plainHttpService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.basic-auth-cleartext',
  shortid: 'HTTP-BASIC-CLEAR',
  title: 'HTTP Basic authentication over plain HTTP',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 95,
  description:
    'The server asks for a password with HTTP Basic authentication on an unencrypted connection: the browser sends the user name and password in base64, readable by anyone on the path.',
  solution: 'Serve the protected area over HTTPS only (redirect HTTP to HTTPS).',
  // Plain HTTP only: over TLS the password is protected.
  ports: { where: plainHttpService },
  async run({ net, service }) {
    const svc = service!;
    const basic = (a: { status: number; headers: Record<string, string> } | null) =>
      a?.status === 401 && /(?:^|,)\s*Basic\b/i.test(a.headers['www-authenticate'] ?? '');
    if (basic(svc.http)) return 'GET / answered 401 with WWW-Authenticate: Basic over plain HTTP.';
    const paths = [
      ...new Set([...(svc.http ? AUTH_PATHS.slice(1) : AUTH_PATHS), ...linkedPaths(svc.http?.body ?? '')]),
    ];
    for (const path of paths) {
      const a = await httpRequest(net, svc.port, false, { target: path, timeoutMs: 4000 });
      if (!a) return null;
      if (basic(a))
        return `GET ${path} answered 401 with WWW-Authenticate: ${a!.headers['www-authenticate']!.slice(0, 80)} over plain HTTP.`;
    }
    return null;
  },
});
