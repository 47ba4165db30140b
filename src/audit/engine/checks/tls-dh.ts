import type { TLSSocket } from 'node:tls';
import type { Check, Finding, HostFacts, Net } from '../types.ts';
import { startTls } from './starttls.ts';
import { tlsTargets, via } from './tls-targets.ts';

/**
 * Weak Diffie-Hellman groups, read from our own handshake instead of
 * nmap's ssl-dh-params: offer only finite-field DHE suites at TLS 1.2 and
 * ask the session for the server's ephemeral key (node's
 * tlsSocket.getEphemeralKeyInfo(): { type: 'DH', size: bits of the prime }).
 * Under 2048 bits is weak: Logjam (Adrian et al., CCS 2015) showed 1024-bit
 * groups within reach of a state-level precomputation, and NIST SP 800-57
 * part 1 rates 1024-bit finite-field groups at 80 bits of security,
 * disallowed since 2013. A server that picks no DHE suite is not flagged.
 */
export const DH_MIN_BITS = 2048;

/**
 * Every finite-field DHE suite OpenSSL names; SECLEVEL=0 so that a 512/768/1024-bit group is accepted and can
 * be measured.
 */
const DHE_ONLY = {
  minVersion: 'TLSv1' as const,
  maxVersion: 'TLSv1.2' as const,
  ciphers: 'kDHE:kEDH:!aNULL:!eNULL:@SECLEVEL=0',
};

async function measure(net: Net, t: Awaited<ReturnType<typeof tlsTargets>>[number]): Promise<number | null> {
  let socket: TLSSocket | null = null;
  try {
    socket = t.starttls
      ? await startTls(net, t.svc, DHE_ONLY)
      : await net.connectTls(t.svc.port, { timeoutMs: 4000, ...DHE_ONLY });
    const key = socket?.getEphemeralKeyInfo();
    return key && 'type' in key && key.type === 'DH' && typeof key.size === 'number' ? key.size : null;
  } catch {
    return null; // no DHE suite in common: nothing to measure
  } finally {
    socket?.destroy();
  }
}

export const DH_CHECK: Check = {
  id: 'vigil.tls.dh-weak',
  shortid: 'TLS-WEAK-DH',
  title: `Weak Diffie-Hellman group (< ${DH_MIN_BITS} bits)`,
  category: 'SSL/TLS',
  risk: 'medium',
  cves: [],
  type: 'HOLE',
  description: `The server's DHE key exchange uses a prime of fewer than ${DH_MIN_BITS} bits, which a well-funded attacker can break by precomputation (Logjam), exposing the session keys.`,
  solution: `Configure a ${DH_MIN_BITS}-bit or larger group (ssl_dhparam / SSLOpenSSLConfCmd DHParameters / the RFC 7919 ffdhe groups) or offer ECDHE only.`,
  intrusive: false,
  dos: false,
  active: true,
  qod: 99,
  async run(host: HostFacts, net: Net): Promise<Finding[]> {
    const findings: Finding[] = [];
    for (const t of await tlsTargets(host, net)) {
      const bits = await measure(net, t);
      if (bits !== null && bits < DH_MIN_BITS)
        findings.push({
          port: t.svc.port,
          detail: `A DHE handshake${via(t)} used a ${bits}-bit Diffie-Hellman prime.`,
        });
    }
    return findings;
  },
};
