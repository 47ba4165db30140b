import { defineCheck } from '../kit.ts';
import { hasHttpAnswer, isHtml } from './lib/pages.ts';

const APPLICATION = /<(?:script|form|iframe|frame|input|button|object|embed)\b|\bon(?:click|load|submit)\s*=/i;

export default defineCheck({
  id: 'vigil.http.security-headers',
  shortid: 'HTTP-SEC-HEADERS',
  title: 'Missing HTTP security headers',
  family: 'Web Servers',
  categories: ['safe', 'passive', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The page is served without X-Frame-Options (or CSP frame-ancestors), X-Content-Type-Options: nosniff or Content-Security-Policy, leaving visitors open to clickjacking, MIME sniffing and script injection.',
  solution:
    'Send X-Frame-Options: DENY (or CSP frame-ancestors), X-Content-Type-Options: nosniff and a Content-Security-Policy from the server or application configuration (Apache: Header always set; nginx: add_header).',
  ports: { where: hasHttpAnswer },
  async run({ service }) {
    const h = service?.http;
    if (!h) return null;

    // An empty answer is no page a browser renders (Docker registry's GET / is a health answer: 200, no body,
    // no Content-Type; it was a NOTE on the registry's hardened twin in the detection bench).
    if (!isHtml(h) || h.status >= 400 || !h.body.trim()) return null;
    const csp = h.headers['content-security-policy'] ?? '';
    const missing: string[] = [];
    if (!h.headers['x-frame-options'] && !/frame-ancestors/i.test(csp))
      missing.push('X-Frame-Options (or CSP frame-ancestors)');
    if (!/nosniff/i.test(h.headers['x-content-type-options'] ?? '')) missing.push('X-Content-Type-Options: nosniff');
    if (!csp) missing.push('Content-Security-Policy');
    if (!missing.length) return null;
    const detail = `HTTP ${h.status} answer to GET / lacks ${missing.join(', ')}.`;
    // The headers protect applications: clickjacking needs an action to trick the visitor into, script injection a
    // page that runs script. On a static page (no script, form, frame or cookie: a plain file server such as webfsd,
    // mini_httpd, BusyBox httpd or python3 -m http.server, none of which can send these headers) it is evidence, a LOG,
    // as Greenbone's "HTTP Security Headers Detection" reports every case.
    // Detection keeps 4 KB of the page: a longer one may hold its first script past it, so it counts as an app.
    return APPLICATION.test(h.body) || h.headers['set-cookie'] || h.body.length >= 4096
      ? detail
      : { detail: `${detail} The page is static (no script, form, frame or cookie).`, type: 'LOG', risk: 'other' };
  },
});
