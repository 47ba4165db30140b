import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import dnsPacket, { type DnskeyData, type DsData } from 'dns-packet';
import { nameWire } from './canonical.ts';
import { dnssecFail } from './errors.ts';

/**
 * 13: ECDSA P-256 with SHA-256 (RFC 6605), the default; 15: Ed25519 (RFC 8080). Both MUST-implement for
 * validators (RFC 8624).
 */
export type Algorithm = 13 | 15;
/**
 * A split pair, not a CSK: the KSK (flags 257, SEP bit) signs only the
 * DNSKEY set and is what the parent's DS names; the ZSK (256) signs the
 * rest. The split lets the ZSK roll on its own (pre-publish) without the
 * user touching the registrar; only a KSK roll needs a new DS.
 */
export type KeyRole = 'ksk' | 'zsk';

/** What is public of a key: enough for its DNSKEY and DS (the store keeps it beside the sealed private half). */
export type PublicKey = Omit<ZoneKey, 'privateKey'>;

export interface ZoneKey {
  readonly role: KeyRole;
  readonly algorithm: Algorithm;
  /** 257 for a KSK, 256 for a ZSK (RFC 4034 2.1.1: ZONE 0x0100, SEP 0x0001). */
  readonly flags: 256 | 257;
  /** The DNSKEY public key field: P-256 x|y (64 octets, RFC 6605 4), Ed25519 A (32 octets, RFC 8080 3). */
  readonly publicKey: Buffer;
  readonly privateKey: KeyObject;
  /** RFC 4034 appendix B over the DNSKEY RDATA. */
  readonly tag: number;
}

const FLAGS: Record<KeyRole, 256 | 257> = { ksk: 257, zsk: 256 };

function checkAlgorithm(algorithm: number): Algorithm {
  return algorithm === 13 || algorithm === 15 ? algorithm : dnssecFail('unsupportedAlgorithm');
}

/** The DNSKEY public key field of a key pair, from its JWK (no DER walking). */
function publicField(privateKey: KeyObject, algorithm: Algorithm): Buffer {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const part = (s: string | undefined) => Buffer.from(s ?? '', 'base64url');
  if (algorithm === 15) {
    if (jwk.crv !== 'Ed25519') dnssecFail('unsupportedAlgorithm');
    return part(jwk.x);
  }
  if (jwk.crv !== 'P-256') dnssecFail('unsupportedAlgorithm');
  return Buffer.concat([part(jwk.x), part(jwk.y)]);
}

function makeKey(role: KeyRole, algorithm: Algorithm, privateKey: KeyObject): ZoneKey {
  const flags = FLAGS[role];
  const publicKey = publicField(privateKey, algorithm);
  return {
    role,
    algorithm,
    flags,
    publicKey,
    privateKey,
    tag: keyTag(dnskeyRdata({ flags, algorithm, key: publicKey })),
  };
}

/** A fresh key from node:crypto. */
export function generateKey(role: KeyRole, algorithm: Algorithm = 13): ZoneKey {
  const alg = checkAlgorithm(algorithm);
  const { privateKey } =
    alg === 13 ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  return makeKey(role, alg, privateKey);
}

/** The private key as PKCS#8 DER: what seal.ts encrypts for the store. */
export function exportPrivateKey(key: ZoneKey): Buffer {
  return key.privateKey.export({ format: 'der', type: 'pkcs8' });
}

/** A key back from its PKCS#8 DER (the public part is derived, so it cannot disagree). */
export function importKey(role: KeyRole, algorithm: number, pkcs8: Buffer): ZoneKey {
  const alg = checkAlgorithm(algorithm);
  return makeKey(role, alg, createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }));
}

export function dnskeyData(key: PublicKey): DnskeyData {
  return { flags: key.flags, algorithm: key.algorithm, key: key.publicKey };
}

interface Codec<T> {
  encode(data: T): Buffer;
}
const codec = <T>(type: string) => (dnsPacket as unknown as { record(t: string): Codec<T> }).record(type);

/** DNSKEY RDATA (flags, protocol 3, algorithm, key) as dns-packet encodes it, without RDLENGTH. */
export function dnskeyRdata(data: DnskeyData): Buffer {
  return codec<DnskeyData>('DNSKEY').encode(data).subarray(2);
}

/** RFC 4034 appendix B: the ones'-complement-like sum over the RDATA (algorithm 1's special case does not apply). */
export function keyTag(rdata: Buffer): number {
  let ac = 0;
  for (let i = 0; i < rdata.length; i++) ac += i & 1 ? rdata[i]! : rdata[i]! << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

/** The DS the parent publishes for a KSK: SHA-256, digest type 2 (RFC 4509), the one RFC 8624 says MUST be used. */
export function dsData(zone: string, key: PublicKey): DsData {
  const digest = createHash('sha256')
    .update(nameWire(zone))
    .update(dnskeyRdata(dnskeyData(key)))
    .digest();
  return { keyTag: key.tag, algorithm: key.algorithm, digestType: 2, digest };
}

/** The DS as the registrar's form wants it: `tag alg 2 HEX`. */
export function dsText(zone: string, key: PublicKey): string {
  const ds = dsData(zone, key);
  return `${ds.keyTag} ${ds.algorithm} ${ds.digestType} ${ds.digest.toString('hex').toUpperCase()}`;
}

/** A key's public part from what the store keeps (role, algorithm, the DNSKEY public key field). */
export function publicKey(role: KeyRole, algorithm: number, field: Buffer): PublicKey {
  const alg = checkAlgorithm(algorithm);
  const flags = FLAGS[role];
  return {
    role,
    algorithm: alg,
    flags,
    publicKey: field,
    tag: keyTag(dnskeyRdata({ flags, algorithm: alg, key: field })),
  };
}
