import type { Answer } from 'dns-packet';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/db.ts';
import {
  cdsRecords,
  DEFAULT_DNSKEY_TTL,
  generateKey,
  importKey,
  openPrivateKey,
  sealPrivateKey,
  exportPrivateKey,
  type SignatureCache,
  signZone,
  type ZoneKey,
} from './dnssec/index.ts';
import { DEFAULT_POLICY, keyStates, nextKeyEvent, plan, type KeyPolicy, type KeyTimes } from './dnssec/keyring.ts';
import { encodeSigned } from './dnssec/wire.ts';
import { buildZoneIndex } from './server/zone-index.ts';
import type { ZoneModel } from './zone.ts';
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
}

/** What the signer adds to a zone; the rest of a signed version is its records as published. */
const SIGNER_TYPES = new Set(['DNSKEY', 'RRSIG', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'CDS', 'CDNSKEY']);

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
 */
export class ZoneSigner {
  private readonly caches = new Map<string, SignatureCache>();
  private readonly policy: KeyPolicy;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly o: SignerOptions,
  ) {
    this.policy = o.policy ?? DEFAULT_POLICY;
  }

  /**
   * Signs what is due; returns the zones whose new version was queued. One zone's failure is logged and
   * leaves the others alone.
   */
  async pass(): Promise<string[]> {
    const now = this.clock.now();
    const done: string[] = [];
    for (const c of await signingCandidates(this.db, now + this.o.intervalMs)) {
      try {
        if (await this.one(c, now)) done.push(c.zone);
      } catch (err) {
        // The zone keeps serving its last version; its signatures last a week past the refresh (dnssec/sign.ts).
        this.o.logger?.error({ err, zone: c.zone }, 'dnssec: signing failed');
      }
    }
    return done;
  }

  private async one(c: SigningCandidate, now: number): Promise<boolean> {
    const model = JSON.parse(c.snapshot) as ZoneModel;
    delete model.dnssec;
    if (c.stage === 'served') model.serial = c.serial + 1;
    if (!c.sign) {
      this.caches.delete(c.zone);
      return this.db.transaction().execute((trx) => stageSigned(trx, c, model, null));
    }
    const records = buildZoneIndex(model, this.o.forwardAddress).all;
    const maxTtl = 1000 * records.reduce((m, r) => Math.max(m, (r as { ttl?: number }).ttl ?? 0), 0);
    const kek = await this.o.kek();
    const rows = await this.applySchedule(c, now, maxTtl, kek);
    const times = timesOf(rows);
    const opened = new Map(
      rows.map((r) => [r.id, importKey(r.role, r.algorithm, openPrivateKey(r.sealed, kek, keyBinding(c.zone, r)))]),
    );
    const uses = keyStates(times, now).map((s) => ({ key: opened.get(s.id)!, sign: s.sign }));
    const ksks = uses.filter((u) => u.sign && u.key.role === 'ksk').map((u) => u.key);
    const signed = signZone(c.zone, [...records, ...cdsRecords(c.zone, ksks, DEFAULT_DNSKEY_TTL)], uses, {
      clock: this.clock,
      previous: this.caches.get(c.zone),
      // The whole chain is made anew from the unsigned version each time, so a switch
      // between NSEC and NSEC3 leaves nothing of the other behind (SIGNER_TYPES above).
      denial: c.denial,
    });
    const added: Answer[] = signed.records.filter((r) => SIGNER_TYPES.has(r.type));
    model.dnssec = { denial: c.denial, wire: encodeSigned(added), refreshAt: signed.refreshAt };
    const resignAt = Math.min(signed.refreshAt, nextKeyEvent(times, now, this.policy, this.o.intervalMs));
    const landed = await this.db.transaction().execute((trx) => stageSigned(trx, c, model, resignAt));
    if (landed) this.caches.set(c.zone, signed.signatures);
    return landed;
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
