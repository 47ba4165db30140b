import { createHash } from 'node:crypto';
import type { Answer } from 'dns-packet';
import { nameWire, typeName, typeNumber } from './canonical.ts';

/**
 * NSEC3 (RFC 5155), the per-zone alternative to NSEC for users who do not
 * want their names listed by walking the chain. Parameters as RFC 9276
 * says: SHA-1 (the only hash defined), 0 extra iterations (more cost
 * validators and the signer, and stop no one with a GPU), an empty salt
 * (a salt changes nothing against precomputation for a zone re-signed in
 * place), opt-out off (every delegation is in the chain).
 */
export const NSEC3_PARAMS = { algorithm: 1, flags: 0, iterations: 0, salt: Buffer.alloc(0) } as const;

const B32HEX = '0123456789abcdefghijklmnopqrstuv';

/**
 * Base32hex without padding (RFC 4648 7), lower case: the NSEC3 owner label. Order-preserving, so owners sort
 * as their hashes.
 */
export function base32hex(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32HEX[(value << (5 - bits)) & 31];
  return out;
}

/** RFC 5155 5: IH(salt, x, 0) = H(x | salt), then k more rounds of H(prev | salt); 0 extra rounds here. */
export function nsec3Hash(
  name: string,
  iterations: number = NSEC3_PARAMS.iterations,
  salt: Buffer = NSEC3_PARAMS.salt,
): Buffer {
  let h = createHash('sha1').update(nameWire(name)).update(salt).digest();
  for (let i = 0; i < iterations; i++) h = createHash('sha1').update(h).update(salt).digest();
  return h;
}

/**
 * NSEC3PARAM RDATA, hand-rolled: dns-packet has no codec for it (RFC 5155 4.2: alg, flags, iterations, salt
 * length, salt).
 */
export function nsec3paramRdata(): Buffer {
  const { algorithm, flags, iterations, salt } = NSEC3_PARAMS;
  const b = Buffer.alloc(5 + salt.length);
  b.writeUInt8(algorithm, 0);
  b.writeUInt8(flags, 1);
  b.writeUInt16BE(iterations, 2);
  b.writeUInt8(salt.length, 4);
  salt.copy(b, 5);
  return b;
}

export interface Nsec3Owner {
  /** An authoritative name or an empty non-terminal, lowercase, no trailing dot. */
  readonly name: string;
  /** Types at the original name (none for an empty non-terminal). */
  readonly types: readonly string[];
  /** Whether the original name has signatures (RRSIG in the bitmap): not an ENT, not an unsigned delegation. */
  readonly signed: boolean;
}

/**
 * The NSEC3 chain: one record per name (RFC 5155 7.1: empty non-terminals
 * included, opt-out off), owned by the hash under the zone, each pointing
 * to the next hash, the last to the first. Sorted by hash.
 */
export function nsec3Chain(zone: string, owners: readonly Nsec3Owner[], ttl: number): Answer[] {
  const hashed = owners.map((o) => ({ o, h: nsec3Hash(o.name) })).sort((a, b) => Buffer.compare(a.h, b.h));
  return hashed.map(({ o, h }, i) => {
    const numbers = new Set(o.types.map(typeNumber));
    if (o.signed) numbers.add(typeNumber('RRSIG'));
    const rrtypes = [...numbers].sort((a, b) => a - b).map(typeName);
    const next = hashed[(i + 1) % hashed.length]!.h;
    const { algorithm, flags, iterations, salt } = NSEC3_PARAMS;
    return {
      type: 'NSEC3',
      name: `${base32hex(h)}.${zone}`,
      ttl,
      class: 'IN',
      data: { algorithm, flags, iterations, salt, nextDomain: next, rrtypes },
    } as Answer;
  });
}
