import { sql } from 'kysely';
import { DomainState } from '../states.ts';
import type { ZoneModel } from '../zone.ts';
import type { Executor } from './domains.ts';
import { nextServedSeq, raiseServedSeqFloor } from './served.ts';

/**
 * The zone store's `zone_publications` rows (see domains.ts for the store
 * as a whole): what the name servers serve, and the version waiting for
 * the next distribution cycle.
 */

const EMPTY = { served_serial: null, served_snapshot: null, pending_serial: null, pending_snapshot: null };

/** A version already serialized (`JSON.stringify` of its model: a publish's thread wrote it, publish-jobs.ts). */
export interface VersionText {
  serial: number;
  text: string;
}

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
  model: ZoneModel | VersionText,
  stage: 'pending' | 'served',
  now: number,
): Promise<void> {
  const state = stage === 'pending' ? DomainState.Waiting : DomainState.Active;
  await trx.updateTable('domains').set({ state, serial: model.serial }).where('id', '=', domain.id).execute();
  const snapshot = 'text' in model ? model.text : JSON.stringify(model);
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

/**
 * Deletes the zones marked for removal; returns their names. `seq`: the
 * cycle's first served_seq (nextServedSeq, taken before): it becomes the
 * floor of the numbering, so the numbers of the rows deleted are never
 * taken again and servedGeneration rises with the removal.
 */
export async function removeMarked(trx: Executor, now: number, seq: number): Promise<string[]> {
  const rows = await trx.deleteFrom('zone_publications').where('removing', '=', 1).returning('zone').execute();
  if (rows.length) await raiseServedSeqFloor(trx, seq, now);
  return rows.map((r) => r.zone);
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
 * A number that rises whenever what the store serves changes: a cycle (in
 * any process, or `admin distribute`) moves a version or removes a zone, a
 * slave copy arrives. Every served version's row takes a served_seq above
 * every number taken before (nextServedSeq), and a removal raises the
 * floor to the cycle's first number (removeMarked): the higher of the
 * highest row and the floor. Two index look-ups, read every second by every
 * `serve`: the aggregate over every row it replaced (count, serial sum and
 * latest change of the served rows) read the whole table, 100,000 rows of
 * snapshots at provider scale (docs/performance.md, "100,000 zones").
 */
export async function servedGeneration(db: Executor): Promise<string> {
  const { rows } = await sql<{ top: unknown; floor: unknown }>`
    select (select max(served_seq) from zone_publications) as top,
      (select served_seq_floor from distribution_schedule where id = 1) as floor`.execute(db);
  // PostgreSQL answers bigint as strings, SQLite as numbers: one form for both.
  return String(Math.max(Number(rows[0]?.top ?? 0), Number(rows[0]?.floor ?? 0)));
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
  // The three kinds, each found through its own index (migration 013): one statement testing all three read
  // every row, 1.2 s at 100,000 zones on SQLite (docs/performance.md, "100,000 zones"). They are disjoint.
  const columns = [
    'p.zone',
    'p.domain_id',
    'd.dnssec',
    'd.dnssec_nsec3',
    'p.served_serial',
    'p.served_snapshot',
    'p.pending_serial',
    'p.pending_snapshot',
  ] as const;
  const fromPublications = () =>
    db
      .selectFrom('zone_publications as p')
      .innerJoin('domains as d', 'd.id', 'p.domain_id')
      .select(columns)
      .where('d.type', '=', 'master')
      .where('p.removing', '=', 0);
  // The signing domains first (domains_signing), then their rows (zone_publications_domain): CROSS JOIN keeps
  // that order on SQLite; PostgreSQL reads it as the inner join it is.
  const fromSigningDomains = db
    .selectFrom('domains as d')
    .crossJoin('zone_publications as p')
    .select(columns)
    .whereRef('p.domain_id', '=', 'd.id')
    .where('d.dnssec', '=', 1)
    .where('d.type', '=', 'master')
    .where('p.removing', '=', 0)
    .where('p.pending_snapshot', 'is', null)
    .where('p.served_snapshot', 'is not', null)
    .where((eb) => eb.or([eb('p.served_resign_at', 'is', null), eb('p.served_resign_at', '<=', horizon)]));
  const rows = await fromPublications()
    // A signing domain's unsigned pending version (zone_publications_pending).
    .where('p.pending_snapshot', 'is not', null)
    .where('p.pending_resign_at', 'is', null)
    .where('d.dnssec', '=', 1)
    // A signing domain's served version, unsigned or due.
    .unionAll(fromSigningDomains)
    // A signed served version of a domain that no longer signs (zone_publications_signed).
    .unionAll(
      fromPublications()
        .where('p.served_resign_at', 'is not', null)
        .where('p.pending_snapshot', 'is', null)
        .where('d.dnssec', '=', 0),
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
