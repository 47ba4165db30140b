import { DomainState } from '../states.ts';
import type { ZoneModel } from '../zone.ts';
import type { Executor } from './domains.ts';

/**
 * The zone store's `zone_publications` rows (see domains.ts for the store
 * as a whole): what the name servers serve, and the version waiting for
 * the next distribution cycle.
 */

const EMPTY = { served_serial: null, served_snapshot: null, pending_serial: null, pending_snapshot: null };

/**
 * THE publication path: the one function that writes a new version of a
 * zone for the name servers. A publish queues it (`pending`: the next
 * distribution cycle serves it, the domain waits); a slave zone's copy
 * from its masters is served at once (`served`: its masters decided when
 * to publish, the domain is Active). Both set the domain's serial, in the
 * caller's transaction.
 */
export async function writePublication(
  trx: Executor,
  domain: { id: number; name: string },
  model: ZoneModel,
  stage: 'pending' | 'served',
  now: number,
): Promise<void> {
  const state = stage === 'pending' ? DomainState.Waiting : DomainState.Active;
  await trx.updateTable('domains').set({ state, serial: model.serial }).where('id', '=', domain.id).execute();
  const snapshot = JSON.stringify(model);
  const version =
    stage === 'pending'
      ? { pending_serial: model.serial, pending_snapshot: snapshot }
      : { served_serial: model.serial, served_snapshot: snapshot, pending_serial: null, pending_snapshot: null };
  const row = { ...version, domain_id: domain.id, removing: 0, changed_at: now };
  await trx
    .insertInto('zone_publications')
    .values({ ...EMPTY, zone: domain.name, ...row })
    .onConflict((oc) => oc.column('zone').doUpdateSet(row))
    .execute();
}

/** A deleted domain's zone: the next cycle removes it from the name servers. */
export async function markRemoving(trx: Executor, zone: string, now: number): Promise<void> {
  await trx.updateTable('zone_publications').set({ removing: 1, changed_at: now }).where('zone', '=', zone).execute();
}

/** Deletes the zones marked for removal; returns their names. */
export async function removeMarked(trx: Executor): Promise<string[]> {
  return (await trx.deleteFrom('zone_publications').where('removing', '=', 1).returning('zone').execute()).map((r) => r.zone);
}

export interface PendingVersion {
  zone: string;
  domainId: number | null;
  serial: number;
  snapshot: string;
}

export async function pendingVersions(trx: Executor): Promise<PendingVersion[]> {
  const rows = await trx
    .selectFrom('zone_publications')
    .select(['zone', 'domain_id', 'pending_serial', 'pending_snapshot'])
    .where('pending_snapshot', 'is not', null)
    .execute();
  return rows.map((r) => ({ zone: r.zone, domainId: r.domain_id, serial: Number(r.pending_serial), snapshot: r.pending_snapshot! }));
}

/**
 * Serves a pending version, if it is still the one waiting (a publish in
 * another process may have queued a newer one meanwhile: that one stays
 * for the next cycle). Only a domain still waiting for this very version
 * becomes Active; one changed since stays Unvalidated. Domain before
 * publication, in the order a publish locks them, so the two cannot
 * deadlock on PostgreSQL. True when the version moved.
 */
export async function promotePending(trx: Executor, p: PendingVersion, now: number): Promise<boolean> {
  if (p.domainId !== null) {
    await trx
      .updateTable('domains')
      .set({ state: DomainState.Active })
      .where('id', '=', p.domainId)
      .where('state', '=', DomainState.Waiting)
      .where('serial', '=', p.serial)
      .execute();
  }
  const moved = await trx
    .updateTable('zone_publications')
    .set({ served_serial: p.serial, served_snapshot: p.snapshot, pending_serial: null, pending_snapshot: null, changed_at: now })
    .where('zone', '=', p.zone)
    .where('pending_serial', '=', p.serial)
    .executeTakeFirst();
  return moved.numUpdatedRows > 0n;
}

/**
 * A fingerprint of what the store says is served: it changes whenever a
 * cycle (in any process, or `admin distribute`) moves a version or removes
 * a zone, and when a slave copy arrives. One aggregate row, cheap enough to
 * read every second. The count catches removals, the serial sum new
 * versions even on a clock that stands still (tests), changed_at the rest
 * (a zone removed and another added with the same serial in one cycle).
 * changed_at counts only on rows without a pending version, so a publish
 * alone does not move it (unless it takes out the latest such row: a
 * reload then finds no new version and swaps nothing).
 */
export async function servedGeneration(db: Executor): Promise<string> {
  const row = await db
    .selectFrom('zone_publications')
    .select((eb) => [
      eb.fn.count<number>('served_serial').as('n'),
      eb.fn.sum<number>('served_serial').as('serials'),
      eb.fn.max(eb.case().when('pending_snapshot', 'is', null).then(eb.ref('changed_at')).end()).as('at'),
    ])
    .where('served_snapshot', 'is not', null)
    .executeTakeFirstOrThrow();
  // PostgreSQL answers bigint aggregates as strings, SQLite as numbers: one form for both.
  return `${Number(row.n)}/${Number(row.serials ?? 0)}/${Number(row.at ?? 0)}`;
}

/** Every served version (what the name servers answer). */
export async function servedModels(db: Executor): Promise<ZoneModel[]> {
  const rows = await db.selectFrom('zone_publications').select('served_snapshot').where('served_snapshot', 'is not', null).execute();
  return rows.map((r) => JSON.parse(r.served_snapshot!) as ZoneModel);
}
