import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { Net, TlsCertificate, TlsInfo } from '../engine/types.ts';

/** Service names that speak TLS from the first byte. */
const TLS_NAMES = new Set(['https', 'smtps', 'imaps', 'pop3s', 'ftps', 'ldaps', 'https-alt', 'ssl']);
export const isTlsService = (s: { name: string; tls: unknown }) => s.tls !== null || TLS_NAMES.has(s.name);

const SIG_OIDS: Record<string, string> = {
  '1.2.840.113549.1.1.2': 'md2WithRSAEncryption',
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'RSASSA-PSS',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.2.840.10040.4.3': 'dsa-with-SHA1',
  '1.3.101.112': 'Ed25519',
  '1.3.101.113': 'Ed448',
};

/** DER tag-length at `off`: [tag, contentStart, contentEnd]. */
function tlv(der: Buffer, off: number): [number, number, number] {
  const tag = der[off]!;
  let len = der[off + 1]!;
  let start = off + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[start + i]!;
    start += n;
  }
  return [tag, start, start + len];
}

/** Certificate.signatureAlgorithm: node 20 does not expose it, so read the DER. */
export function signatureAlgorithm(der: Buffer): string {
  try {
    const [, certStart] = tlv(der, 0);
    const [, , tbsEnd] = tlv(der, certStart);
    const [, algStart] = tlv(der, tbsEnd);
    const [tag, oidStart, oidEnd] = tlv(der, algStart);
    if (tag !== 6) return 'unknown';
    const b = der.subarray(oidStart, oidEnd);
    const parts = [Math.floor(b[0]! / 40), b[0]! % 40];
    let v = 0;
    for (const byte of b.subarray(1)) {
      v = v * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) parts.push(v), (v = 0);
    }
    const oid = parts.join('.');
    return SIG_OIDS[oid] ?? oid;
  } catch {
    return 'unknown';
  }
}

export function describeCertificate(der: Buffer): TlsCertificate {
  const x = new X509Certificate(der);
  const key = x.publicKey;
  const d = key.asymmetricKeyDetails ?? {};
  const curveBits: Record<string, number> = {
    prime256v1: 256,
    secp384r1: 384,
    secp521r1: 521,
    secp224r1: 224,
    secp192r1: 192,
    prime192v1: 192,
  };
  const keyType = (key.asymmetricKeyType ?? 'unknown')
    .replace(/^rsa(-pss)?$/, 'RSA')
    .replace(/^ec$/, 'EC')
    .replace(/^dsa$/, 'DSA');
  const keyBits = d.modulusLength ?? (d.namedCurve ? (curveBits[d.namedCurve] ?? 0) : keyType === 'ed25519' ? 256 : 0);
  return {
    subject: x.subject.replace(/\n/g, ', '),
    issuer: x.issuer.replace(/\n/g, ', '),
    notBefore: Date.parse(x.validFrom),
    notAfter: Date.parse(x.validTo),
    selfSigned:
      x.subject === x.issuer &&
      (() => {
        try {
          return x.verify(key);
        } catch {
          return false;
        }
      })(),
    altNames: (x.subjectAltName ?? '').split(/,\s*/).filter(Boolean),
    keyType,
    keyBits,
    signatureAlgorithm: signatureAlgorithm(der),
    fingerprint256: x.fingerprint256,
  };
}

/**
 * Handshake once and describe it. Offers everything from TLS 1.0 up at
 * SECLEVEL=0: at the default level node's OpenSSL refuses 1024-bit keys
 * and SHA-1 signatures before we could report them.
 */
export async function readTlsInfo(net: Net, port: number, timeoutMs = 4000): Promise<TlsInfo | null> {
  try {
    const socket = await net.connectTls(port, { timeoutMs, ...OFFER_ALL });
    try {
      return describeSession(socket);
    } finally {
      socket.destroy();
    }
  } catch {
    return null;
  }
}

/** What readTlsInfo offers; STARTTLS handshakes (checks/tls/lib/targets.ts) offer the same. */
export const OFFER_ALL = { minVersion: 'TLSv1', ciphers: 'ALL:@SECLEVEL=0' } as const;

/** The facts of an established TLS session. */
export function describeSession(socket: TLSSocket): TlsInfo {
  const raw = socket.getPeerCertificate()?.raw;
  return {
    protocol: socket.getProtocol() ?? 'unknown',
    cipher: socket.getCipher()?.name ?? 'unknown',
    certificate: raw ? describeCertificate(raw) : null,
    ...(raw ? { chain: peerChain(socket) } : {}),
  };
}

/**
 * The server's certificate and the issuers node links to it (getPeerCertificate(true): the certificates
 * the server sent, then any node found for the last of them in its own store), as DER, leaf first; the walk stops where a
 * certificate is its own issuer. Trust is decided elsewhere (tls-trust.ts), from the audit's
 * anchors, never from what this list holds.
 */
function peerChain(socket: TLSSocket): Buffer[] {
  const out: Buffer[] = [];
  let c: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (c?.raw && out.length < 10 && !out.some((d) => d.equals(c!.raw))) {
    out.push(c.raw);
    c = c.issuerCertificate;
  }
  return out;
}

/** describeSession, with a certificate node cannot parse left out rather than thrown (detection keeps the port). */
export function describeSessionSafe(socket: TLSSocket): TlsInfo {
  try {
    return describeSession(socket);
  } catch {
    return {
      protocol: socket.getProtocol() ?? 'unknown',
      cipher: socket.getCipher()?.name ?? 'unknown',
      certificate: null,
    };
  }
}

/**
 * TLS client-initiated renegotiation (THC-SSL-DOS, 2011): OpenSSL 3 servers refuse it unless told otherwise,
 * nginx refuses it, TLS 1.3 has none.
 */
const WAIT_MS = 4000;

/** True when the server completed a renegotiation the client asked for (TLS 1.2). */
export async function acceptsClientRenegotiation(net: Net, port: number): Promise<boolean> {
  let socket: TLSSocket | null = null;
  // Two tries at the handshake: a server that serves one client at a time (openssl s_server) does not
  // answer while another check holds it. Measured in an audit of such a server: TRACE and the slow-header
  // probe held it for 5 s each, and a single try timed out behind them.
  for (let attempt = 0; attempt < 2 && !socket; attempt++) {
    socket = await net
      .connectTls(port, { timeoutMs: 5000, maxVersion: 'TLSv1.2', minVersion: 'TLSv1', ciphers: 'ALL:@SECLEVEL=0' })
      .catch(() => null);
  }
  if (!socket) return false;
  const tls = socket;
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      tls.destroy();
      resolve(ok);
    };
    // A refusing server sends a no_renegotiation alert or closes; one that ignores the request never answers.
    const timer = setTimeout(() => done(false), WAIT_MS);
    tls.on('error', () => done(false));
    tls.on('close', () => done(false));
    try {
      const started = tls.renegotiate({ rejectUnauthorized: false }, (err) => done(!err));
      if (!started) done(false);
    } catch {
      done(false);
    }
  });
}
