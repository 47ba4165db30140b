import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import { generateKey, openPrivateKey, sealPrivateKey, exportPrivateKey, type ZoneKey } from './dnssec/index.ts';
import { DEFAULT_POLICY, keyStates, nextKeyEvent, plan, type KeyPolicy, type KeyTimes } from './dnssec/keyring.ts';
import type { SignReply } from './sign-jobs.ts';
import { type SignRunner, type SignRunnerOptions, signRunner } from './sign-thread.ts';
import { deleteKeys, insertKey, keysForUpdate, keysOf, type KeyRow, retireKey } from './zone-store/dnssec-keys.ts';
import { type SigningCandidate, signingCandidates, stageSigned } from './zone-store/publications.ts';

export interface SignerOptions {
  /**
   * The key-encryption key (src/dns/dnssec-kek.ts), read when a zone is first signed; called outside any
   * transaction (it may read the store).
   */
  readonly kek: () => Buffer | Promise<Buffer>;
  /** What WebForwarding hosts resolve to, as the name server serves them: the signer signs what is served. */
  readonly forwardAddress: string | null;
  /** The distribution interval: a zone due for re-signing before the next cycle is signed in this one. */
  readonly intervalMs: number;
  readonly policy?: KeyPolicy;
  readonly logger?: Logger;
  /** The signing thread's observer (the metrics) and the tests' fault hook (sign-thread.ts). */
  readonly thread?: SignRunnerOptions;
}

type PrepareReply = Extract<SignReply, { op: 'prepare' }>;
type SignedReply = Extract<SignReply, { op: 'sign' | 'unsigned' }>;

export const keyBinding = (zone: string, row: Pick<KeyRow, 'role' | 'tag'>) => `${zone}/${row.role}/${row.tag}`;

export const timesOf = (rows: readonly KeyRow[]): KeyTimes[] =>
  rows.map((r) => ({
    id: r.id,
    role: r.role,
    createdAt: Number(r.created_at),
    activeAt: Number(r.active_at),
    retireAt: r.retire_at === null ? null : Number(r.retire_at),
    removeAt: r.remove_at === null ? null : Number(r.remove_at),
  }));

/**
 * Signing at distribution (issue 19): run by the distribution cycle before
 * it serves the waiting versions, outside its transaction, so that SQLite's
 * single write lock is not held while a large zone is signed. For each zone
 * the store names (src/dns/zone-store/publications.ts, signingCandidates)
 * it applies the keys' schedule (dnssec/keyring.ts), signs the version, and
 * queues the result as the pending version; the cycle then serves it. A
 * served version that only needs fresh signatures (or new keys) comes back
 * with the serial one higher, so secondaries transfer it.
 *
 * The previous signing's signatures are kept per zone in memory: unchanged
 * sets keep their RRSIGs (dnssec/reuse.ts), so a publish after one change
 * re-makes a handful. After a restart the first signing makes them all.
 * Reading, signing and writing a version run on a worker thread
 * (sign-thread.ts); this class keeps the store's half: the candidates, the
 * keys' schedule and the staging.
 */
