import { cdsRecords, DEFAULT_DNSKEY_TTL, importKey, type SignatureCache, signZone } from './dnssec/index.ts';
import type { KeyRole } from './dnssec/keys.ts';
import { dnssecFail } from './dnssec/errors.ts';
import { encodeSigned } from './dnssec/wire.ts';
import { buildZoneIndex } from './server/zone-index.ts';
import type { ZoneModel } from './zone.ts';
import type { Answer } from 'dns-packet';

/**
 * The CPU-bound half of signing a zone version (sign-pass.ts has the
 * store's half): reading the snapshot, building its records, signing, and
 * writing the signed snapshot. Pure over its messages, so it runs the same
 * on a worker thread (sign-thread.ts, the default) or inline
 * (VIGIL_SIGN_INLINE=1, what bench/sign-stall.ts compares against). Keeps
 * each zone's last signatures, for reuse by the next signing (reuse.ts).
 */

/** What the signer adds to a zone; the rest of a signed version is its records as published. */
const SIGNER_TYPES = new Set(['DNSKEY', 'RRSIG', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'CDS', 'CDNSKEY']);

export type SignRequest =
  /**
   * Reads a version's snapshot; `bump`: a served version comes back one serial higher. The `ticket` (the
   * caller's, unique) names this version in the requests that follow: two signing passes may overlap.
   */
  | { op: 'prepare'; ticket: number; zone: string; snapshot: string; bump: boolean; forwardAddress: string | null }
  /** The prepared version without signatures (DNSSEC turned off); its zone's signatures are forgotten. */
  | { op: 'unsigned'; ticket: number }
  | {
      op: 'sign';
      ticket: number;
      keys: { role: KeyRole; algorithm: number; pkcs8: Uint8Array; sign: boolean }[];
      denial: 'nsec' | 'nsec3';
      now: number;
    }
  /** The signed version landed in the store: its signatures are the ones to reuse; or it did not. */
  | { op: 'landed'; ticket: number; landed: boolean }
  /** Forgets whatever is still held for the ticket (after any outcome). */
  | { op: 'drop'; ticket: number };

export type SignReply =
  | { op: 'prepare'; serial: number; maxTtlMs: number }
  | { op: 'unsigned' | 'sign'; serial: number; snapshot: string; refreshAt: number }
  | { op: 'landed' | 'drop' };

interface Prepared {
  zone: string;
  model: ZoneModel;
  records: Answer[];
}

export class SignJobs {
  private readonly prepared = new Map<number, Prepared>();
  private readonly caches = new Map<string, SignatureCache>();
  private readonly fresh = new Map<number, { zone: string; signatures: SignatureCache }>();

  run(m: SignRequest): SignReply {
    switch (m.op) {
      case 'prepare': {
        const model = JSON.parse(m.snapshot) as ZoneModel;
        delete model.dnssec;
        if (m.bump) model.serial++;
        const records = buildZoneIndex(model, m.forwardAddress).all as Answer[];
        this.prepared.set(m.ticket, { zone: m.zone, model, records });
        const maxTtl = records.reduce((n, r) => Math.max(n, (r as { ttl?: number }).ttl ?? 0), 0);
        return { op: 'prepare', serial: model.serial, maxTtlMs: 1000 * maxTtl };
      }
      case 'unsigned': {
        const { zone, model } = this.take(m.ticket);
        this.caches.delete(zone);
        return { op: 'unsigned', serial: model.serial, snapshot: JSON.stringify(model), refreshAt: 0 };
      }
      case 'sign': {
        const { zone, model, records } = this.take(m.ticket);
        const uses = m.keys.map((k) => ({ key: importKey(k.role, k.algorithm, Buffer.from(k.pkcs8)), sign: k.sign }));
        const ksks = uses.filter((u) => u.sign && u.key.role === 'ksk').map((u) => u.key);
        const signed = signZone(zone, [...records, ...cdsRecords(zone, ksks, DEFAULT_DNSKEY_TTL)], uses, {
          clock: { now: () => m.now },
          previous: this.caches.get(zone),
          // The whole chain is made anew from the unsigned version each time, so a switch
          // between NSEC and NSEC3 leaves nothing of the other behind (SIGNER_TYPES above).
          denial: m.denial,
        });
        const added = signed.records.filter((r) => SIGNER_TYPES.has(r.type));
        model.dnssec = { denial: m.denial, wire: encodeSigned(added), refreshAt: signed.refreshAt };
        this.fresh.set(m.ticket, { zone, signatures: signed.signatures });
        return { op: 'sign', serial: model.serial, snapshot: JSON.stringify(model), refreshAt: signed.refreshAt };
      }
      case 'landed': {
        const fresh = this.fresh.get(m.ticket);
        this.fresh.delete(m.ticket);
        if (m.landed && fresh) this.caches.set(fresh.zone, fresh.signatures);
        return { op: 'landed' };
      }
      case 'drop':
        this.prepared.delete(m.ticket);
        this.fresh.delete(m.ticket);
        return { op: 'drop' };
    }
  }

  private take(ticket: number): Prepared {
    const p = this.prepared.get(ticket);
    this.prepared.delete(ticket);
    return p ?? dnssecFail('signerLost');
  }
}
