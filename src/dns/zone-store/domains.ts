import type { Kysely, Selectable, Transaction } from 'kysely';
import { forUpdate, serialize, writeFirst } from '../../store/dialect.ts';
import { precompile } from '../../store/precompiled.ts';
import { perStoreCache } from '../../store/read-cache.ts';
import type { Database, DomainsTable } from '../../store/schema.ts';
import { markRemoving } from './publications.ts';
import { Options } from '../rr/options.ts';
import { WebForwarding } from '../rr/web-forwarding.ts';

/**
 * The zone store (src/dns/zone-store/) is the one owner of the tables
 * `domains`, `records` and `zone_publications`: every query on them is in
 * these three files, and nothing else builds SQL for them (issue 13). The
 * files split by the table a query is mostly about; some span two (a record
 * write raises its domain's records_version, a publication sets its
 * domain's serial and state). Callers pass the executor: the store, or the
 * transaction a change runs in, so transactions stay where the services
 * decide them. This file: the `domains` rows.
 */
export type Executor = Kysely<Database>;
export type Trx = Transaction<Database>;
export type DomainRow = Selectable<DomainsTable>;

/**
 * Compiled once per store (a WeakMap by store): these run on every call of
 * a client's hot path, where building and compiling a Kysely query cost
 * more than running it (src/store/precompiled.ts).
 */
function perStore<F>(build: (db: Executor) => F): (db: Executor) => F {
  const made = new WeakMap<Executor, F>();
  return (db) => {
    let f = made.get(db);
    if (!f) made.set(db, (f = build(db)));
    return f;
  };
}

const ownQuery = perStore((db) =>
  precompile<DomainRow, [string, number]>(
    (name, accountId) =>
      db
        .selectFrom('domains')
        .selectAll()
        .where('name', '=', name!)
        .where('account_id', '=', accountId as unknown as number),
    2,
  ),
);

/**
 * The account's domain of that name. `lock`: held (PostgreSQL) until the
 * transaction ends, because the caller's checks read before they write.
 */
export async function ownDomain(
  db: Executor,
  accountId: number,
  name: string,
  lock = false,
): Promise<DomainRow | undefined> {
  if (!lock) return (await ownQuery(db)(db, name, accountId))[0];
  await writeFirst(db, 'domains');
  return forUpdate(
    db,
    db.selectFrom('domains').selectAll().where('name', '=', name).where('account_id', '=', accountId),
  ).executeTakeFirst();
}

/**
 * Before a domain add reads the names it checks: one add at a time, in
 * any process (PostgreSQL: an advisory lock, the names may not exist yet;
 * SQLite: the write lock, taken before the reads).
 */
export async function lockNames(trx: Executor): Promise<void> {
  await serialize(trx, 'domainNames');
}

export async function nameTaken(db: Executor, name: string): Promise<boolean> {
  return (await db.selectFrom('domains').select('id').where('name', '=', name).executeTakeFirst()) !== undefined;
}

