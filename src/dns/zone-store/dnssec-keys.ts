import type { Selectable } from 'kysely';
import type { DnssecKeysTable } from '../../store/schema.ts';
import { forUpdate, writeFirst } from '../../store/dialect.ts';
import type { Executor } from './domains.ts';

/**
 * The zone store's DNSSEC rows: the `dnssec_keys` table and the domain's
 * `dnssec` and `dnssec_nsec3` choices (see domains.ts for the store as a whole). What the keys'
 * times mean is src/dns/dnssec/keyring.ts's business; this file only reads
 * and writes them.
 */
export type KeyRow = Selectable<DnssecKeysTable>;

export async function keysOf(db: Executor, domainId: number): Promise<KeyRow[]> {
  return db.selectFrom('dnssec_keys').selectAll().where('domain_id', '=', domainId).orderBy('id').execute();
}

/**
 * The keys, read to be changed: the domain row is held (PostgreSQL) or the
 * write lock taken (SQLite) until the transaction ends, so two processes
 * signing at once (a cycle and `admin distribute`) cannot both make a
 * zone's first keys or both start its ZSK roll.
 */
export async function keysForUpdate(trx: Executor, domainId: number): Promise<KeyRow[]> {
  await writeFirst(trx, 'dnssec_keys');
  await forUpdate(trx, trx.selectFrom('domains').select('id').where('id', '=', domainId)).execute();
  return keysOf(trx, domainId);
}

export async function insertKey(trx: Executor, row: Omit<KeyRow, 'id'>): Promise<void> {
  await trx.insertInto('dnssec_keys').values(row).execute();
}

export async function retireKey(trx: Executor, id: number, retireAt: number, removeAt: number): Promise<void> {
  await trx.updateTable('dnssec_keys').set({ retire_at: retireAt, remove_at: removeAt }).where('id', '=', id).execute();
}

export async function deleteKeys(trx: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length) await trx.deleteFrom('dnssec_keys').where('id', 'in', ids).execute();
}

/** Turning signing off drops the keys: turned on again, the zone gets new ones (and the user a new DS). */
export async function deleteAllKeys(trx: Executor, domainId: number): Promise<void> {
  await trx.deleteFrom('dnssec_keys').where('domain_id', '=', domainId).execute();
}

/**
 * Sets the domain's choice, and has the next cycle sign (or unsign) its
 * zone at once: the served version's re-sign time moves to 0, a pending
 * version is signed anew.
 */
export async function setSigning(trx: Executor, domainId: number, on: boolean): Promise<void> {
  await trx
    .updateTable('domains')
    .set({ dnssec: on ? 1 : 0 })
    .where('id', '=', domainId)
    .execute();
  await resignSoon(trx, domainId);
}

/**
 * Sets the domain's denial of existence (NSEC or NSEC3) and, like
 * setSigning, has the next cycle sign its zone again: the signer makes the
 * whole chain anew from the unsigned version, so none of the other kind is left.
 */
export async function setDenial(trx: Executor, domainId: number, nsec3: boolean): Promise<void> {
  await trx
    .updateTable('domains')
    .set({ dnssec_nsec3: nsec3 ? 1 : 0 })
    .where('id', '=', domainId)
    .execute();
  await resignSoon(trx, domainId);
}

/** The next distribution cycle signs the domain's zone again (its keys changed). */
export async function resignSoon(trx: Executor, domainId: number): Promise<void> {
  await trx
    .updateTable('zone_publications')
    .set({ served_resign_at: 0 })
    .where('domain_id', '=', domainId)
    .where('served_resign_at', 'is not', null)
    .execute();
  await trx
    .updateTable('zone_publications')
    .set({ pending_resign_at: null })
    .where('domain_id', '=', domainId)
    .execute();
}

/** A sealed private key with the zone it is bound to (seal.ts: `zone/role/tag`). */
export interface SealedKey {
  zone: string;
  role: 'ksk' | 'zsk';
  tag: number;
  sealed: string;
}

/** Every sealed key of the store: what a key-encryption key must open (src/dns/dnssec-kek.ts). */
export async function sealedKeys(db: Executor): Promise<SealedKey[]> {
  return db
    .selectFrom('dnssec_keys')
    .innerJoin('domains', 'domains.id', 'dnssec_keys.domain_id')
    .select(['domains.name as zone', 'dnssec_keys.role', 'dnssec_keys.tag', 'dnssec_keys.sealed'])
    .orderBy('dnssec_keys.id')
    .execute();
}
