import type { AccountRow } from '../accounts/accounts.ts';
import type { Domains } from './domains.ts';
import { DomainState } from './states.ts';
import { validateZone } from './validate.ts';
import { buildZone } from './zone.ts';
import { testLoad } from './server/test-load.ts';
import type { ZoneIndex } from './server/zone-index.ts';
import { type DnsEgress, peerText } from './egress.ts';
import { capErrors, oversizedSets } from './limits.ts';
import { notifyTargets } from './server/notify.ts';
import { parsePeer, type Peer } from './peers.ts';
import { setDomainState } from './zone-store/domains.ts';
import { writePublication } from './zone-store/publications.ts';
import { WIRE } from './rr/wire-names.ts';
import { Options } from './rr/options.ts';

export interface PublishResult {
  warnings?: string[];
  errors?: string[];
}

/** A publish's reply and the facts its caller logs. */
export interface PublishOutcome {
  reply: PublishResult;
  /** The domain's name as stored. */
  domain: string;
  /** The new serial waiting for distribution; null when nothing waits (errors, slave). */
  serial: number | null;
  /** The version as the test load indexed it, when it waits (zone health's publish hint reads it: no second build). */
  index?: ZoneIndex;
}

export const SLAVE_WARNING = 'a slave domain is published by its masters: Vigil transfers each new version from them';
export const ON_HOLD_ERROR =
  'the domain is on hold until the operator releases it (new domains are checked before their first publish)';

/**
 * Publish (spec section 3): validate the zone as it would be served and
 * load it into a test instance of the name server's index; with
 * errors the domain goes to Configuration Errors (1); otherwise it gets a
 * new serial and waits (2) for the next distribution cycle.
 */
export class Publisher {
  constructor(
    private readonly domains: Domains,
    private readonly egress: DnsEgress,
  ) {}

  async buildZone(account: AccountRow, field: string | undefined): Promise<string> {
    const domain = await this.domains.own(account, field);
    const model = await this.domains.model(domain);
    // A slave domain has no records, not even an SOA, until its first transfer from its
    // masters: no zone yet is an answer, not a fault (issue 12: soaOf threw and the
    // API logged a stack trace). A comment line is a valid, empty master file; the
    // name holds only [a-z0-9.-] (normalizeDomain), so it cannot leave the comment.
    if (domain.type === 'slave' && !model.records.some((r) => r.type === WIRE.SOA)) {
      return `; ${domain.name}: slave domain, no copy transferred from its masters yet\n`;
    }
    return buildZone(model);
  }

  async publish(account: AccountRow, field: string | undefined): Promise<PublishOutcome> {
    return this.domains.db.transaction().execute(async (trx) => {
      // Locked (PostgreSQL): the serial and snapshot come from this read.
      const domain = await this.domains.own(account, field, trx, true);
      const model = await this.domains.model(domain, trx);
      const warnings: string[] = [];
      const errors: string[] = [];
      let tested: ZoneIndex | null = null;
      if (domain.type === 'slave') {
        // A slave zone is its masters' copy: they publish it, Vigil follows.
        warnings.push(SLAVE_WARNING);
        const masters = String(model.records.find((r) => r.type === Options.type)?.data.masters ?? '')
          .split(',')
          .filter(Boolean);
        warnings.push(
          ...this.refusedPeers(
            masters.map((m) => parsePeer(m)).filter((p): p is Peer => p !== null),
            'no transfer will be asked from',
          ),
        );
      } else {
        const checked = validateZone(model);
        errors.push(...checked.errors);
        warnings.push(...checked.warnings);
        const load = testLoad(model);
        tested = load.index;
        errors.push(...load.errors);
        errors.push(...capErrors(this.domains.settings, model, buildZone(model)));
        if (load.index) {
          errors.push(...oversizedSets(load.index));
          warnings.push(...this.refusedPeers(notifyTargets(load.index, []), 'NOTIFY will not be sent to'));
        }
      }
      if (domain.on_hold) errors.unshift(ON_HOLD_ERROR);
      const result: PublishResult = {};
      if (warnings.length) result.warnings = warnings;
      if (errors.length) {
        await setDomainState(trx, domain.id, DomainState.ConfigurationErrors);
        result.errors = errors;
        return { reply: result, domain: domain.name, serial: null };
      }
      if (domain.type === 'slave') return { reply: result, domain: domain.name, serial: null };
      // The domain waits (2) for the next cycle to serve this version.
      await writePublication(trx, domain, model, 'pending', this.domains.clock.now());
      return { reply: result, domain: domain.name, serial: model.serial, index: tested ?? undefined };
    });
  }

  /** Publish warnings for peers outside the DNS egress fence (docs/security.md). */
  private refusedPeers(peers: Peer[], what: string): string[] {
    const { refused } = this.egress.split(peers);
    return refused.map(
      (p) => `${what} ${peerText(p)}: this server sends DNS traffic only to the addresses its operator allows`,
    );
  }
}
