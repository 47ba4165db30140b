import type { HostFacts, Net, Service, TlsInfo } from '../../../engine/types.ts';
import { tlsRefusal } from '../../../proto/http.ts';
import { describeSession, isTlsService, OFFER_ALL, readTlsInfo } from '../../../proto/tls.ts';
import { startPlain, startTls, upgradeFor } from '../../../proto/starttls.ts';

/**
 * The ports the TLS checks examine: implicit-TLS services as detection
 * found them, and services that upgrade with STARTTLS (SMTP, IMAP, POP3,
 * FTP, PostgreSQL, MySQL, LDAP). For the latter the certificate is read here with
 * one handshake per port, shared by every check of the audit: it is the
 * same act as detection's handshake on an implicit-TLS port, so the
 * certificate checks stay passive (they add nothing a client would not do).
 */
export interface TlsTarget {
  svc: Service;
  starttls: boolean;
  info: TlsInfo | null;
  /** A connection ready for a ClientHello: plain TCP, or the STARTTLS preamble done. */
  open?: () => ReturnType<typeof startPlain>;
}

/**
 * Per audited host (the HostFacts object lives as long as one host's checks); promises, since checks run
 * concurrently.
 */
const cache = new WeakMap<HostFacts, Promise<TlsTarget[]>>();

export function tlsTargets(host: HostFacts, net: Net): Promise<TlsTarget[]> {
  let p = cache.get(host);
  if (!p) cache.set(host, (p = collect(host, net)));
  return p;
}

async function collect(host: HostFacts, net: Net): Promise<TlsTarget[]> {
  const out = await Promise.all(
    host.services.map(async (svc): Promise<TlsTarget | null> => {
      // Implicit TLS; a port detection saw only as HTTP's "plain HTTP sent to an HTTPS port" is one too, and
      // then needs its handshake here.
      if (isTlsService(svc) || tlsRefusal(svc.http))
        return { svc, starttls: false, info: svc.tls ?? (await readTlsInfo(net, svc.port)) };
      if (!upgradeFor(svc)) return null;
      const socket = await startTls(net, svc, OFFER_ALL).catch(() => null);
      if (!socket) return null;
      try {
        return { svc, starttls: true, info: describeSession(socket), open: () => startPlain(net, svc) };
      } catch {
        return null; // an odd certificate costs this port only
      } finally {
        socket.destroy();
      }
    }),
  );
  return out.filter((t): t is TlsTarget => t !== null);
}

/** " (after STARTTLS)" for the reports of upgraded ports. */
export const via = (t: TlsTarget) =>
  t.starttls
    ? ` (after ${t.svc.name === 'ftp' ? 'AUTH TLS' : t.svc.name === 'postgresql' || t.svc.name === 'mysql' ? 'SSLRequest' : 'STARTTLS'})`
    : '';

/** The port rule of the TLS checks: implicit TLS, HTTP's "plain HTTP to an HTTPS port", or a STARTTLS protocol. */
export const speaksTls = (s: Service) => isTlsService(s) || tlsRefusal(s.http) || upgradeFor(s) !== null;

/** The TLS target on one port (null when its STARTTLS was refused or the handshake failed). */
export async function tlsTargetOn(host: HostFacts, net: Net, port: number): Promise<TlsTarget | null> {
  return (await tlsTargets(host, net)).find((t) => t.svc.port === port) ?? null;
}
