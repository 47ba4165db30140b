import type { AccountRow } from '../accounts/accounts.ts';
import type { Clock } from '../clock.ts';
import { fail } from '../errors.ts';
import type { Db } from '../store/db.ts';
import { forUpdate, lockAccount, serialize } from '../store/dialect.ts';
import type { Selectable, Transaction } from 'kysely';
import type { Database, DomainsTable } from '../store/schema.ts';
import { normalizeDomain } from './names.ts';
import type { ZoneCaps } from './limits.ts';
import { ancestors, type NamePolicySettings, REFUSAL_CODE, refusal } from './name-policy.ts';
import { defaultSoa, type Fields, type RecordTypeName } from './records.ts';
import { accountFigures, domainSummaries, requireSubscription } from './subscription.ts';
import { DomainState } from './states.ts';
import { nextSerial, type ZoneModel } from './zone.ts';

export type DomainRow = Selectable<DomainsTable>;
export type Trx = Transaction<Database>;

export interface DnsSettings extends NamePolicySettings, ZoneCaps {
  readonly domainHold: 'manual' | 'none';
}

/** What the operator sees before releasing a domain (`admin domain release`). */
export interface DomainSummary {
  name: string;
  userid: string;
  type: string;
  onHold: boolean;
  /** Other accounts' domains at, above or below this one. */
  nestedWith: { name: string; userid: string }[];
}

/** One line of `admin domain list`, in the words of INTERFACE.md and the API's domain list. */
export interface DomainListing {
  domain: string;
  /** The account's userid. */
  account: string;
  type: string;
  state: number;
  hold: boolean;
  /** The serial the name servers answer with; null while the zone is not served. */
  servedSerial: number | null;
}

/**
 * Domains of an account: lookup, add, delete, release. Every change that
 * touches a zone goes through `change`, which runs in one transaction and
 * returns the domain to Unvalidated (spec section 3).
 */
export class Domains {
  constructor(readonly db: Db, readonly clock: Clock, readonly settings: DnsSettings) {}

  /** The caller's domain named by the `domain` field, or the spec's codes. */
  async own(account: AccountRow, field: string | undefined, db: Db | Trx = this.db, lock = false): Promise<DomainRow> {
    const name = field === undefined ? null : normalizeDomain(field);
    if (name === null) fail('syntaxInvalidDomain');
    const query = db.selectFrom('domains').selectAll().where('name', '=', name).where('account_id', '=', account.id);
    const row = await (lock ? forUpdate(db, query) : query).executeTakeFirst();
    return row ?? fail('noSuchDomain');
  }

