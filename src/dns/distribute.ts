import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import type { ZoneSigner } from './sign-pass.ts';
import { pendingVersions, promotePending, removeMarked, servedGeneration } from './zone-store/publications.ts';
import { nextServedSeq } from './zone-store/served.ts';

export { servedGeneration };

export interface CycleResult {
  distributed: string[];
  removed: string[];
  /** Zones signed (or unsigned) for this cycle. */
  signed: string[];
}

/**
 * One distribution cycle: published versions become the served ones, their
 * domains become Active, and deleted domains leave the serving set. All in
 * one transaction, so the serving set moves from one whole state to the next.
 */
export async function distributionCycle(db: Db, clock: Clock, signer?: ZoneSigner): Promise<CycleResult> {
  // Signing first, outside the transaction (sign-pass.ts says why); what it
  // queued is served below like any published version.
  const signed = signer ? await signer.pass() : [];
  return db.transaction().execute(async (trx) => {
    // First, before any row lock: the served versions' numbers (served_seq), taken under the lock it holds to commit.
    let seq = await nextServedSeq(trx);
    const now = clock.now();
    const removed = await removeMarked(trx, now, seq);
    // On PostgreSQL a publish may commit while this runs (SQLite has one
    // writer at a time): each step applies only to the version read here
    // (every publish has a new serial), so a newer one stays pending for the
    // next cycle instead of being overwritten (promotePending).
    const distributed: string[] = [];
    for (const p of await pendingVersions(trx)) {
      // A domain that signs never serves an unsigned version: it waits for the signer's next pass.
      if (p.mustSign && p.resignAt === null) continue;
      if (await promotePending(trx, p, now, seq)) {
        distributed.push(p.zone);
        seq++;
      }
    }
    return { distributed, removed, signed };
  });
}
