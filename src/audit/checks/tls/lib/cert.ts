/**
 * What the certificate checks share. They are passive: they read the
 * certificate that detection's handshake saw, or the one handshake per
 * STARTTLS port targets.ts makes for the whole audit (the same act as
 * detection's on an implicit-TLS port, so they add nothing a client would
 * not do). proto/tls.ts's readTlsInfo also sees 1024-bit and SHA-1 certificates.
 */
import { isIP } from 'node:net';
import type { HostFacts, Net, Target, TlsCertificate, TlsInfo } from '../../../engine/types.ts';
import { requestsClientCertificate } from '../../../proto/tls-client-auth.ts';
import { tlsTargetOn, via } from './targets.ts';

export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const cn = (dn: string) => /(?:^|[,/\n]\s*)CN=([^,/\n]+)/.exec(dn)?.[1]?.trim() ?? null;

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
 * "Close to expiry": fewer than 30 days left. certbot renews a 90-day Let's
 * Encrypt certificate when 30 days remain (the renew_before_expiry default
 * in its renewal configuration): an automated certificate under 30 days
 * means the renewal that should have happened did not. Past expiry the
 * cert-expired check reports instead (left >= 0 there).
 */
export const EXPIRY_WARNING_DAYS = 30;

/**
 * The certificate on the target's port put to `test`; its detail with the subject and issuer. Trust checks
 * (self-signed, name) pass `implicitOnly`: on STARTTLS ports the certificate is usually not what protects
 * the client: SMTP between servers is opportunistic and unauthenticated by design (RFC 7435, RFC 3207 §4: a
 * publicly-referenced server must not require TLS), and mail, directory and database certificates name a
 * host, never the audited address. The validity, key and signature checks apply to both. Trust checks
 * (self-signed, untrusted, name) also pass `trust`: before one reports an implicit-TLS port, one TLS 1.2
 * ClientHello per port and host asks whether the server requests a client certificate (the same act as a
 * client's handshake, as the STARTTLS handshakes of targets.ts are; docs/audits.md, "Control ports").
 */
export async function certDetail(
  { host, net, port }: Target,
  test: (c: TlsCertificate, host: HostFacts, now: number, info: TlsInfo) => string | null,
  opts: { implicitOnly?: boolean; trust?: boolean } = {},
): Promise<string | null> {
  const t = await tlsTargetOn(host, net, port);
  const info = t?.info;
  const cert = info?.certificate;
  if (!t || !info || !cert || (t.starttls && opts.implicitOnly)) return null;
  let detail: string | null;
  try {
    detail = test(cert, host, Date.now(), info);
  } catch {
    return null; // an odd certificate record costs this port only
  }
  if (!detail) return null;
  // Trust checks (self-signed, untrusted, name): a server that asks every client for a certificate serves
  // clients provisioned to it, which trust its certificate by configuration (unbound-control pins
  // unbound_server.pem; Docker and etcd clients are given the CA file), not through public CAs.
  if (opts.trust && !t.starttls && (await asksClientCertificate(host, net, port))) return null;
  return `${detail}${via(t)} (subject: ${cert.subject}; issuer: ${cert.issuer})`;
}

/** One TLS 1.2 hello per port and audited host, shared by the trust checks (proto/tls-client-auth.ts). */
const clientAuth = new WeakMap<HostFacts, Map<number, Promise<boolean | null>>>();
function asksClientCertificate(host: HostFacts, net: Net, port: number): Promise<boolean | null> {
  let ports = clientAuth.get(host);
  if (!ports) clientAuth.set(host, (ports = new Map()));
  let p = ports.get(port);
  if (!p) ports.set(port, (p = requestsClientCertificate(net, port)));
  return p;
}
