import type { Service } from '../../engine/types.ts';
import { isTlsService } from '../../proto/tls.ts';
import { defineCheck } from '../kit.ts';

/** An HTTPS answer detection recorded: the site, over TLS, as a browser first meets it. */
const isHttps = (s: Service) =>
  (s.name === 'https' || (s.tls !== null && s.http !== null)) && !!s.http && isTlsService(s);

export default defineCheck({
  id: 'vigil.tls.hsts-missing',
  shortid: 'HTTP-NO-HSTS',
  title: 'HTTPS without HTTP Strict Transport Security',
  family: 'SSL/TLS',
  categories: ['safe', 'passive', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The HTTPS site sends no Strict-Transport-Security header, so a machine in the middle can downgrade visitors to plain HTTP (SSL stripping).',
  solution:
    'Send `Strict-Transport-Security: max-age=31536000` on every HTTPS response (Apache: Header always set; nginx: add_header … always), once every name of the site is served over HTTPS.',
  ports: { where: isHttps },
  async run({ service }) {
    const http = service?.http;
    if (!http) return null;
    const hsts = http.headers['strict-transport-security'];
    if (hsts && /max-age\s*=\s*"?[1-9]/i.test(hsts)) return null;
    return hsts
      ? `Strict-Transport-Security: ${hsts} (max-age is 0 or missing).`
      : `HTTP ${http.status} answer without Strict-Transport-Security.`;
  },
});
