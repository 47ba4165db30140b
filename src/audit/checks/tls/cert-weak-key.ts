import { defineCheck } from '../kit.ts';
import { certDetail } from './lib/cert.ts';
import { speaksTls } from './lib/targets.ts';

export default defineCheck({
  id: 'vigil.tls.cert-weak-key',
  shortid: 'TLS-CERT-WEAKKEY',
  title: 'TLS certificate has a weak key',
  family: 'SSL/TLS',
  categories: ['safe', 'passive', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'The certificate key is too short (RSA/DSA under 2048 bits, EC under 224 bits) and may be factored or broken.',
  solution:
    'Reissue the certificate with an RSA key of at least 2048 bits or an EC key (P-256 or better), and retire the old key.',
  ports: { where: speaksTls },
  run: (t) =>
    certDetail(t, (c) => {
      const t = c.keyType.toUpperCase();
      const weak =
        c.keyBits > 0 && (((t === 'RSA' || t === 'DSA') && c.keyBits < 2048) || (t === 'EC' && c.keyBits < 224));
      return weak ? `${c.keyType} key of ${c.keyBits} bits.` : null;
    }),
});