export class ZoneSigner {
  private readonly policy: KeyPolicy;
  /** The CPU-bound half, and each zone's signatures for reuse (sign-jobs.ts), on its own thread. */
  private readonly runner: SignRunner;
  /** Names each version handed to the thread (passes may overlap: a timer's cycle and a test's). */
  private tickets = 1;
  /**
   * Zones being signed by a pass of this process. The cycle's timer is armed before the cycle runs, so with a
   * signing longer than the interval (100,000 records: 30 s and more on the loaded VM, against `--publish-interval
   * 1s` in bench/sign-stall.ts) every cycle's pass found the same unsigned version and queued it again on the
   * thread, each with its own copy of the snapshot and of the zone's records: the serve grew past 8 GB while one
   * NSEC-to-NSEC3 switch waited behind its copies (docs/performance.md). A later pass skips such a zone; the pass
   * signing it queues the result as before.
   */
  private readonly busy = new Set<string>();
  /** Signings started (one per zone version signed or unsigned), for tests and metrics. */
  readonly stats = { signings: 0, skippedBusy: 0 };

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly o: SignerOptions,
  ) {
    this.policy = o.policy ?? DEFAULT_POLICY;
    this.runner = signRunner(o.thread);
  }

  /**
   * Signs what is due; returns the zones whose new version was queued. One zone's failure is logged and
   * leaves the others alone.
   */
  async pass(): Promise<string[]> {
    const now = this.clock.now();
    const done: string[] = [];
    for (const c of await signingCandidates(this.db, now + this.o.intervalMs)) {
      if (this.busy.has(c.zone)) {
        this.stats.skippedBusy++;
        continue;
      }
      this.busy.add(c.zone);
      this.stats.signings++;
      try {
        if (await this.one(c, now)) done.push(c.zone);
      } catch (err) {
        // The zone keeps serving its last version; its signatures last a week past the refresh (dnssec/sign.ts).
        this.o.logger?.error({ err, zone: c.zone }, 'dnssec: signing failed');
      } finally {
        this.busy.delete(c.zone);
      }
    }
    return done;
  }

  private async one(c: SigningCandidate, now: number): Promise<boolean> {
    // The snapshot is read, signed and written again on the signing thread (sign-thread.ts): a large
    // zone's JSON and signatures would otherwise hold the main thread for seconds.
    const ticket = this.tickets++;
    const prepared = await this.runner.run<PrepareReply>({
      op: 'prepare',
      ticket,
      zone: c.zone,
      snapshot: c.snapshot,
      bump: c.stage === 'served',
      forwardAddress: this.o.forwardAddress,
    });
    if (!c.sign) {
      const out = await this.runner.run<SignedReply>({ op: 'unsigned', ticket });
      return this.db.transaction().execute((trx) => stageSigned(trx, c, out.serial, out.snapshot, null));
    }
    try {
      return await this.signPrepared(c, now, ticket, prepared.maxTtlMs);
    } finally {
      // What the thread holds for this ticket goes either way (a failed schedule, a lost race for the store).
      await this.runner.run({ op: 'drop', ticket });
    }
  }

  private async signPrepared(c: SigningCandidate, now: number, ticket: number, maxTtlMs: number): Promise<boolean> {
    const kek = await this.o.kek();
    const rows = await this.applySchedule(c, now, maxTtlMs, kek);
    const times = timesOf(rows);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const keys = keyStates(times, now).map((st) => {
      const r = byId.get(st.id)!;
      return {
        role: r.role,
        algorithm: r.algorithm,
        pkcs8: openPrivateKey(r.sealed, kek, keyBinding(c.zone, r)),
        sign: st.sign,
      };
    });
    const out = await this.runner.run<SignedReply>({ op: 'sign', ticket, keys, denial: c.denial, now });
    const resignAt = Math.min(out.refreshAt, nextKeyEvent(times, now, this.policy, this.o.intervalMs));
    const landed = await this.db
      .transaction()
      .execute((trx) => stageSigned(trx, c, out.serial, out.snapshot, resignAt));
    await this.runner.run({ op: 'landed', ticket, landed });
    return landed;
  }

  /** Stops the signing thread (the app's close). */
  close(): Promise<void> {
    return this.runner.close();
  }

  /** The keys after what the schedule says is due now (the first keys of a zone, a ZSK roll's steps). */
  private async applySchedule(c: SigningCandidate, now: number, maxTtl: number, kek: Buffer): Promise<KeyRow[]> {
    const idle = (d: ReturnType<typeof plan>) => !d.create.length && !d.retire.length && !d.remove.length;
    const rows = await keysOf(this.db, c.domainId);
    // Most signings change no key: decided without a write.
    if (idle(plan(timesOf(rows), now, maxTtl, this.policy, this.o.intervalMs))) return rows;
    const due = await this.db.transaction().execute(async (trx) => {
      // Decided again under the lock: another process may have just done it (races.test.ts, "signing").
      const d = plan(timesOf(await keysForUpdate(trx, c.domainId)), now, maxTtl, this.policy, this.o.intervalMs);
      for (const k of d.create)
        await insertKey(trx, sealedRow(c.domainId, c.zone, generateKey(k.role), kek, now, k.activeAt));
      for (const r of d.retire) await retireKey(trx, r.id, r.retireAt, r.removeAt);
      await deleteKeys(trx, d.remove);
      return d;
    });
    if (!idle(due))
      this.o.logger?.info(
        {
          zone: c.zone,
          created: due.create.map((k) => k.role),
          retired: due.retire.length,
          removed: due.remove.length,
        },
        'dnssec: keys changed',
      );
    return keysOf(this.db, c.domainId);
  }
}

/** A new key's row: its private half sealed for this zone (src/dns/dnssec/seal.ts). */
export function sealedRow(
  domainId: number,
  zone: string,
  key: ZoneKey,
  kek: Buffer,
  now: number,
  activeAt: number,
): Omit<KeyRow, 'id'> {
  const sealed = sealPrivateKey(exportPrivateKey(key), kek, keyBinding(zone, key));
  return {
    domain_id: domainId,
    role: key.role,
    algorithm: key.algorithm,
    tag: key.tag,
    public_key: key.publicKey.toString('base64'),
    sealed,
    created_at: now,
    active_at: activeAt,
    retire_at: null,
    remove_at: null,
  };
}
