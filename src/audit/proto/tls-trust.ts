/**
 * Does a server's certificate chain lead to a CA the audit trusts? The anchors: Node's bundled roots
 * (tls.rootCertificates, Mozilla's list), the operating system's bundle where there is one (where
 * operators install an internal CA with update-ca-certificates), the files NODE_EXTRA_CA_CERTS and
 * SSL_CERT_FILE name, and the PEM certificates the operator gave Vigil (serve --audit-ca,
 * HostFacts.caCertificates). The path is built as RFC 5280 §6 and OpenSSL
 * build it: from the leaf, each next certificate one whose subject names the issuer (X509_check_issued:
 * names, key identifiers, key usage) and whose key verifies the signature; the server's own
 * certificates serve as intermediates only, never as anchors. Validity dates and names are not looked
 * at: expiry and the host name are findings of their own (cert-expired, cert-hostname), so a chain is
 * judged here on its issuers alone.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

export interface ChainVerdict {
  trusted: boolean;
  /** The leaf is its own issuer (the self-signed check's finding, not this one's). */
  selfSigned: boolean;
  /** OpenSSL's words for why verification failed (X509_verify_cert_error_string). */
  reason?: string;
  /** The issuer the path stopped at: named by the last certificate, and neither trusted nor sent. */
  issuer?: string;
  /** Certificates of the path built, the leaf included. */
  depth: number;
}

/** Debian/Ubuntu, then Fedora/RHEL: the system bundle that update-ca-certificates / update-ca-trust write. */
const SYSTEM_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'];

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
export const pemBlocks = (text: string) => text.match(PEM) ?? [];

type Anchors = Map<string, X509Certificate[]>;

function index(pems: Iterable<string>, into: Anchors = new Map()): Anchors {
  for (const pem of pems) {
    try {
      const x = new X509Certificate(pem);
      into.set(x.subject, [...(into.get(x.subject) ?? []), x]);
    } catch {
      // a block OpenSSL cannot read anchors nothing
    }
  }
  return into;
}

const readPem = (file: string): string[] | null => {
  try {
    return pemBlocks(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

let base: Anchors | null = null;
/**
 * Node's roots, the system's bundle, and the files the standard variables name (NODE_EXTRA_CA_CERTS,
 * which node adds to its own store, and OpenSSL's SSL_CERT_FILE): what the machine's other clients
 * trust. Read once per process (~290 certificates, a few ms).
 */
function baseAnchors(): Anchors {
  if (base) return base;
  const system = SYSTEM_BUNDLES.map(readPem).find((b) => b !== null) ?? [];
  const named = [process.env.NODE_EXTRA_CA_CERTS, process.env.SSL_CERT_FILE].flatMap((f) =>
    f ? (readPem(f) ?? []) : [],
  );
  base = index([...rootCertificates, ...system, ...named]);
  return base;
}

const withExtra = new WeakMap<readonly string[], Anchors>();
function anchorsFor(extra: readonly string[]): Anchors {
  if (!extra.length) return baseAnchors();
  let a = withExtra.get(extra);
  if (!a) withExtra.set(extra, (a = index(extra, new Map([...baseAnchors()].map(([k, v]) => [k, [...v]])))));
  return a;
}

/** `c` names `by` as its issuer and `by`'s key verifies its signature. */
function issuedBy(c: X509Certificate, by: X509Certificate): boolean {
  try {
    return c.checkIssued(by) && c.verify(by.publicKey);
  } catch {
    return false;
  }
}

/** The verdict on a chain (DER, leaf first, as TlsInfo.chain holds it); null when it cannot be read. */
export function verifyChain(chain: readonly Buffer[], extra: readonly string[] = []): ChainVerdict | null {
  let certs: X509Certificate[];
  try {
    certs = chain.map((d) => new X509Certificate(d));
  } catch {
    return null;
  }
  const leaf = certs[0];
  if (!leaf) return null;
  const anchors = anchorsFor(extra);
  const isAnchor = (x: X509Certificate) => (anchors.get(x.subject) ?? []).some((a) => a.raw.equals(x.raw));
  const path = [leaf];
  for (let cur = leaf; path.length <= 10; ) {
    // A trusted certificate ends the path, whether the server sent it or its issuer is in the store.
    if (isAnchor(cur) || (anchors.get(cur.issuer) ?? []).some((a) => issuedBy(cur, a)))
      return { trusted: true, selfSigned: false, depth: path.length };
    const next = certs.find((x) => !path.includes(x) && issuedBy(cur, x));
    if (!next) break;
    path.push(next);
    cur = next;
  }
  const last = path[path.length - 1]!;
  const selfIssued = issuedBy(last, last);
  if (selfIssued && last === leaf)
    return { trusted: false, selfSigned: true, reason: 'self-signed certificate', depth: 1 };
  return {
    trusted: false,
    selfSigned: false,
    reason: selfIssued ? 'self-signed certificate in certificate chain' : 'unable to get local issuer certificate',
    issuer: selfIssued ? last.subject.replace(/\n/g, ', ') : last.issuer.replace(/\n/g, ', '),
    depth: path.length,
  };
}
