import { accountFigures, domainSummaries, requireSubscription } from '../dns/subscription.ts';
import { stateText } from '../dns/states.ts';
import type { SessionScript } from './call.ts';

/** DNS scripts (spec 5-21). Every one answers dnsEntitlementsOrCreditsMissing without a subscription. */
export const dnsScripts: Record<string, SessionScript> = {
  'dnsGetDomainList.php': {
    session: true,
    systemError: 'dnsDomainRetrievalFailure',
    async run({ account, services }) {
      requireSubscription(account, services.clock.now());
      const domains = await domainSummaries(services.db, account.id);
      const reply: Record<string, unknown> = accountFigures(account, domains);
      if (domains.length) {
        reply.domains = Object.fromEntries(
          domains.map((d) => [String(d.seq), { domain: d.domain, seq: d.seq, weight: d.weight, state: d.state, stateText: stateText(d.state) }]),
        );
      }
      return reply;
    },
  },
};
