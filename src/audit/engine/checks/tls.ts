import { isIP } from 'node:net';
import type { Check, Finding, HostFacts, Net, Risk, Service, TlsCertificate } from '../types.ts';
import { isTlsService } from './tls-cert.ts';
import { TLS_PROBE_CHECKS } from './tls-probes.ts';
import { tlsTargets, via } from './tls-targets.ts';

/**
 * Certificate and HSTS checks are passive: they read the certificate and
 * the HTTP answer that service detection collected (detection can use
 * readTlsInfo from tls-cert.ts, which also sees 1024-bit / SHA-1 certs).
 * Protocol and cipher checks (tls-probes.ts) open their own connections.
 */
type CertTest = (c: TlsCertificate, host: HostFacts, now: number) => string | null;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const cn = (dn: string) => /(?:^|[,/\n]\s*)CN=([^,/\n]+)/.exec(dn)?.[1]?.trim() ?? null;

/** Does the certificate name the audited address? (IP SANs, DNS SANs, or CN when no SAN.) */
export function certNamesAddress(c: TlsCertificate, address: string): boolean {
  const want = address.toLowerCase().replace(/^::ffff:/, '');
  const names = c.altNames.map((n) =>
    n
      .replace(/^(DNS|IP Address|IP):/i, '')
      .trim()
      .toLowerCase(),
  );
  if (names.length === 0) {
    const common = cn(c.subject);
    if (common) names.push(common.toLowerCase());
  }
  const expand = (ip: string) => (isIP(ip) === 6 ? ip.replace(/(^|:)0+(\d)/g, '$1$2') : ip);
  return names.some((n) => n === want || expand(n) === expand(want));
}

/**
 * Trust checks (self-signed, name) stay on implicit-TLS ports. On STARTTLS
 * ports the certificate is usually not what protects the client: SMTP
 * between servers is opportunistic and unauthenticated by design (RFC 7435,
 * RFC 3207 §4: a publicly-referenced server must not require TLS), and
 * mail, directory and database certificates name a host, never the
 * audited address. The validity, key and signature checks apply to both.
 */
const IMPLICIT_ONLY = new Set(['vigil.tls.cert-self-signed', 'vigil.tls.cert-hostname']);

function certCheck(
  id: string,
  shortid: string,
  title: string,
  risk: Risk,
  type: 'HOLE' | 'NOTE',
  description: string,
  solution: string,
  test: CertTest,
): Check {
  return {
    id,
    shortid,
    title,
    category: 'SSL/TLS',
    risk,
    cves: [],
    type,
    description,
    solution,
    intrusive: false,
    dos: false,
    active: false,
    async run(host: HostFacts, net: Net): Promise<Finding[]> {
      const findings: Finding[] = [];
      const now = Date.now();
      for (const t of await tlsTargets(host, net)) {
        const cert = t.info?.certificate;
        if (!cert || (t.starttls && IMPLICIT_ONLY.has(id))) continue;
        try {
          const detail = test(cert, host, now);
          if (detail)
            findings.push({
              port: t.svc.port,
              detail: `${detail}${via(t)} (subject: ${cert.subject}; issuer: ${cert.issuer})`,
            });
        } catch {
          // an odd certificate record costs this port only
        }
      }
      return findings;
    },
  };
}

/**
 * "Close to expiry": fewer than 30 days left. certbot renews a 90-day Let's
 * Encrypt certificate when 30 days remain (the renew_before_expiry default
 * in its renewal configuration): an automated certificate under 30 days
 * means the renewal that should have happened did not. Past expiry the
 * cert-expired check reports instead (left >= 0 here).
 */
export const EXPIRY_WARNING_DAYS = 30;

