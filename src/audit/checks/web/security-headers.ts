import { defineCheck } from '../kit.ts';
import { hasHttpAnswer, isHtml } from './lib/pages.ts';

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
    return missing.length ? `HTTP ${h.status} answer to GET / lacks ${missing.join(', ')}.` : null;
  },
});
