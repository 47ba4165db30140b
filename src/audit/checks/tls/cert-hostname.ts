import { defineCheck } from '../kit.ts';
import { certDetail, certNamesAddress, cn } from './lib/cert.ts';
import { speaksTls } from './lib/targets.ts';

export default defineCheck({
  id: 'vigil.tls.cert-hostname',
  shortid: 'TLS-CERT-NAME',
  title: 'TLS certificate does not match the host',
  family: 'SSL/TLS',
  categories: ['safe', 'passive', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The certificate does not name the audited address; clients reaching the service by that address get a name mismatch error.',
  solution:
    'Install a certificate whose subjectAltName includes every name and address clients use to reach the service.',
  ports: { where: speaksTls },
  run: (t) =>
    certDetail(
      t,
      (c, host) =>
        certNamesAddress(c, host.address)
          ? null
          : `The certificate names ${c.altNames.join(', ') || cn(c.subject) || 'nothing'}, not ${host.address}.`,
      { implicitOnly: true, trust: true },
    ),
});
