/**
 * What the protocol and cipher checks share: one ClientHello per TLS port
 * (proto/tls-hello.ts), the ServerHello read, the connection dropped; and
 * the IANA names the findings quote.
 */
import type { Target } from '../../../engine/types.ts';
import { probeHello, SSL3, TLS10, TLS11, TLS12 } from '../../../proto/tls-hello.ts';
import { tlsTargetOn, via } from './targets.ts';

export const VERSION_NAMES: Record<number, string> = {
  [SSL3]: 'SSLv3',
  [TLS10]: 'TLS 1.0',
  [TLS11]: 'TLS 1.1',
  [TLS12]: 'TLS 1.2',
};
const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;

export const PROTOCOL_SOLUTION =
  "Allow only TLS 1.2 and TLS 1.3 in the service's TLS settings (nginx: ssl_protocols TLSv1.2 TLSv1.3; Apache: SSLProtocol -all +TLSv1.2 +TLSv1.3; Postfix: smtpd_tls_protocols = >=TLSv1.2).";
export const CIPHER_SOLUTION =
  "Remove these cipher suites from the service's TLS settings (nginx: ssl_ciphers; Apache: SSLCipherSuite; Postfix: smtpd_tls_exclude_ciphers), keeping ECDHE with AES-GCM or ChaCha20.";

/** IANA names of the weak suites we offer (and the common ones a server may pick). */
export const SUITE_NAMES: Record<number, string> = {
  0x0001: 'TLS_RSA_WITH_NULL_MD5',
  0x0002: 'TLS_RSA_WITH_NULL_SHA',
  0x003b: 'TLS_RSA_WITH_NULL_SHA256',
  0xc006: 'TLS_ECDHE_ECDSA_WITH_NULL_SHA',
  0xc010: 'TLS_ECDHE_RSA_WITH_NULL_SHA',
  0xc015: 'TLS_ECDH_anon_WITH_NULL_SHA',
  0x0004: 'TLS_RSA_WITH_RC4_128_MD5',
  0x0005: 'TLS_RSA_WITH_RC4_128_SHA',
  0xc007: 'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA',
  0xc011: 'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
  0x0018: 'TLS_DH_anon_WITH_RC4_128_MD5',
  0x000a: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
  0x0016: 'TLS_DHE_RSA_WITH_3DES_EDE_CBC_SHA',
  0x0013: 'TLS_DHE_DSS_WITH_3DES_EDE_CBC_SHA',
  0xc012: 'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA',
  0xc008: 'TLS_ECDHE_ECDSA_WITH_3DES_EDE_CBC_SHA',
  0x0009: 'TLS_RSA_WITH_DES_CBC_SHA',
  0x0015: 'TLS_DHE_RSA_WITH_DES_CBC_SHA',
  0x0012: 'TLS_DHE_DSS_WITH_DES_CBC_SHA',
  0x0003: 'TLS_RSA_EXPORT_WITH_RC4_40_MD5',
  0x0006: 'TLS_RSA_EXPORT_WITH_RC2_CBC_40_MD5',
  0x0008: 'TLS_RSA_EXPORT_WITH_DES40_CBC_SHA',
  0x0011: 'TLS_DHE_DSS_EXPORT_WITH_DES40_CBC_SHA',
  0x0014: 'TLS_DHE_RSA_EXPORT_WITH_DES40_CBC_SHA',
  0x0017: 'TLS_DH_anon_EXPORT_WITH_RC4_40_MD5',
  0x0019: 'TLS_DH_anon_EXPORT_WITH_DES40_CBC_SHA',
  0x0062: 'TLS_RSA_EXPORT1024_WITH_DES_CBC_SHA',
  0x0064: 'TLS_RSA_EXPORT1024_WITH_RC4_56_SHA',
  0x0034: 'TLS_DH_anon_WITH_AES_128_CBC_SHA',
  0x003a: 'TLS_DH_anon_WITH_AES_256_CBC_SHA',
  0x006c: 'TLS_DH_anon_WITH_AES_128_CBC_SHA256',
  0x006d: 'TLS_DH_anon_WITH_AES_256_CBC_SHA256',
  0x00a6: 'TLS_DH_anon_WITH_AES_128_GCM_SHA256',
  0x00a7: 'TLS_DH_anon_WITH_AES_256_GCM_SHA384',
  0xc018: 'TLS_ECDH_anon_WITH_AES_128_CBC_SHA',
  0xc019: 'TLS_ECDH_anon_WITH_AES_256_CBC_SHA',
  0x001b: 'TLS_DH_anon_WITH_3DES_EDE_CBC_SHA',
  0xc02f: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  0xc030: 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  0xc013: 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
  0xc014: 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA',
  0x002f: 'TLS_RSA_WITH_AES_128_CBC_SHA',
  0x0035: 'TLS_RSA_WITH_AES_256_CBC_SHA',
};

/** The named suites whose IANA name matches. */
export const suitesMatching = (re: RegExp) =>
  Object.keys(SUITE_NAMES)
    .map(Number)
    .filter((n) => re.test(SUITE_NAMES[n]!));

/** One ClientHello offering `suites` at `version`; the detail when the ServerHello proves `accepted`. */
export async function acceptedHello(
  { host, net, port }: Target,
  version: number,
  suites: readonly number[],
  accepted: (version: number, suite: number) => boolean,
): Promise<string | null> {
  const t = await tlsTargetOn(host, net, port);
  if (!t) return null;
  const hello = await probeHello(net, port, version, suites, { open: t.open });
  if (!hello || !accepted(hello.version, hello.suite)) return null;
  return `The server accepted a ${VERSION_NAMES[hello.version] ?? hex(hello.version)} handshake with cipher suite ${SUITE_NAMES[hello.suite] ?? hex(hello.suite)}${via(t)}.`;
}
