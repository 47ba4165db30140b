import type { AccountRow } from '../accounts/accounts.ts';
import { fail } from '../errors.ts';
import { lockAccount } from '../store/dialect.ts';
import type { DomainRow, Domains, Trx } from './domains.ts';
import { checkAdd } from './limits.ts';
import { normalizeDomain } from './names.ts';
import {
  type AddableType,
  type Fields,
  parseRecord,
  replyOf,
  type RecordTypeName,
  type SoaData,
  setOptions,
  setSoa,
} from './records.ts';
import { domainSummaries } from './subscription.ts';
import { DomainState, stateText } from './states.ts';
import { RecordsCache } from './records-cache.ts';
import { setDomainState } from './zone-store/domains.ts';
import { deleteRecord, insertRecords, ownRecord, recordOfType, updateRecordData } from './zone-store/records.ts';
import { WIRE } from './rr/wire-names.ts';
import { Options } from './rr/options.ts';
import { WebForwarding } from './rr/web-forwarding.ts';

/** Record types an account holder adds with a dnsAdd… script (the kit's types that have one). */
export type { AddableType } from './records.ts';

/** Record-level changes and reads of a zone; each change in one transaction. */
export class ZoneEdits {
  private readonly cache = new RecordsCache();

  /** `dsOf`: the DS records of a signed domain, for the records reply (src/dns/dnssec-settings.ts). */
  constructor(
    private readonly domains: Domains,
    private readonly dsOf?: (domain: DomainRow) => Promise<string[]>,
  ) {}

  async add(account: AccountRow, type: AddableType, fields: Fields): Promise<void> {
    await this.domains.change(account, fields.domain, async (trx, domain) => {
      if (domain.type === 'slave') fail('unspecifiedError'); // a slave zone is its masters' copy
      const data = parseRecord(type, fields, domain.name);
      if (type === WebForwarding.type) await this.requireForwardingCredit(trx, account, domain.id);
      const owner = await checkAdd(trx, this.domains.settings, domain, type, data);
      await insertRecords(trx, domain.id, [{ type, data, owner }]);
    });
  }

  /** The first web forwarding of a domain raises its weight from 1 to 2: that needs a free credit. */
  private async requireForwardingCredit(trx: Trx, account: AccountRow, domainId: number): Promise<void> {
    await lockAccount(trx, account.id); // as in Domains.add: credits are read, then spent
    const domains = await domainSummaries(trx, account.id);
    if (domains.find((d) => d.seq === domainId)?.weight === 2) return;
    const used = domains.reduce((sum, d) => sum + d.weight, 0);
    if (used + 1 > Number(account.dns_credits)) fail('dnsEntitlementsOrCreditsMissing');
  }

  /** dnsAddSRV without `domain`: the account's longest domain that `host` ends in. */
  async srvDomain(account: AccountRow, host: string | undefined): Promise<string> {
    // Without a domain only a fully qualified host can say which zone is meant.
    const name = host === undefined || host === '' ? null : normalizeDomain(host);
    if (name === null) fail('syntaxInvalidDomain');
    const match = (await this.domains.names(account))
      .filter((d) => name === d || name.endsWith(`.${d}`))
      .sort((a, b) => b.length - a.length)[0];
    return match ?? fail('noSuchDomain');
  }

  async deleteRecord(account: AccountRow, seqField: string | undefined): Promise<void> {
    if (seqField === undefined || !/^[1-9]\d{0,15}$/.test(seqField)) fail('syntaxInvalidSeq');
    const seq = Number(seqField);
    await this.domains.db.transaction().execute(async (trx) => {
      const row = await ownRecord(trx, account.id, seq);
      // Another account's seq, a missing one and the SOA (a zone needs one) are all "not deleted".
      if (!row || row.type === WIRE.SOA || row.domain_type === 'slave') fail('recordNotDeleted');
      await deleteRecord(trx, row.domain_id, seq);
      await setDomainState(trx, row.domain_id, DomainState.Unvalidated);
    });
  }

  async setSoa(account: AccountRow, fields: Fields): Promise<void> {
    await this.domains.change(account, fields.domain, async (trx, domain) => {
      const soa = await recordOfType(trx, domain.id, WIRE.SOA);
      if (!soa) fail('unspecifiedError');
      await updateRecordData(trx, domain.id, soa.id, setSoa(soa.data as SoaData, fields));
    });
  }

  async setOptions(account: AccountRow, fields: Fields): Promise<void> {
    await this.domains.change(account, fields.domain, async (trx, domain) => {
      const data = setOptions(fields, domain.type);
      const current = await recordOfType(trx, domain.id, Options.type);
      if (current) await updateRecordData(trx, domain.id, current.id, data);
      else await insertRecords(trx, domain.id, [{ type: Options.type, data }]);
    });
  }

  /**
   * dnsGetDomainRecords: state, hold and every record keyed by its seq.
   * The records come from the cache while the domain's records_version is
   * the one they were built for; state and hold from the row, every time.
   */
  async records(account: AccountRow, field: string | undefined) {
    const domain = await this.domains.own(account, field);
    const version = Number(domain.records_version);
    let records = this.cache.get(domain.id, version);
    if (!records) {
      const model = await this.domains.model(domain);
      const built: Record<string, { seq: string; type: string; data: Record<string, string | number> }> = {};
      // Deeply frozen: the transport then serializes this version's reply once (src/api/reply.ts).
      for (const r of model.records) {
        built[String(r.seq)] = Object.freeze({
          seq: String(r.seq),
          type: r.type,
          data: Object.freeze(replyOf(r.type as RecordTypeName, r.data)),
        });
      }
      records = Object.freeze(built);
      this.cache.set(domain.id, version, records, model.records.length);
    }
    // `hold`: extension field (issue 12, item 8), the spec's fields keep their order and form.
    // `ds`: extension (issue 19), only for a signed domain; read apart from the cached records (keys roll on
    // their own).
    const ds = Number(domain.dnssec) === 1 && this.dsOf ? { ds: await this.dsOf(domain) } : {};
    return {
      domain: domain.name,
      state: domain.state,
      stateText: stateText(domain.state),
      hold: Number(domain.on_hold) !== 0,
      ...ds,
      records,
    };
  }
}
