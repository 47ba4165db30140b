import { defineCheck } from '../kit.ts';
import { certDetail } from './lib/cert.ts';
import { speaksTls } from './lib/targets.ts';

export default defineCheck({
  id: 'vigil.tls.cert-weak-signature',
  shortid: 'TLS-CERT-WEAKSIG',
  title: 'TLS certificate signed with a weak hash (MD5 / SHA-1)',
  family: 'SSL/TLS',
  categories: ['safe', 'passive', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description: 'MD5 and SHA-1 signatures can be forged with collision attacks; browsers reject them.',
  solution: 'Reissue the certificate with SHA-256 or better.',
  ports: { where: speaksTls },
  run: (t) =>
    certDetail(
      t,
      // Flagged on self-signed certificates too: a client pinning one still trusts a forgeable hash.
      (c) =>
        /md2|md5|sha-?1(?!\d)/i.test(c.signatureAlgorithm) ? `Signature algorithm: ${c.signatureAlgorithm}.` : null,
    ),
});
