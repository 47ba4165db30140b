import { accountFigures, domainSummaries, hasSubscription, readableTime } from '../dns/subscription.ts';
import { sessionScript, type SessionScript } from './call.ts';

const list = (csv: string) => (csv ? csv.split(',') : []);

/** accountGetInfo.php (src/api/contract/account.ts says why it exists). */
export const accountScripts: Record<string, SessionScript> = {
  'accountGetInfo.php': sessionScript('accountGetInfo.php', async ({ account, services }) => {
    const figures = accountFigures(account, await domainSummaries(services.db, account.id));
    const expiry = account.dns_expiry == null ? null : Number(account.dns_expiry);
    return {
      userid: account.userid,
      ...(account.email ? { email: account.email } : {}),
      auditTypes: list(account.audit_types),
      allowedAddresses: list(account.allow_ip),
      dnsSubscription: hasSubscription(account, services.clock.now()),
      dnsCredits: account.dns_credits == null ? null : Number(account.dns_credits),
      dnsCreditsUsed: figures.domainweight,
      dnsExpiryjtime: expiry == null ? null : Math.floor(expiry / 1000),
      ...(expiry == null ? {} : { dnsExpiryreadable: readableTime(expiry) }),
      domaincount: figures.domaincount,
    };
  }),
};
