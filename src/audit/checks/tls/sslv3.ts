import { COMMON_SUITES, SSL3 } from '../../proto/tls-hello.ts';
import { defineCheck } from '../kit.ts';
import { acceptedHello, PROTOCOL_SOLUTION } from './lib/hello.ts';
import { speaksTls } from './lib/targets.ts';

/** One ClientHello offering only SSLv3 with the common suites: a SSLv3 ServerHello proves it is enabled. */
export default defineCheck({
  id: 'vigil.tls.sslv3',
  shortid: 'TLS-SSLV3',
  title: 'SSLv3 protocol enabled (POODLE)',
  family: 'SSL/TLS',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'HOLE',
  cves: ['CVE-2014-3566'],
  description:
    'The service accepts SSLv3 connections. SSLv3 is broken (POODLE padding oracle) and prohibited by RFC 7568.',
  solution: PROTOCOL_SOLUTION,
  ports: { where: speaksTls },
  run: (t) => acceptedHello(t, SSL3, COMMON_SUITES, (got) => got === SSL3),
});
