import { COMMON_SUITES, TLS11 } from '../../proto/tls-hello.ts';
import { defineCheck } from '../kit.ts';
import { acceptedHello, PROTOCOL_SOLUTION } from './lib/hello.ts';
import { speaksTls } from './lib/targets.ts';

/** One ClientHello offering only TLS 1.1 with the common suites: a TLS 1.1 ServerHello proves it is enabled. */
export default defineCheck({
  id: 'vigil.tls.tls11',
  shortid: 'TLS-TLS11',
  title: 'Deprecated TLS 1.1 protocol enabled',
  family: 'SSL/TLS',
  categories: ['safe', 'vuln', 'default'],
  risk: 'low',
  type: 'NOTE',
  description: 'The service accepts TLS 1.1 connections. TLS 1.1 is deprecated by RFC 8996.',
  solution: PROTOCOL_SOLUTION,
  ports: { where: speaksTls },
  run: (t) => acceptedHello(t, TLS11, COMMON_SUITES, (got) => got === TLS11),
});
