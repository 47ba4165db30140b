import type { AccountRow } from '../accounts/accounts.ts';
import { useridsOf } from '../accounts/account-store.ts';
import type { Clock } from '../clock.ts';
import { fail } from '../errors.ts';
import type { Db } from '../store/db.ts';
import { lockAccount } from '../store/dialect.ts';
import { normalizeDomain } from './names.ts';
import type { ZoneCaps } from './limits.ts';
import { ancestors, type NamePolicySettings, REFUSAL_CODE, refusal } from './name-policy.ts';
import { defaultSoa, type Fields } from './records.ts';
import { accountFigures, domainSummaries } from './subscription.ts';
import { DomainState } from './states.ts';
import { nextSerial, type ZoneModel } from './zone.ts';
import {
  accountDomainNames,
  deleteOwnDomain,
  type DomainRow,
  domainByName,
  domainsAround,
  insertDomain,
  listDomains,
  lockNames,
  nameTaken,
  ownDomain,
  releaseDomain,
  setDomainState,
  type Trx,
} from './zone-store/domains.ts';
import { insertRecords, zoneRecords } from './zone-store/records.ts';
import { WIRE } from './rr/wire-names.ts';

export type { DomainRow, Trx };

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
 * returns the domain to Unvalidated (spec section 3). The rows are the zone
 * store's (src/dns/zone-store/); this class decides, the store queries.
 */
export class Domains {
  constructor(
    readonly db: Db,
    readonly clock: Clock,
    readonly settings: DnsSettings,
  ) {}

  /** The caller's domain named by the `domain` field, or the spec's codes. */
  async own(account: AccountRow, field: string | undefined, db: Db | Trx = this.db, lock = false): Promise<DomainRow> {
    const name = field === undefined ? null : normalizeDomain(field);
    if (name === null) fail('syntaxInvalidDomain');
    return (await ownDomain(db, account.id, name, lock)) ?? fail('noSuchDomain');
  }

  async add(account: AccountRow, fields: Fields): Promise<void> {
    if (fields.aup !== 'YES') fail('mustAcceptAUP');
    const name = fields.domain === undefined ? null : normalizeDomain(fields.domain);
    if (name === null) fail('syntaxInvalidDomain');
    const type = fields.domaintype;
    if (type !== 'master' && type !== 'slave') fail('syntaxInvalidDomainType');
    const refused = refusal(name, this.settings);
    if (refused) fail(REFUSAL_CODE[refused]);
    await this.db.transaction().execute(async (trx) => {
      // The credits check and the name checks below read before they write:
      // the account's row lock and the name-claim lock (PostgreSQL), or the
      // write lock taken first (SQLite), keep two adds in any processes from
      // both passing them (src/store/races.test.ts).
      await lockAccount(trx, account.id);
      await lockNames(trx);
      if (await nameTaken(trx, name)) fail('unableToAddDuplicate');
      // A name inside or above another account's domain would hide or be hidden by it (docs/security.md).
      if (
        !this.settings.allowDomains.includes('nested') &&
        (await domainsAround(trx, name, ancestors(name))).some((d) => d.account_id !== account.id)
      ) {
        fail(REFUSAL_CODE.nested);
      }
      const used = (await domainSummaries(trx, account.id)).reduce((sum, d) => sum + d.weight, 0);
      if (used + 1 > Number(account.dns_credits)) fail('dnsEntitlementsOrCreditsMissing');
      const id = await insertDomain(trx, {
        account_id: account.id,
        name,
        type,
        state: DomainState.Unvalidated,
        on_hold: this.settings.domainHold === 'manual' ? 1 : 0,
        serial: 0,
        created_at: this.clock.now(),
      });
      // A slave zone's records come from its masters, so it starts empty.
      if (type === 'master') {
        const ns = [1, 2, 3, 4].map((n) => ({
          type: WIRE.NS,
          data: { name: '', data: `ns${n}.${this.settings.nsDomain}.` },
        }));
        await insertRecords(trx, id, [{ type: WIRE.SOA, data: defaultSoa(name, this.settings.nsDomain) }, ...ns]);
      }
    });
  }

  /** Deletes the caller's domain; the next distribution cycle removes it from the name servers. */
  async delete(account: AccountRow, field: string | undefined) {
    const name = field === undefined ? null : normalizeDomain(field);
    if (name === null) fail('syntaxInvalidDomain');
    const deleted = await this.db
      .transaction()
      .execute((trx) => deleteOwnDomain(trx, account.id, name, this.clock.now()));
    if (!deleted) fail('domainNotDeleted');
    return accountFigures(account, await domainSummaries(this.db, account.id));
  }

  /** Runs a zone change in one transaction and marks the domain Unvalidated. */
  async change<T>(
    account: AccountRow,
    field: string | undefined,
    work: (trx: Trx, domain: DomainRow) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      // Locked (PostgreSQL): the zone's checks (record caps, sets) read before they write.
      const domain = await this.own(account, field, trx, true);
      const result = await work(trx, domain);
      await setDomainState(trx, domain.id, DomainState.Unvalidated);
      return result;
    });
  }

  /** The zone as a publish now would produce it: stored records and the next serial. */
  async model(domain: DomainRow, db: Db | Trx = this.db): Promise<ZoneModel> {
    return {
      zone: domain.name,
      serial: nextSerial(Number(domain.serial) || null, new Date(this.clock.now())),
      records: await zoneRecords(db, domain.id),
    };
  }

  /** The names of the account's domains (dnsAddSRV without a domain). */
  names(account: AccountRow): Promise<string[]> {
    return accountDomainNames(this.db, account.id);
  }

  /** Operator: what a domain is and what it nests with, before a release. */
  async summary(name: string): Promise<DomainSummary | null> {
    const zone = normalizeDomain(name);
    if (zone === null) return null;
    const row = await domainByName(this.db, zone);
    if (!row) return null;
    const around = (await domainsAround(this.db, zone, ancestors(zone))).filter((d) => d.account_id !== row.account_id);
    const users = await useridsOf(this.db, [row.account_id, ...around.map((d) => d.account_id)]);
    const nestedWith = around.map((d) => ({ name: d.name, userid: users.get(d.account_id) ?? '?' }));
    return {
      name: row.name,
      userid: users.get(row.account_id) ?? '?',
      type: row.type,
      onHold: row.on_hold === 1,
      nestedWith,
    };
  }

  /** Operator: lifts the hold on a newly added domain. */
  async release(name: string): Promise<boolean> {
    const zone = normalizeDomain(name);
    return zone !== null && releaseDomain(this.db, zone);
  }

  /** Operator: every domain (or only those on hold) with its account and served serial, by name. */
  async list(options: { held?: boolean } = {}): Promise<DomainListing[]> {
    const rows = await listDomains(this.db, options.held === true);
    const users = await useridsOf(
      this.db,
      rows.map((r) => r.account_id),
    );
    return rows.map((r) => ({
      domain: r.name,
      account: users.get(r.account_id) ?? '?',
      type: r.type,
      state: Number(r.state),
      hold: Number(r.on_hold) !== 0,
      servedSerial: r.served_serial === null ? null : Number(r.served_serial),
    }));
  }
}
