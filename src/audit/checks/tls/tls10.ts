import { COMMON_SUITES, TLS10 } from '../../proto/tls-hello.ts';
import { defineCheck } from '../kit.ts';
import { acceptedHello, PROTOCOL_SOLUTION } from './lib/hello.ts';
import { speaksTls } from './lib/targets.ts';

/** One ClientHello offering only TLS 1.0 with the common suites: a TLS 1.0 ServerHello proves it is enabled. */
export default defineCheck({
  id: 'vigil.tls.tls10',
  shortid: 'TLS-TLS10',
  title: 'Deprecated TLS 1.0 protocol enabled',
  family: 'SSL/TLS',
  categories: ['safe', 'vuln', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The service accepts TLS 1.0 connections. TLS 1.0 is deprecated by RFC 8996 (BEAST, weak hashes) and fails PCI DSS.',
  solution: PROTOCOL_SOLUTION,
  ports: { where: speaksTls },
  run: (t) => acceptedHello(t, TLS10, COMMON_SUITES, (got) => got === TLS10),
});
