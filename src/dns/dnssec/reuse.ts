import type { Answer, RrsigData } from 'dns-packet';
import type { Clock } from '../../clock.ts';
import type { ZoneKey } from './keys.ts';
import { canonicalSet, needsRefresh, signCanonical, type SignatureWindow, type Timers } from './sign.ts';

/**
 * Signatures kept from one signing to the next. Publish signs the whole
 * zone after every change; without reuse every RRSIG would be new each
 * time (ECDSA signatures are randomized), so an IXFR would carry the whole
 * zone's signatures and a 20,000-record zone would cost some 40,000
 * signatures (seconds of CPU) per change. With it, an RRset whose canonical
 * form (records and TTL) is unchanged keeps its RRSIG while that RRSIG is
 * made by a key still signing and is outside the refresh margin.
 *
 * Keyed by owner, type and key tag; the entry keeps the key's public key,
 * so two keys with one tag are never confused, and the canonical set
 * itself, compared byte for byte. (A SHA-256 digest instead would save
 * some memory, tens of bytes a set, but hashing was a fifth of a re-sign's
 * time in the profile.)
 */
interface Entry {
  readonly wire: Buffer;
  readonly publicKey: Buffer;
  readonly rrsig: Answer;
}

export class SignatureCache {
  readonly #entries = new Map<string, Entry>();
  /** Signatures taken from the previous cache in the signing that made this one. */
  reused = 0;
  /** Signatures made anew. */
  made = 0;

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The RRSIG of `rrset` by `key`: the previous signing's when still good,
   * else a new one. Either way it is recorded here for the next signing.
   */
  sign(
    previous: SignatureCache | undefined,
    owner: string,
    ownerWire: Buffer | undefined,
    type: string,
    rrset: readonly Answer[],
    zone: string,
    key: ZoneKey,
    window: SignatureWindow,
    clock: Clock,
    timers: Timers,
  ): Answer {
    const set = canonicalSet(owner, type, rrset, ownerWire);
    const id = `${owner}|${type}|${key.tag}`;
    const old = previous ? previous.#entries.get(id) : undefined;
    let rrsig: Answer;
    if (
      old &&
      old.wire.equals(set.wire) &&
      old.publicKey.equals(key.publicKey) &&
      !needsRefresh((old.rrsig as { data: RrsigData }).data, clock, timers)
    ) {
      rrsig = old.rrsig;
      this.reused++;
    } else {
      rrsig = signCanonical(owner, type, set, zone, key, window);
      this.made++;
    }
    this.#entries.set(id, { wire: set.wire, publicKey: key.publicKey, rrsig });
    return rrsig;
  }
}
