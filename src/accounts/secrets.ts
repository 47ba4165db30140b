import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt N=2^15, r=8, p=1: about 50-100 ms a hash here, which is what makes
// guessing slow; it runs on libuv's thread pool, not the event loop.
const N = 32768;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, base64url parts; parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A password hash that matches nothing, so unknown users cost the same time. */
export const DUMMY_PASSWORD_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEYLEN).toString('base64url')}`;

/** API keys: 32 lowercase hex characters (128 random bits). */
export const APIKEY_FORMAT = /^[0-9a-f]{32}$/;
export function newApikey(): string {
  return randomBytes(16).toString('hex');
}

/** Session tokens: 256 random bits, base64url (43 characters). */
export const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Keys and tokens carry 128+ random bits, so a fast hash is enough to make
 * a stolen database useless; it also lets the store index them.
 */
export function secretHash(secret: string): string {
  // The one-shot form (Node 20.12+): no Hash object per call. Every API call
  // hashes its key and token; createHash took 4-7 µs of the cheap call's
  // ~230 under load (bench/reads.ts --profile), this about half.
  return hash('sha256', secret, 'hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
