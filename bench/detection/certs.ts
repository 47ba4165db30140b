/**
 * Certificates for the TLS targets. A bench CA signs every leaf except the
 * self-signed one, and every leaf names its target address (IP SAN), so
 * that each certificate carries only the weakness planted in it.
 */
import { generate } from 'selfsigned';

export interface Pem {
  key: string;
  /** Leaf, then the CA when CA-signed. */
  cert: string;
}

const DAY = 86_400_000;
let ca: { key: string; cert: string } | null = null;

async function benchCa() {
  ca ??= await generate(
    [
      { name: 'commonName', value: 'Vigil Bench CA' },
      { name: 'organizationName', value: 'Vigil Bench' },
    ],
    {
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - 30 * DAY),
      notAfterDate: new Date(Date.now() + 3650 * DAY),
      extensions: [
        { name: 'basicConstraints', cA: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true },
      ],
    },
  ).then((p) => ({ key: p.private, cert: p.cert }));
  return ca;
}

export interface LeafOptions {
  expired?: boolean;
  /** Valid, but ends in this many days (a certificate close to expiry). */
  expiresInDays?: number;
  selfSigned?: boolean;
  keySize?: number;
  algorithm?: 'sha256' | 'sha1';
}

export async function leaf(address: string, o: LeafOptions = {}): Promise<Pem> {
  const issuer = o.selfSigned ? undefined : await benchCa();
  const notBefore = o.expired ? Date.now() - 400 * DAY : Date.now() - DAY;
  const notAfter = o.expired ? Date.now() - 35 * DAY : Date.now() + (o.expiresInDays ?? 365) * DAY;
  const pems = await generate([{ name: 'commonName', value: address }], {
    keySize: o.keySize ?? 2048,
    algorithm: o.algorithm ?? 'sha256',
    notBeforeDate: new Date(notBefore),
    notAfterDate: new Date(notAfter),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: address }] },
    ],
    ...(issuer ? { ca: issuer } : {}),
  });
  return { key: pems.private, cert: issuer ? `${pems.cert.trim()}\n${issuer.cert.trim()}\n` : pems.cert };
}
