import { defineCheck } from '../kit.ts';
import { certDetail, day, EXPIRY_WARNING_DAYS } from './lib/cert.ts';
import { speaksTls } from './lib/targets.ts';

export default defineCheck({
  id: 'vigil.tls.cert-expiring',
  shortid: 'TLS-CERT-EXPIRING',
  title: `TLS certificate expires within ${EXPIRY_WARNING_DAYS} days`,
  family: 'SSL/TLS',
  categories: ['safe', 'passive', 'default'],
  risk: 'low',
  type: 'NOTE',
  description: `The certificate expires in fewer than ${EXPIRY_WARNING_DAYS} days and has not been renewed: when it lapses, clients refuse the connection or users learn to click through errors.`,
  solution: "Renew the certificate and check the renewal automation (e.g. the ACME client's timer) before it lapses.",
  ports: { where: speaksTls },
  run: (t) =>
    certDetail(t, (c, _h, now) => {
      const left = c.notAfter - now;
      return Number.isFinite(left) && left >= 0 && left < EXPIRY_WARNING_DAYS * 864e5
        ? `Certificate expires on ${day(c.notAfter)}, in ${Math.floor(left / 864e5)} days.`
        : null;
    }),
});
