import { TLS12 } from '../../proto/tls-hello.ts';
import { defineCheck } from '../kit.ts';
import { acceptedHello, CIPHER_SOLUTION, suitesMatching } from './lib/hello.ts';
import { speaksTls } from './lib/targets.ts';

const SUITES = suitesMatching(/_anon_/);

/** One TLS 1.2 ClientHello offering only these suites: the server picking one proves it accepts them. */
export default defineCheck({
  id: 'vigil.tls.cipher-anon',
  shortid: 'TLS-ANON',
  title: 'Anonymous cipher suites accepted (no authentication)',
  family: 'SSL/TLS',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The server agrees to anonymous (DH_anon / ECDH_anon) suites, which do not authenticate the server: any machine in the middle can impersonate it.',
  solution: CIPHER_SOLUTION,
  ports: { where: speaksTls },
  run: (t) => acceptedHello(t, TLS12, SUITES, (_v, suite) => SUITES.includes(suite)),
});
