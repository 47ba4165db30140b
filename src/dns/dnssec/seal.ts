import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { dnssecFail } from './errors.ts';

/**
 * Private keys at rest: AES-256-GCM under a key-encryption key the caller
 * gives (from the data directory or a flag; a later session stores both).
 * GCM because node:crypto has it built in and it authenticates: a wrong
 * key, a flipped bit or a truncated blob fails to open instead of yielding
 * a wrong key. A fresh 96-bit IV per seal (NIST SP 800-38D 8.2.2), so the
 * key-encryption key can seal far more keys than a zone count ever needs.
 *
 * `binding` (say `zone/role/tag`) is authenticated but not stored: a blob
 * copied to another zone's row in the store does not open there.
 *
 * Blob: `v1.` + base64(IV 12 | ciphertext | tag 16); the version prefix
 * leaves room to change the scheme without guessing.
 */
const VERSION = 'v1.';
const AAD = 'vigil-dnssec-key/v1/';

function checkKek(kek: Buffer): Buffer {
  if (kek.length !== 32) dnssecFail('badKeyEncryptionKey');
  return kek;
}

export function sealPrivateKey(pkcs8: Buffer, kek: Buffer, binding: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', checkKek(kek), iv);
  cipher.setAAD(Buffer.from(AAD + binding, 'utf8'));
  const body = Buffer.concat([cipher.update(pkcs8), cipher.final()]);
  return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

export function openPrivateKey(sealed: string, kek: Buffer, binding: string): Buffer {
  checkKek(kek);
  if (!sealed.startsWith(VERSION)) dnssecFail('keyUnsealFailed');
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
  if (raw.length < 12 + 16 + 1) dnssecFail('keyUnsealFailed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', kek, raw.subarray(0, 12), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(AAD + binding, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
  } catch {
    return dnssecFail('keyUnsealFailed');
  }
}
