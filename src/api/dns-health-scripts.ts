import { sessionScript, type SessionScript } from './call.ts';

/** Zone health (src/api/contract/dns-health.ts declares it; src/dns/health/ decides). */
export const dnsHealthScripts: Record<string, SessionScript> = {
  'dnsCheckDomain.php': sessionScript('dnsCheckDomain.php', async ({ account, services, form }) => ({
    ...(await services.dns.health.check(account, form.get('domain'))),
  })),
};
