import type { Check } from '../types.ts';
import { elasticsearchOpen, memcachedOpen, mongoNoAuth, redisNoAuth } from './services-data.ts';
import { dnsRecursion, ftpAnonymous, smtpOpenRelay, snmpPublic } from './services-net.ts';

/** Unauthenticated access to common services (issue 6's "unauthenticated access" family). */
export const SERVICE_CHECKS: readonly Check[] = [
  redisNoAuth,
  memcachedOpen,
  mongoNoAuth,
  elasticsearchOpen,
  ftpAnonymous,
  smtpOpenRelay,
  dnsRecursion,
  snmpPublic,
];
