import { DomainState } from '../states.ts';
import type { ZoneModel } from '../zone.ts';
import type { Executor } from './domains.ts';
import { nextServedSeq } from './served.ts';

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
      ? { pending_serial: model.serial, pending_snapshot: snapshot, pending_resign_at: null }
      : {
          served_serial: model.serial,
          served_snapshot: snapshot,
          served_resign_at: null,
          served_seq: await nextServedSeq(trx),
          pending_serial: null,
          pending_snapshot: null,
          pending_resign_at: null,
        };
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
  return (await trx.deleteFrom('zone_publications').where('removing', '=', 1).returning('zone').execute()).map(
    (r) => r.zone,
  );
}

export interface PendingVersion {
  zone: string;
  domainId: number | null;
  serial: number;
  /** Signed: when to sign again; null: unsigned. */
  resignAt: number | null;
  /** The domain wants it signed (an unsigned version waits for the signer, src/dns/sign-pass.ts). */
  mustSign: boolean;
}

export async function pendingVersions(trx: Executor): Promise<PendingVersion[]> {
  const rows = await trx
    .selectFrom('zone_publications')
    .leftJoin('domains', 'domains.id', 'zone_publications.domain_id')
    // Not the snapshot: promotePending copies it inside the store (a signed 100,000-record zone's is 58 MB,
    // read into and written back from the main thread twice per version before).
    .select(['zone', 'domain_id', 'pending_serial', 'pending_resign_at', 'domains.dnssec'])
    .where('pending_snapshot', 'is not', null)
    .execute();
  return rows.map((r) => ({
    zone: r.zone,
    domainId: r.domain_id,
    serial: Number(r.pending_serial),
    resignAt: r.pending_resign_at === null ? null : Number(r.pending_resign_at),
    mustSign: Number(r.dnssec ?? 0) === 1,
  }));
}

/**
 * Serves a pending version, if it is still the one waiting (a publish in
 * another process may have queued a newer one meanwhile: that one stays
 * for the next cycle). Only a domain still waiting for this very version
 * becomes Active; one changed since stays Unvalidated. Domain before
 * publication, in the order a publish locks them, so the two cannot
 * deadlock on PostgreSQL. `seq`: its served_seq, from nextServedSeq in
 * this transaction (a cycle takes one and counts up). True when the version moved.
 */
export async function promotePending(trx: Executor, p: PendingVersion, now: number, seq: number): Promise<boolean> {
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
    .set((eb) => ({
      served_serial: p.serial,
      // Every SET reads the row as it was (SQL's rule, SQLite and PostgreSQL alike): the pending snapshot moves.
      served_snapshot: eb.ref('pending_snapshot'),
      served_resign_at: p.resignAt,
      served_seq: seq,
      pending_serial: null,
      pending_snapshot: null,
      pending_resign_at: null,
      changed_at: now,
    }))
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

/** A zone the signer must look at (src/dns/sign-pass.ts). */
export interface SigningCandidate {
  zone: string;
  domainId: number;
  /** The domain wants its zone signed. */
  sign: boolean;
  /** Its authenticated denial (domains.dnssec_nsec3). */
  denial: 'nsec' | 'nsec3';
  /** The version to (un)sign: the pending one if any, else the served one. */
  stage: 'pending' | 'served';
  serial: number;
  snapshot: string;
}

/**
 * The zones whose next version must be signed, signed again or unsigned:
 * a domain that signs with an unsigned pending version, or no pending
 * version and a served one that is unsigned or due for re-signing by
 * `horizon`; and a domain that no longer signs whose served version still is.
 * Master domains only: a slave zone is signed (or not) by its masters.
 */
export async function signingCandidates(db: Executor, horizon: number): Promise<SigningCandidate[]> {
  const rows = await db
    .selectFrom('zone_publications as p')
    .innerJoin('domains as d', 'd.id', 'p.domain_id')
    .select([
      'p.zone',
      'p.domain_id',
      'd.dnssec',
      'd.dnssec_nsec3',
      'p.served_serial',
      'p.served_snapshot',
      'p.pending_serial',
      'p.pending_snapshot',
    ])
    .where('d.type', '=', 'master')
    .where('p.removing', '=', 0)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('d.dnssec', '=', 1),
          eb('p.pending_snapshot', 'is not', null),
          eb('p.pending_resign_at', 'is', null),
        ]),
        eb.and([
          eb('d.dnssec', '=', 1),
          eb('p.pending_snapshot', 'is', null),
          eb('p.served_snapshot', 'is not', null),
          eb.or([eb('p.served_resign_at', 'is', null), eb('p.served_resign_at', '<=', horizon)]),
        ]),
        eb.and([
          eb('d.dnssec', '=', 0),
          eb('p.pending_snapshot', 'is', null),
          eb('p.served_resign_at', 'is not', null),
        ]),
      ]),
    )
    .execute();
  return rows.map((r) => {
    const pending = r.pending_snapshot !== null;
    return {
      zone: r.zone,
      domainId: r.domain_id!,
      sign: Number(r.dnssec) === 1,
      denial: Number(r.dnssec_nsec3) === 1 ? 'nsec3' : 'nsec',
      stage: pending ? 'pending' : 'served',
      serial: Number(pending ? r.pending_serial : r.served_serial),
      snapshot: (pending ? r.pending_snapshot : r.served_snapshot)!,
    };
  });
}

/**
 * Queues the signed (or unsigned) version the signer made from a
 * candidate, if the candidate is still what the store holds (a publish
 * that landed meanwhile wins; the next cycle signs it). From the served
 * version the new one has a higher serial, which the domain's serial
 * follows so that the next publish goes above it. True when it landed.
 */
export async function stageSigned(
  trx: Executor,
  c: SigningCandidate,
  serial: number,
  snapshot: string,
  resignAt: number | null,
): Promise<boolean> {
  let q = trx
    .updateTable('zone_publications')
    .set({ pending_serial: serial, pending_snapshot: snapshot, pending_resign_at: resignAt })
    .where('zone', '=', c.zone)
    .where('removing', '=', 0);
  q =
    c.stage === 'pending'
      ? q.where('pending_serial', '=', c.serial)
      : q.where('pending_snapshot', 'is', null).where('served_serial', '=', c.serial);
  const landed = (await q.executeTakeFirst()).numUpdatedRows > 0n;
  if (landed && c.stage === 'served')
    await trx
      .updateTable('domains')
      .set({ serial })
      .where('id', '=', c.domainId)
      .where('serial', '<', serial)
      .execute();
  return landed;
}
