/**
 * The signing library's failures, as typed codes (never free text): the
 * caller (publish, the key store, a later API script) maps them to its own
 * answer. None of them is a spec code; they never reach a client as such.
 */
export type DnssecCode =
  /**
   * A sealed private key did not open: wrong key-encryption key, tampered or truncated blob, or another key's
   * binding.
   */
  | 'keyUnsealFailed'
  /** An algorithm number other than 13 (ECDSA P-256) or 15 (Ed25519). */
  | 'unsupportedAlgorithm'
  /** The key-encryption key is not 32 bytes (AES-256). */
  | 'badKeyEncryptionKey'
  /** The records given to sign have no SOA at the apex. */
  | 'zoneHasNoSoa'
  /** A record's owner is not the zone or below it. */
  | 'recordOutsideZone'
  /** No active KSK or no active ZSK among the keys given. */
  | 'noActiveKey'
  /** A name with a label over 63 octets or a whole over 255 (RFC 1035 2.3.4). */
  | 'badName'
  /** The signing thread (src/dns/sign-thread.ts) stopped, or was asked to sign a version it had not read. */
  | 'signerLost';

export class DnssecError extends Error {
  constructor(readonly code: DnssecCode) {
    super(code);
    this.name = 'DnssecError';
  }
}

export function dnssecFail(code: DnssecCode): never {
  throw new DnssecError(code);
}
