import type { AccountRow } from '../accounts/accounts.ts';
import { fail } from '../errors.ts';
import { lockAccount } from '../store/dialect.ts';
import type { Domains, Trx } from './domains.ts';
import { checkAdd } from './limits.ts';
import { normalizeDomain } from './names.ts';
import { RECORD_TYPES, setOptions, setSoa, type Fields, type RecordTypeName } from './records.ts';
import { domainSummaries, requireSubscription } from './subscription.ts';
import { stateText } from './states.ts';

/** Record types an account holder adds with a dnsAdd… script. */
export type AddableType = Exclude<RecordTypeName, 'SOA' | 'Options'>;

/** Record-level changes and reads of a zone; each change in one transaction. */
export class ZoneEdits {
  constructor(private readonly domains: Domains) {}

  async add(account: AccountRow, type: AddableType, fields: Fields): Promise<void> {
    await this.domains.change(account, fields.domain, async (trx, domain) => {
      if (domain.type === 'slave') fail('unspecifiedError'); // a slave zone is its masters' copy
      const data = RECORD_TYPES[type].parse(fields, domain.name);
      if (type === 'WebForwarding') await this.requireForwardingCredit(trx, account, domain.id);
      const owner = await checkAdd(trx, this.domains.settings, domain, type, data);
      await trx.insertInto('records').values({ domain_id: domain.id, type, data: JSON.stringify(data), owner }).execute();
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
    const owned = await this.domains.db.selectFrom('domains').select('name').where('account_id', '=', account.id).execute();
    const match = owned
      .map((d) => d.name)
      .filter((d) => name === d || name.endsWith(`.${d}`))
      .sort((a, b) => b.length - a.length)[0];
    return match ?? fail('noSuchDomain');
  }

  async deleteRecord(account: AccountRow, seqField: string | undefined): Promise<void> {
    requireSubscription(account, this.domains.clock.now());
    if (seqField === undefined || !/^[1-9]\d{0,15}$/.test(seqField)) fail('syntaxInvalidSeq');
    const seq = Number(seqField);
    await this.domains.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('records')
        .innerJoin('domains', 'domains.id', 'records.domain_id')
        .select(['records.id', 'records.type', 'domains.id as domain_id', 'domains.type as domain_type'])
        .where('records.id', '=', seq)
        .where('domains.account_id', '=', account.id)
        .executeTakeFirst();
      // Another account's seq, a missing one and the SOA (a zone needs one) are all "not deleted".
      if (!row || row.type === 'SOA' || row.domain_type === 'slave') fail('recordNotDeleted');
      await trx.deleteFrom('records').where('id', '=', seq).execute();
      await trx.updateTable('domains').set({ state: 0 }).where('id', '=', row.domain_id).execute();
    });
  }

  async setSoa(account: AccountRow, fields: Fields): Promise<void> {
    await this.domains.change(account, fields.domain, async (trx, domain) => {
      const soa = await trx.selectFrom('records').select(['id', 'data']).where('domain_id', '=', domain.id).where('type', '=', 'SOA').executeTakeFirst();
      if (!soa) fail('unspecifiedError');
      const data = setSoa(JSON.parse(soa.data), fields);
      await trx.updateTable('records').set({ data: JSON.stringify(data) }).where('id', '=', soa.id).execute();
    });
  }

  async setOptions(account: AccountRow, fields: Fields): Promise<void> {
    await this.domains.change(account, fields.domain, async (trx, domain) => {
      const data = JSON.stringify(setOptions(fields, domain.type));
      const current = await trx.selectFrom('records').select('id').where('domain_id', '=', domain.id).where('type', '=', 'Options').executeTakeFirst();
      if (current) await trx.updateTable('records').set({ data }).where('id', '=', current.id).execute();
      else await trx.insertInto('records').values({ domain_id: domain.id, type: 'Options', data }).execute();
    });
  }

  /** dnsGetDomainRecords: state, hold and every record keyed by its seq. */
  async records(account: AccountRow, field: string | undefined) {
    requireSubscription(account, this.domains.clock.now());
    const domain = await this.domains.own(account, field);
    const model = await this.domains.model(domain);
    const records: Record<string, { seq: string; type: string; data: Record<string, string | number> }> = {};
    for (const r of model.records) records[String(r.seq)] = { seq: String(r.seq), type: r.type, data: RECORD_TYPES[r.type as RecordTypeName].reply(r.data) };
    // `hold`: extension field (issue 12, item 8), the spec's fields keep their order and form.
    return { domain: domain.name, state: domain.state, stateText: stateText(domain.state), hold: Number(domain.on_hold) !== 0, records };
  }
}
