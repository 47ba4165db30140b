import type { Net } from '../../engine/types.ts';
import { tlsSession } from '../../proto/starttls.ts';
import { defineCheck } from '../kit.ts';
import { speaksTls, type TlsTarget, tlsTargetOn, via } from './lib/targets.ts';

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

async function measure(net: Net, t: TlsTarget): Promise<number | null> {
  const socket = await tlsSession(net, t.svc, t.starttls, DHE_ONLY);
  try {
    const key = socket?.getEphemeralKeyInfo();
    return key && 'type' in key && key.type === 'DH' && typeof key.size === 'number' ? key.size : null;
  } catch {
    return null; // no DHE suite in common: nothing to measure
  } finally {
    socket?.destroy();
  }
}

export default defineCheck({
  id: 'vigil.tls.dh-weak',
  shortid: 'TLS-WEAK-DH',
  title: `Weak Diffie-Hellman group (< ${DH_MIN_BITS} bits)`,
  family: 'SSL/TLS',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description: `The server's DHE key exchange uses a prime of fewer than ${DH_MIN_BITS} bits, which a well-funded attacker can break by precomputation (Logjam), exposing the session keys.`,
  solution: `Configure a ${DH_MIN_BITS}-bit or larger group (ssl_dhparam / SSLOpenSSLConfCmd DHParameters / the RFC 7919 ffdhe groups) or offer ECDHE only.`,
  qod: 99,
  ports: { where: speaksTls },
  async run({ host, net, port }) {
    const t = await tlsTargetOn(host, net, port);
    const bits = t && (await measure(net, t));
    return t && bits !== null && bits < DH_MIN_BITS
      ? `A DHE handshake${via(t)} used a ${bits}-bit Diffie-Hellman prime.`
      : null;
  },
});
