import { TLS12 } from '../../proto/tls-hello.ts';
import { defineCheck } from '../kit.ts';
import { acceptedHello, CIPHER_SOLUTION, suitesMatching } from './lib/hello.ts';
import { speaksTls } from './lib/targets.ts';

const SUITES = suitesMatching(/EXPORT/);

/** One TLS 1.2 ClientHello offering only these suites: the server picking one proves it accepts them. */
export default defineCheck({
  id: 'vigil.tls.cipher-export',
  shortid: 'TLS-EXPORT',
  title: 'EXPORT cipher suites accepted (FREAK / Logjam)',
  family: 'SSL/TLS',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  cves: ['CVE-2015-0204', 'CVE-2015-4000'],
  description: 'The server agrees to 40/56-bit EXPORT suites, which can be broken in hours (FREAK, Logjam).',
  solution: CIPHER_SOLUTION,
  ports: { where: speaksTls },
  run: (t) => acceptedHello(t, TLS12, SUITES, (_v, suite) => SUITES.includes(suite)),
});
