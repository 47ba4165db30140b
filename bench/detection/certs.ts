/**
 * Certificates for the TLS targets. A bench CA signs every leaf except the
 * self-signed one, and every leaf names its target address (IP SAN), so
 * that each certificate carries only the weakness planted in it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface Pem {
  key: string;
  /** Leaf, then the CA when CA-signed. */
  cert: string;
}

const DAY = 86_400_000;
let ca: { key: string; cert: string } | null = null;
let rogue: { key: string; cert: string } | null = null;

/**
 * The bench CA, which the bench tells Vigil to trust (runAudit's caCertificates, as `serve --audit-ca`
 * does): made once per bench run and kept in VIGIL_BENCH_CA_DIR, so that the fleet's process (which
 * inherits the variable) signs with the CA the scanner's process trusts.
 */
async function benchCa() {
  if (ca) return ca;
  const dir = process.env.VIGIL_BENCH_CA_DIR;
  if (dir && existsSync(join(dir, 'ca.key')))
    return (ca = { key: readFileSync(join(dir, 'ca.key'), 'utf8'), cert: readFileSync(join(dir, 'ca.crt'), 'utf8') });
  const made = await makeCa('Vigil Bench CA');
  const keep = dir ?? mkdtempSync(join(tmpdir(), 'vigil-bench-ca-'));
  // Made here, gone with this process (the fleet's child has read it by then: it starts after this).
  if (!dir) process.once('exit', () => rmSync(keep, { recursive: true, force: true }));
  mkdirSync(keep, { recursive: true });
  writeFileSync(join(keep, 'ca.key'), made.key, { mode: 0o600 });
  writeFileSync(join(keep, 'ca.crt'), made.cert);
  process.env.VIGIL_BENCH_CA_DIR = keep;
  return (ca = made);
}

/** The bench CA's certificate (PEM), for the scanner to trust. */
export const benchCaCert = async () => (await benchCa()).cert;

function makeCa(name: string) {
  return generate(
    [
      { name: 'commonName', value: name },
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
}

export interface LeafOptions {
  expired?: boolean;
  /** Valid, but ends in this many days (a certificate close to expiry). */
  expiresInDays?: number;
  selfSigned?: boolean;
  keySize?: number;
  algorithm?: 'sha256' | 'sha1';
  /**
   * Signed by a second CA nobody is told to trust: 'chain' sends that CA's certificate after the leaf
   * (OpenSSL: "self-signed certificate in certificate chain"), 'leaf' the leaf alone ("unable to get
   * local issuer certificate").
   */
  untrusted?: 'chain' | 'leaf';
}

export async function leaf(address: string, o: LeafOptions = {}): Promise<Pem> {
  const issuer = o.selfSigned ? undefined : o.untrusted ? (rogue ??= await makeCa('Vigil Rogue CA')) : await benchCa();
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
  const chain = issuer && o.untrusted !== 'leaf';
  return { key: pems.private, cert: chain ? `${pems.cert.trim()}\n${issuer.cert.trim()}\n` : pems.cert };
}
