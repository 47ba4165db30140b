import { TLS12 } from '../../proto/tls-hello.ts';
import { defineCheck } from '../kit.ts';
import { acceptedHello, CIPHER_SOLUTION, suitesMatching } from './lib/hello.ts';
import { speaksTls } from './lib/targets.ts';

const SUITES = suitesMatching(/_DES_|3DES/);

/** One TLS 1.2 ClientHello offering only these suites: the server picking one proves it accepts them. */
export default defineCheck({
  id: 'vigil.tls.cipher-des',
  shortid: 'TLS-3DES',
  title: 'DES / 3DES cipher suites accepted (SWEET32)',
  family: 'SSL/TLS',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'HOLE',
  cves: ['CVE-2016-2183'],
  description:
    'Single DES is broken outright, and 64-bit block ciphers such as 3DES allow plaintext recovery on long connections (SWEET32).',
  solution: CIPHER_SOLUTION,
  ports: { where: speaksTls },
  run: (t) => acceptedHello(t, TLS12, SUITES, (_v, suite) => SUITES.includes(suite)),
});
