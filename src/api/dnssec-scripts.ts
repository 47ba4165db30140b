import { sessionScript, type SessionScript } from './call.ts';

/** DNSSEC's extension scripts (src/api/contract/dnssec.ts declares them; src/dns/dnssec-settings.ts decides). */
export const dnssecScripts: Record<string, SessionScript> = {
  'dnsGetDNSSEC.php': sessionScript('dnsGetDNSSEC.php', async ({ account, services, form }) => ({
    ...(await services.dns.dnssec.get(account, form.get('domain'))),
  })),
  'dnsSetDNSSEC.php': sessionScript('dnsSetDNSSEC.php', async ({ account, services, form }) => ({
    ...(await services.dns.dnssec.set(account, form.get('domain'), form.get('enable'), form.get('nsec3'))),
  })),
  'dnsRollDNSSECKey.php': sessionScript('dnsRollDNSSECKey.php', async ({ account, services, form }) => ({
    ...(await services.dns.dnssec.rollKsk(account, form.get('domain'))),
  })),
};
