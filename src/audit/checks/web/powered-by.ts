import { defineCheck } from '../kit.ts';
import { hasHttpAnswer } from './lib/pages.ts';

export default defineCheck({
  id: 'vigil.http.powered-by',
  shortid: 'HTTP-POWERED-BY',
  title: 'Web application platform disclosed (X-Powered-By)',
  family: 'Web Servers',
  categories: ['safe', 'passive', 'default'],
  risk: 'low',
  type: 'NOTE',
  description: 'Headers such as X-Powered-By and X-AspNet-Version name the application platform and often its version.',
  solution:
    'Remove these headers (PHP: expose_php = Off in php.ini; ASP.NET: enableVersionHeader="false" in web.config; or strip them at the server or proxy).',
  ports: { where: hasHttpAnswer },
  async run({ service }) {
    const h = service?.http;
    if (!h) return null;

    const seen = ['x-powered-by', 'x-aspnet-version', 'x-aspnetmvc-version']
      .filter((k) => h.headers[k])
      .map((k) => `${k}: ${h.headers[k]!.slice(0, 120)}`);
    return seen.length ? seen.join('; ') : null;
  },
});
