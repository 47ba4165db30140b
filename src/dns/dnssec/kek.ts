import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { dnssecFail } from './errors.ts';

/**
 * The key-encryption key that seals the zones' private keys in the store
 * (seal.ts). It never goes into the store: a copy of the database alone
 * (a backup, `admin store copy`, a PostgreSQL dump) holds no usable key.
 *
 * `--dnssec-key-file` names it; by default it is `dnssec/kek` in the data
 * directory, made on first use (32 random bytes, base64, mode 0600). Every
 * `serve` and `admin` sharing one PostgreSQL store must be given the same
 * file, or the one that runs a cycle cannot open the keys (it logs
 * keyUnsealFailed and the zone stays at its last signed version).
 */
export function loadKek(file: string, create: boolean): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !create) throw err;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    text = randomBytes(32).toString('base64') + '\n';
    // 'wx': two processes starting together on one data directory do not both write one.
    try {
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      text = readFileSync(file, 'utf8');
    }
  }
  const kek = Buffer.from(text.trim(), 'base64');
  return kek.length === 32 ? kek : dnssecFail('badKeyEncryptionKey');
}

/** The key read (and made) when first needed: a server whose zones never sign never writes the file. */
export function lazyKek(file: string): () => Buffer {
  let kek: Buffer | null = null;
  return () => (kek ??= loadKek(file, true));
}