/** Domains (of any account) below `name` or named in `above`, the name itself excluded. */
export async function domainsAround(
  db: Executor,
  name: string,
  above: string[],
): Promise<{ name: string; account_id: number }[]> {
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

export async function insertDomain(
  trx: Executor,
  values: Omit<DomainRow, 'id' | 'records_version' | 'dnssec' | 'dnssec_nsec3'>,
): Promise<number> {
  return (await trx.insertInto('domains').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/**
 * Deletes the account's domain and marks its publication for removal (the
 * next cycle takes it off the name servers). False when there is none.
 */
export async function deleteOwnDomain(trx: Executor, accountId: number, name: string, now: number): Promise<boolean> {
  // Locked (PostgreSQL) before its publication, in the order a publish
  // takes them; a second delete at once then finds nothing.
  await writeFirst(trx, 'domains');
  const row = await forUpdate(
    trx,
    trx.selectFrom('domains').select('id').where('name', '=', name).where('account_id', '=', accountId),
  ).executeTakeFirst();
  if (!row) return false;
  await markRemoving(trx, name, now);
  await trx.deleteFrom('domains').where('id', '=', row.id).execute();
  return true;
}

export async function setDomainState(trx: Executor, id: number, state: number): Promise<void> {
  await trx.updateTable('domains').set({ state }).where('id', '=', id).execute();
}

/** A domain by name, any account's (operator commands). */
export async function domainByName(
  db: Executor,
  name: string,
): Promise<Pick<DomainRow, 'name' | 'type' | 'on_hold' | 'account_id'> | undefined> {
  return db
    .selectFrom('domains')
    .select(['name', 'type', 'on_hold', 'account_id'])
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function releaseDomain(db: Executor, name: string): Promise<boolean> {
  const r = await db.updateTable('domains').set({ on_hold: 0 }).where('name', '=', name).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Every domain (or those on hold) by name, with the serial served under its name. */
export async function listDomains(db: Executor, held: boolean) {
  let query = db
    .selectFrom('domains')
    // By name: what the name servers answer for it (a deleted zone stays served until the next cycle).
    .leftJoin('zone_publications', 'zone_publications.zone', 'domains.name')
    .select([
      'domains.name',
      'domains.account_id',
      'domains.type',
      'domains.state',
      'domains.on_hold',
      'zone_publications.served_serial',
    ])
    .orderBy('domains.name');
  if (held) query = query.where('domains.on_hold', '=', 1);
  return query.execute();
}

export async function accountDomainNames(db: Executor, accountId: number): Promise<string[]> {
  return (await db.selectFrom('domains').select('name').where('account_id', '=', accountId).execute()).map(
    (d) => d.name,
  );
}

/** One line of the account's domain list: its web forwardings decide its credit weight. */
export interface DomainSummaryRow {
  seq: number;
  domain: string;
  state: number;
  on_hold: number;
  forwards: number;
  served_serial: number | null;
}

const summaryQuery = perStore((db) =>
  precompile<DomainSummaryRow, [number]>(
    (accountId) =>
      db
        .selectFrom('domains')
        .select((eb) => [
          'domains.id as seq',
          'domains.name as domain',
          'domains.state',
          'domains.on_hold',
          eb
            .selectFrom('records')
            .select((r) => r.fn.countAll<number>().as('n'))
            .whereRef('records.domain_id', '=', 'domains.id')
            .where('records.type', '=', WebForwarding.type)
            .as('forwards'),
          eb
            .selectFrom('zone_publications')
            .select('zone_publications.served_serial')
            .whereRef('zone_publications.zone', '=', 'domains.name')
            .as('served_serial'),
        ])
        .where('domains.account_id', '=', accountId as unknown as number)
        .orderBy('domains.id'),
    1,
  ),
);

/** The account's domains in the order they were added (the domain list: every client's hot path). */
export function domainSummaryRows(db: Executor, accountId: number): Promise<DomainSummaryRow[]> {
  // Kept while the store is unchanged (src/store/read-cache.ts): any write anywhere drops it.
  return summaryCache(db).get(db, accountId, () => summaryQuery(db)(db, accountId));
}

const summaryCache = perStoreCache<number, DomainSummaryRow[]>();

/** Slave domains released by the operator, with their Options record's data (JSON). */
export async function slaveDomains(
  db: Executor,
): Promise<{ id: number; name: string; serial: number; options: string }[]> {
  // The slave domains first (domains_slave, migration 013), then their Options record (records_domain): the
  // secondary manager asks every second, and joined the other way round this read every record of the store
  // (220 ms at 5,000,000 records on SQLite; docs/performance.md, "100,000 zones"). CROSS JOIN keeps that order
  // on SQLite; PostgreSQL reads it as the inner join it is.
  return (
    db
      .selectFrom('domains')
      .crossJoin('records')
      .whereRef('records.domain_id', '=', 'domains.id')
      .select(['domains.id', 'domains.name', 'domains.serial', 'records.data as options'])
      .where('domains.type', '=', 'slave')
      // A slave domain on hold is not asked for anything: the operator has not looked at its masters yet.
      .where('domains.on_hold', '=', 0)
      .where('records.type', '=', Options.type)
      .execute()
  );
}
