import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { dnssecFail } from './errors.ts';
import { openPrivateKey } from './seal.ts';

/**
 * The key-encryption key that seals the zones' private keys in the store
 * (seal.ts). It never goes into the store itself; `admin backup` carries it
 * beside the store (src/store/archive.ts).
 *
 * `--dnssec-key-file` names it; by default it is `dnssec/kek` in the data
 * directory, made on first use (32 random bytes, base64, mode 0600), and
 * only while the store holds no key sealed with another (src/dns/dnssec-kek.ts
 * decides). Every `serve` and `admin` sharing one store must read the same
 * key (docs/scaling.md).
 *
 * readKek: the key in `file`, or null when there is no such file.
 */
export function readKek(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return parseKek(text);
}

export function parseKek(text: string): Buffer {
  const kek = Buffer.from(text.trim(), 'base64');
  return kek.length === 32 ? kek : dnssecFail('badKeyEncryptionKey');
}

/** A new key in `file` (0600, its directory 0700); when another process made one first, that one. */
export function createKek(file: string): Buffer {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  let text = `${randomBytes(32).toString('base64')}\n`;
  // 'wx': two processes starting together on one data directory do not both write one.
  try {
    writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    text = readFileSync(file, 'utf8');
  }
  return parseKek(text);
}

/** A sealed key and what it is bound to (`zone/role/tag`, seal.ts). */
export interface SealedKeyRef {
  zone: string;
  role: string;
  tag: number;
  sealed: string;
}

/** Whether `kek` opens the sealed key (AES-GCM authenticates: a wrong key fails, never yields a wrong key). */
export function kekOpens(kek: Buffer, key: SealedKeyRef): boolean {
  try {
    openPrivateKey(key.sealed, kek, `${key.zone}/${key.role}/${key.tag}`);
    return true;
  } catch {
    return false;
  }
}
