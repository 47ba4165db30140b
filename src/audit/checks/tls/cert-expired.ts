import { defineCheck } from '../kit.ts';
import { certDetail, day } from './lib/cert.ts';
import { speaksTls } from './lib/targets.ts';

export default defineCheck({
  id: 'vigil.tls.cert-expired',
  shortid: 'TLS-CERT-EXPIRED',
  title: 'TLS certificate has expired',
  family: 'SSL/TLS',
  categories: ['safe', 'passive', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description: 'The certificate is past its expiry date: clients show errors and users learn to click through them.',
  solution:
    'Install a renewed certificate on the service and restart or reload it; automate renewal (ACME) so it cannot lapse again.',
  ports: { where: speaksTls },
  run: (t) =>
    certDetail(t, (c, _h, now) =>
      Number.isFinite(c.notAfter) && c.notAfter < now ? `Certificate expired on ${day(c.notAfter)}.` : null,
    ),
});
