/**
 * The denial-of-service class (profiles.ts: standard and advanced, never
 * with `excludedos`): measurements of how far a service can be turned
 * against itself or others, each bounded to one request or connection per
 * port. None of them floods or exhausts anything.
 */
import type { Check } from '../types.ts';
import { dnsAnyAmplification } from './dos-dns.ts';
import { HTTP_DOS_CHECKS } from './dos-http.ts';
import { tlsClientRenegotiation } from './dos-tls.ts';
import { UDP_AMPLIFICATION_CHECKS } from './dos-udp.ts';

export const DOS_CHECKS: readonly Check[] = [
  ...UDP_AMPLIFICATION_CHECKS,
  dnsAnyAmplification,
  ...HTTP_DOS_CHECKS,
  tlsClientRenegotiation,
];