  async add(account: AccountRow, fields: Fields): Promise<void> {
    requireSubscription(account, this.clock.now());
    if (fields.aup !== 'YES') fail('mustAcceptAUP');
    const name = fields.domain === undefined ? null : normalizeDomain(fields.domain);
    if (name === null) fail('syntaxInvalidDomain');
    const type = fields.domaintype;
    if (type !== 'master' && type !== 'slave') fail('syntaxInvalidDomainType');
    const refused = refusal(name, this.settings);
    if (refused) fail(REFUSAL_CODE[refused]);
    await this.db.transaction().execute(async (trx) => {
      // PostgreSQL: the credits check and the name checks below read before
      // they write; the account's row lock and the name-claim lock keep two
      // adds (any process) from both passing them. No-ops on SQLite.
      await lockAccount(trx, account.id);
      await serialize(trx, 'domainNames');
      const taken = await trx.selectFrom('domains').select('account_id').where('name', '=', name).executeTakeFirst();
      if (taken) fail('unableToAddDuplicate');
      // A name inside or above another account's domain would hide or be hidden by it (docs/security.md).
      if (!this.settings.allowDomains.includes('nested') && (await this.nestedWith(trx, name)).some((d) => d.account_id !== account.id)) {
        fail(REFUSAL_CODE.nested);
      }
      const used = (await domainSummaries(trx, account.id)).reduce((sum, d) => sum + d.weight, 0);
      if (used + 1 > Number(account.dns_credits)) fail('dnsEntitlementsOrCreditsMissing');
      const domain = await trx
        .insertInto('domains')
        .values({
          account_id: account.id,
          name,
          type,
          state: DomainState.Unvalidated,
          on_hold: this.settings.domainHold === 'manual' ? 1 : 0,
          serial: 0,
          created_at: this.clock.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // A slave zone's records come from its masters, so it starts empty.
      if (type === 'master') {
        const ns = [1, 2, 3, 4].map((n) => ({ name: '', data: `ns${n}.${this.settings.nsDomain}.` }));
        await trx
          .insertInto('records')
          .values([
            { domain_id: domain.id, type: 'SOA', data: JSON.stringify(defaultSoa(name, this.settings.nsDomain)) },
            ...ns.map((d) => ({ domain_id: domain.id, type: 'NS', data: JSON.stringify(d) })),
          ])
          .execute();
      }
    });
  }

  /** Deletes the caller's domain; the next distribution cycle removes it from the name servers. */
  async delete(account: AccountRow, field: string | undefined) {
    requireSubscription(account, this.clock.now());
    const name = field === undefined ? null : normalizeDomain(field);
    if (name === null) fail('syntaxInvalidDomain');
    await this.db.transaction().execute(async (trx) => {
      // Locked (PostgreSQL) before its publication, in the order a publish
      // takes them; a second delete at once then finds nothing.
      const query = trx.selectFrom('domains').select('id').where('name', '=', name).where('account_id', '=', account.id);
      const row = await forUpdate(trx, query).executeTakeFirst();
      if (!row) fail('domainNotDeleted');
      await trx.updateTable('zone_publications').set({ removing: 1, changed_at: this.clock.now() }).where('zone', '=', name).execute();
      await trx.deleteFrom('domains').where('id', '=', row.id).execute();
    });
    return accountFigures(account, await domainSummaries(this.db, account.id));
  }

  /** Runs a zone change in one transaction and marks the domain Unvalidated. */
  async change<T>(account: AccountRow, field: string | undefined, work: (trx: Trx, domain: DomainRow) => Promise<T>): Promise<T> {
    requireSubscription(account, this.clock.now());
    return this.db.transaction().execute(async (trx) => {
      // Locked (PostgreSQL): the zone's checks (record caps, sets) read before they write.
      const domain = await this.own(account, field, trx, true);
      const result = await work(trx, domain);
      await trx.updateTable('domains').set({ state: DomainState.Unvalidated }).where('id', '=', domain.id).execute();
      return result;
    });
  }

  /** The zone as a publish now would produce it: stored records and the next serial. */
  async model(domain: DomainRow, db: Db | Trx = this.db): Promise<ZoneModel> {
    const rows = await db.selectFrom('records').select(['id', 'type', 'data']).where('domain_id', '=', domain.id).orderBy('id').execute();
    return {
      zone: domain.name,
      serial: nextSerial(Number(domain.serial) || null, new Date(this.clock.now())),
      records: rows.map((r) => ({ seq: r.id, type: r.type as RecordTypeName, data: JSON.parse(r.data) })),
    };
  }

  /** Domains (of any account) at, above or below `name`, the name itself excluded. */
  private async nestedWith(db: Db | Trx, name: string) {
    const above = ancestors(name);
    return db
      .selectFrom('domains')
      .select(['name', 'account_id'])
      .where((eb) => {
        // Names hold only [a-z0-9-.] (normalizeDomain), so LIKE's wildcards cannot occur in them.
        const below = eb('name', 'like', `%.${name}`);
        return above.length ? eb.or([below, eb('name', 'in', above)]) : below;
      })
      .execute();
  }

  /** Operator: what a domain is and what it nests with, before a release. */
  async summary(name: string): Promise<DomainSummary | null> {
    const zone = normalizeDomain(name);
    if (zone === null) return null;
    const row = await this.db
      .selectFrom('domains')
      .innerJoin('accounts', 'accounts.id', 'domains.account_id')
      .select(['domains.name', 'domains.type', 'domains.on_hold', 'accounts.userid', 'domains.account_id'])
      .where('domains.name', '=', zone)
      .executeTakeFirst();
    if (!row) return null;
    const around = await this.nestedWith(this.db, zone);
    const users = around.length
      ? await this.db.selectFrom('accounts').select(['id', 'userid']).where('id', 'in', around.map((d) => d.account_id)).execute()
      : [];
    const nestedWith = around
      .filter((d) => d.account_id !== row.account_id)
      .map((d) => ({ name: d.name, userid: users.find((u) => u.id === d.account_id)?.userid ?? '?' }));
    return { name: row.name, userid: row.userid, type: row.type, onHold: row.on_hold === 1, nestedWith };
  }

  /** Operator: lifts the hold on a newly added domain. */
  async release(name: string): Promise<boolean> {
    const zone = normalizeDomain(name);
    if (zone === null) return false;
    const r = await this.db.updateTable('domains').set({ on_hold: 0 }).where('name', '=', zone).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Operator: every domain (or only those on hold) with its account and served serial, by name. */
  async list(options: { held?: boolean } = {}): Promise<DomainListing[]> {
    let query = this.db
      .selectFrom('domains')
      .innerJoin('accounts', 'accounts.id', 'domains.account_id')
      // By name: what the name servers answer for it (a deleted zone stays served until the next cycle).
      .leftJoin('zone_publications', 'zone_publications.zone', 'domains.name')
      .select(['domains.name', 'accounts.userid', 'domains.type', 'domains.state', 'domains.on_hold', 'zone_publications.served_serial'])
      .orderBy('domains.name');
    if (options.held) query = query.where('domains.on_hold', '=', 1);
    const rows = await query.execute();
    return rows.map((r) => ({
      domain: r.name,
      account: r.userid,
      type: r.type,
      state: Number(r.state),
      hold: Number(r.on_hold) !== 0,
      servedSerial: r.served_serial === null ? null : Number(r.served_serial),
    }));
  }
}
