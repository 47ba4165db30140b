/**
 * The DNSSEC signing library (issue 19, first part): keys, sealing, the
 * canonical form, RRSIGs, the NSEC or NSEC3 chain and whole-zone signing, all pure
 * over dns-packet records with keys passed in. docs/dnssec.md explains
 * the choices.
 */
export { DnssecError, type DnssecCode } from './errors.ts';
export {
  generateKey,
  importKey,
  exportPrivateKey,
  dnskeyData,
  dnskeyRdata,
  keyTag,
  dsData,
  dsText,
  publicKey,
  type Algorithm,
  type KeyRole,
  type PublicKey,
  type ZoneKey,
} from './keys.ts';
export { sealPrivateKey, openPrivateKey } from './seal.ts';
export { DEFAULT_TIMERS, signatureWindow, needsRefresh, signRRset, type Timers, type SignatureWindow } from './sign.ts';
export { signZone, DEFAULT_DNSKEY_TTL, type KeyUse, type SignOptions, type SignedZone } from './zone.ts';
export { SignatureCache } from './reuse.ts';
export { cdsRecords, deleteCds } from './cds.ts';
export { NSEC3_PARAMS, nsec3Hash, base32hex } from './nsec3.ts';
export { labels, nameWire, compareLabels, sortNames } from './canonical.ts';
export { masterFile, recordLine } from './present.ts';