const CERT_CHECKS: readonly Check[] = [
  certCheck(
    'vigil.tls.cert-expiring',
    'TLS-CERT-EXPIRING',
    `TLS certificate expires within ${EXPIRY_WARNING_DAYS} days`,
    'low',
    'NOTE',
    `The certificate expires in fewer than ${EXPIRY_WARNING_DAYS} days and has not been renewed: when it lapses, clients refuse the connection or users learn to click through errors.`,
    `Renew the certificate and check the renewal automation (e.g. the ACME client's timer) before it lapses.`,
    (c, _h, now) => {
      const left = c.notAfter - now;
      return Number.isFinite(left) && left >= 0 && left < EXPIRY_WARNING_DAYS * 864e5
        ? `Certificate expires on ${day(c.notAfter)}, in ${Math.floor(left / 864e5)} days.`
        : null;
    },
  ),
  certCheck(
    'vigil.tls.cert-expired',
    'TLS-CERT-EXPIRED',
    'TLS certificate has expired',
    'medium',
    'HOLE',
    'The certificate is past its expiry date: clients show errors and users learn to click through them.',
    'Install a renewed certificate on the service and restart or reload it; automate renewal (ACME) so it cannot lapse again.',
    (c, _h, now) =>
      Number.isFinite(c.notAfter) && c.notAfter < now ? `Certificate expired on ${day(c.notAfter)}.` : null,
  ),
  certCheck(
    'vigil.tls.cert-not-yet-valid',
    'TLS-CERT-NOTYET',
    'TLS certificate is not yet valid',
    'medium',
    'HOLE',
    'The certificate validity starts in the future (wrong clock or wrong certificate).',
    "Check the server's clock (NTP) and that the service is configured with the intended certificate.",
    (c, _h, now) =>
      Number.isFinite(c.notBefore) && c.notBefore > now ? `Certificate is valid only from ${day(c.notBefore)}.` : null,
  ),
  certCheck(
    'vigil.tls.cert-self-signed',
    'TLS-CERT-SELFSIGNED',
    'Self-signed TLS certificate',
    'low',
    'NOTE',
    'The certificate is signed by its own key, so clients cannot verify it and cannot tell it from an impostor.',
    "Install a certificate from a CA the clients trust (a public CA, e.g. via ACME, or your organisation's internal CA distributed to the clients).",
    (c) => (c.selfSigned ? 'The certificate is self-signed.' : null),
  ),
  certCheck(
    'vigil.tls.cert-hostname',
    'TLS-CERT-NAME',
    'TLS certificate does not match the host',
    'low',
    'NOTE',
    'The certificate does not name the audited address; clients reaching the service by that address get a name mismatch error.',
    'Install a certificate whose subjectAltName includes every name and address clients use to reach the service.',
    (c, host) =>
      certNamesAddress(c, host.address)
        ? null
        : `The certificate names ${c.altNames.join(', ') || cn(c.subject) || 'nothing'}, not ${host.address}.`,
  ),
  certCheck(
    'vigil.tls.cert-weak-key',
    'TLS-CERT-WEAKKEY',
    'TLS certificate has a weak key',
    'medium',
    'HOLE',
    'The certificate key is too short (RSA/DSA under 2048 bits, EC under 224 bits) and may be factored or broken.',
    'Reissue the certificate with an RSA key of at least 2048 bits or an EC key (P-256 or better), and retire the old key.',
    (c) => {
      const t = c.keyType.toUpperCase();
      const weak =
        c.keyBits > 0 && (((t === 'RSA' || t === 'DSA') && c.keyBits < 2048) || (t === 'EC' && c.keyBits < 224));
      return weak ? `${c.keyType} key of ${c.keyBits} bits.` : null;
    },
  ),
  certCheck(
    'vigil.tls.cert-weak-signature',
    'TLS-CERT-WEAKSIG',
    'TLS certificate signed with a weak hash (MD5 / SHA-1)',
    'medium',
    'HOLE',
    'MD5 and SHA-1 signatures can be forged with collision attacks; browsers reject them.',
    'Reissue the certificate with SHA-256 or better.',
    // Flagged on self-signed certificates too: a client pinning one still trusts a forgeable hash.
    (c) =>
      /md2|md5|sha-?1(?!\d)/i.test(c.signatureAlgorithm) ? `Signature algorithm: ${c.signatureAlgorithm}.` : null,
  ),
];

const isHttps = (s: Service) => s.name === 'https' || (s.tls !== null && s.http !== null);

const HSTS_CHECK: Check = {
  id: 'vigil.tls.hsts-missing',
  shortid: 'HTTP-NO-HSTS',
  title: 'HTTPS without HTTP Strict Transport Security',
  category: 'SSL/TLS',
  risk: 'low',
  cves: [],
  type: 'NOTE',
  description:
    'The HTTPS site sends no Strict-Transport-Security header, so a machine in the middle can downgrade visitors to plain HTTP (SSL stripping).',
  solution:
    'Send `Strict-Transport-Security: max-age=31536000` on every HTTPS response (Apache: Header always set; nginx: add_header … always), once every name of the site is served over HTTPS.',
  intrusive: false,
  dos: false,
  active: false,
  async run(host: HostFacts): Promise<Finding[]> {
    return host.services
      .filter((s) => isHttps(s) && s.http && isTlsService(s))
      .flatMap((s) => {
        const hsts = s.http!.headers['strict-transport-security'];
        if (hsts && /max-age\s*=\s*"?[1-9]/i.test(hsts)) return [];
        return [
          {
            port: s.port,
            detail: hsts
              ? `Strict-Transport-Security: ${hsts} (max-age is 0 or missing).`
              : `HTTP ${s.http!.status} answer without Strict-Transport-Security.`,
          },
        ];
      });
  },
};

export const TLS_CHECKS: readonly Check[] = Object.freeze([...TLS_PROBE_CHECKS, ...CERT_CHECKS, HSTS_CHECK]);
