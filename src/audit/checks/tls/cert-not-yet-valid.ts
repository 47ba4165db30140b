import { defineCheck } from '../kit.ts';
import { certDetail, day } from './lib/cert.ts';
import { speaksTls } from './lib/targets.ts';

export default defineCheck({
  id: 'vigil.tls.cert-not-yet-valid',
  shortid: 'TLS-CERT-NOTYET',
  title: 'TLS certificate is not yet valid',
  family: 'SSL/TLS',
  categories: ['safe', 'passive', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description: 'The certificate validity starts in the future (wrong clock or wrong certificate).',
  solution: "Check the server's clock (NTP) and that the service is configured with the intended certificate.",
  ports: { where: speaksTls },
  run: (t) =>
    certDetail(t, (c, _h, now) =>
      Number.isFinite(c.notBefore) && c.notBefore > now ? `Certificate is valid only from ${day(c.notBefore)}.` : null,
    ),
});
