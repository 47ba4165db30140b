import type { Logger } from 'pino';
import { DnssecError } from './dnssec/errors.ts';
import { createKek, kekOpens, readKek, type SealedKeyRef } from './dnssec/kek.ts';
import { sealedKeys } from './zone-store/dnssec-keys.ts';
import type { Executor } from './zone-store/domains.ts';

/** Why a key-encryption key was refused; serve prints the message and exits 1 (issue 29). */
export type KekCode =
  /** The store holds sealed keys and the key file does not exist: a new key could not open them. */
  | 'kekMissing'
  /** The key file opens none of the store's sealed keys: it is another key. */
  | 'kekMismatch'
  /** The key file is not 32 bytes of base64. */
  | 'kekInvalid';

export class KekError extends Error {
  constructor(
    readonly code: KekCode,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'KekError';
  }
}

const GUIDE = 'docs/dnssec.md, "The key-encryption key"';

/** Zone names for a message: the first few, then how many more. */
function zones(keys: readonly SealedKeyRef[]): string {
  const names = [...new Set(keys.map((k) => k.zone))];
  return names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
}

function missing(file: string, keys: readonly SealedKeyRef[]): KekError {
  return new KekError(
    'kekMissing',
    `the store holds ${keys.length} DNSSEC private keys (zones ${zones(keys)}) sealed with a key-encryption key, and ${file} does not exist. A new key would not open them, so none is made: put the key they were sealed with there (from the backup, or from another serve of this store) or name it with --dnssec-key-file (${GUIDE})`,
  );
}

function mismatch(file: string, keys: readonly SealedKeyRef[]): KekError {
  return new KekError(
    'kekMismatch',
    `${file} opens none of the store's ${keys.length} DNSSEC private keys (zones ${zones(keys)}): they were sealed with another key-encryption key. Give the key they were sealed with (--dnssec-key-file, or DATA/dnssec/kek; every serve of one store needs the same one) (${GUIDE})`,
  );
}

/** The key in `file`; a file that is not a key is a KekError naming it. */
export function readKekFile(file: string): Buffer | null {
  try {
    return readKek(file);
  } catch (err) {
    if (err instanceof DnssecError)
      throw new KekError('kekInvalid', `${file} does not hold a key-encryption key (32 bytes, base64)`);
    throw err;
  }
}

/**
 * What a key-encryption key opens of `keys`: refuses (KekError) when there
 * are keys and the key is missing or opens none of them; otherwise the zones
 * whose keys it does not open (a store left with two keys' seals).
 */
export function checkKek(file: string, kek: Buffer | null, keys: readonly SealedKeyRef[]): string[] {
  if (!keys.length) return [];
  if (!kek) throw missing(file, keys);
  const unopened = keys.filter((k) => !kekOpens(kek, k));
  if (unopened.length === keys.length) throw mismatch(file, keys);
  return [...new Set(unopened.map((k) => k.zone))];
}

/**
 * The key-encryption key of one store (issue 29): never a fresh key while
 * the store holds keys sealed with another. Before this, a restore without
 * the key file, or a second `serve` with its own DATA/dnssec/kek, made a new
 * key silently, and every change to a signed zone then failed with
 * keyUnsealFailed while its signatures ran out.
 *
 * - check(): serve's start. With sealed keys in the store the file must
 *   exist and open them (else KekError: serve refuses to start). Makes no
 *   file: a server whose zones never sign never writes one. It opens every
 *   key, about 5 us each (20,000 keys, i.e. 10,000 signed zones: 90-115 ms
 *   on the 2-core test machine), once per start.
 * - get(): for sealing and opening, called outside any transaction. Once
 *   the key has opened a key of the store it is kept; until then (a store
 *   with no sealed key yet) each call looks again, so a key another process
 *   has meanwhile sealed with is never answered by a second key.
 */
export class KeyEncryptionKey {
  private verified: Buffer | null = null;

  constructor(
    readonly file: string,
    private readonly db: Executor,
  ) {}

  async check(logger?: Logger): Promise<void> {
    const keys = await sealedKeys(this.db);
    const kek = keys.length ? readKekFile(this.file) : null;
    const unopened = checkKek(this.file, kek, keys);
    if (keys.length) this.verified = kek;
    // Started anyway: the other zones sign; these log keyUnsealFailed until turned off and on (new keys, new DS).
    if (unopened.length)
      logger?.error(
        { file: this.file, zones: unopened.slice(0, 20), count: unopened.length },
        'dnssec: keys not opened by the key-encryption key',
      );
  }

  readonly get = async (): Promise<Buffer> => {
    if (this.verified) return this.verified;
    const keys = await sealedKeys(this.db);
    const kek = readKekFile(this.file);
    if (!keys.length) return kek ?? createKek(this.file);
    checkKek(this.file, kek, keys);
    this.verified = kek;
    return kek!;
  };
}
