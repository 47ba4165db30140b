import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TlsFiles {
  cert: string;
  key: string;
  /** Set when Vigil made the certificate itself (first start). */
  generated: string | null;
}

/**
 * The API's certificate: the operator's files when given, otherwise a
 * self-signed one made on first start in DATA/tls/ and reused after, so
 * that clients can pin it.
 */
export async function loadCertificate(
  dataDir: string,
  listen: string,
  cert: string | null,
  key: string | null,
): Promise<TlsFiles> {
  if (cert && key) return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8'), generated: null };
  if (cert || key) throw new Error('--tls-cert and --tls-key go together');
  const dir = join(dataDir, 'tls');
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), generated: null };
  }
  const altNames: { type: 2 | 7; value?: string; ip?: string }[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  if (isIP(listen) && !['127.0.0.1', '::1', '0.0.0.0', '::'].includes(listen)) altNames.push({ type: 7, ip: listen });
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'vigil' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + 10 * 365 * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  // Public, but like all under the data directory the owner's alone (issue 29).
  writeFileSync(certFile, pems.cert, { mode: 0o600 });
  return { cert: pems.cert, key: pems.private, generated: certFile };
}
