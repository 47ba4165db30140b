import { TLS12 } from '../../proto/tls-hello.ts';
import { defineCheck } from '../kit.ts';
import { acceptedHello, CIPHER_SOLUTION, suitesMatching } from './lib/hello.ts';
import { speaksTls } from './lib/targets.ts';

const SUITES = suitesMatching(/_RC4_/);

/** One TLS 1.2 ClientHello offering only these suites: the server picking one proves it accepts them. */
export default defineCheck({
  id: 'vigil.tls.cipher-rc4',
  shortid: 'TLS-RC4',
  title: 'RC4 cipher suites accepted',
  family: 'SSL/TLS',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'HOLE',
  cves: ['CVE-2013-2566', 'CVE-2015-2808'],
  description: 'RC4 has exploitable biases and is prohibited by RFC 7465.',
  solution: CIPHER_SOLUTION,
  ports: { where: speaksTls },
  run: (t) => acceptedHello(t, TLS12, SUITES, (_v, suite) => SUITES.includes(suite)),
});
