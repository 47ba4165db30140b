import type { Check, Finding, HostFacts, Net, Risk } from '../types.ts';
import { DH_CHECK } from './tls-dh.ts';
import { tlsTargets, via } from './tls-targets.ts';
import { COMMON_SUITES, probeHello, SSL3, TLS10, TLS11, TLS12 } from './tls-hello.ts';

const NAMES: Record<number, string> = { [SSL3]: 'SSLv3', [TLS10]: 'TLS 1.0', [TLS11]: 'TLS 1.1', [TLS12]: 'TLS 1.2' };
const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;

interface Probe {
  id: string;
  shortid: string;
  title: string;
  risk: Risk;
  type: 'HOLE' | 'NOTE';
  cves: string[];
  description: string;
  solution: string;
  version: number;
  suites: readonly number[];
  /** Does the ServerHello prove the weakness? */
  accepted: (version: number, suite: number) => boolean;
}

/** Active checks: one ClientHello each per TLS port, ServerHello read, connection dropped. */
function probeCheck(p: Probe): Check {
  return {
    id: p.id,
    shortid: p.shortid,
    title: p.title,
    category: 'SSL/TLS',
    risk: p.risk,
    cves: p.cves,
    type: p.type,
    description: p.description,
    solution: p.solution,
    intrusive: false,
    dos: false,
    active: true,
    async run(host: HostFacts, net: Net): Promise<Finding[]> {
      const findings: Finding[] = [];
      for (const t of await tlsTargets(host, net)) {
        const hello = await probeHello(net, t.svc.port, p.version, p.suites, { open: t.open });
        if (hello && p.accepted(hello.version, hello.suite)) {
          findings.push({
            port: t.svc.port,
            detail: `The server accepted a ${NAMES[hello.version] ?? hex(hello.version)} handshake with cipher suite ${SUITE_NAMES[hello.suite] ?? hex(hello.suite)}${via(t)}.`,
          });
        }
      }
      return findings;
    },
  };
}

const version = (
  v: number,
  id: string,
  shortid: string,
  title: string,
  risk: Risk,
  type: 'HOLE' | 'NOTE',
  cves: string[],
  why: string,
): Check =>
  probeCheck({
    id,
    shortid,
    title,
    risk,
    type,
    cves,
    version: v,
    suites: COMMON_SUITES,
    accepted: (got) => got === v,
    description: `The service accepts ${NAMES[v]} connections. ${why}`,
    solution: `Allow only TLS 1.2 and TLS 1.3 in the service's TLS settings (nginx: ssl_protocols TLSv1.2 TLSv1.3; Apache: SSLProtocol -all +TLSv1.2 +TLSv1.3; Postfix: smtpd_tls_protocols = >=TLSv1.2).`,
  });

/** IANA names of the weak suites we offer (and the common ones a server may pick). */
const SUITE_NAMES: Record<number, string> = {
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
const suitesMatching = (re: RegExp) =>
  Object.keys(SUITE_NAMES)
    .map(Number)
    .filter((n) => re.test(SUITE_NAMES[n]!));

const cipher = (
  re: RegExp,
  id: string,
  shortid: string,
  title: string,
  risk: Risk,
  cves: string[],
  why: string,
): Check => {
  const suites = suitesMatching(re);
  return probeCheck({
    id,
    shortid,
    title,
    risk,
    type: 'HOLE',
    cves,
    version: TLS12,
    suites,
    accepted: (_v, s) => suites.includes(s),
    description: why,
    solution: `Remove these cipher suites from the service's TLS settings (nginx: ssl_ciphers; Apache: SSLCipherSuite; Postfix: smtpd_tls_exclude_ciphers), keeping ECDHE with AES-GCM or ChaCha20.`,
  });
};

export const TLS_PROBE_CHECKS: readonly Check[] = [
  DH_CHECK,
  version(
    SSL3,
    'vigil.tls.sslv3',
    'TLS-SSLV3',
    'SSLv3 protocol enabled (POODLE)',
    'medium',
    'HOLE',
    ['CVE-2014-3566'],
    'SSLv3 is broken (POODLE padding oracle) and prohibited by RFC 7568.',
  ),
  version(
    TLS10,
    'vigil.tls.tls10',
    'TLS-TLS10',
    'Deprecated TLS 1.0 protocol enabled',
    'low',
    'NOTE',
    [],
    'TLS 1.0 is deprecated by RFC 8996 (BEAST, weak hashes) and fails PCI DSS.',
  ),
  version(
    TLS11,
    'vigil.tls.tls11',
    'TLS-TLS11',
    'Deprecated TLS 1.1 protocol enabled',
    'low',
    'NOTE',
    [],
    'TLS 1.1 is deprecated by RFC 8996.',
  ),
  cipher(
    /_NULL_/,
    'vigil.tls.cipher-null',
    'TLS-NULL',
    'NULL cipher suites accepted (no encryption)',
    'high',
    [],
    'The server agrees to NULL cipher suites, which send the traffic unencrypted.',
  ),
  cipher(
    /_anon_/,
    'vigil.tls.cipher-anon',
    'TLS-ANON',
    'Anonymous cipher suites accepted (no authentication)',
    'high',
    [],
    'The server agrees to anonymous (DH_anon / ECDH_anon) suites, which do not authenticate the server: any machine in the middle can impersonate it.',
  ),
  cipher(
    /EXPORT/,
    'vigil.tls.cipher-export',
    'TLS-EXPORT',
    'EXPORT cipher suites accepted (FREAK / Logjam)',
    'high',
    ['CVE-2015-0204', 'CVE-2015-4000'],
    'The server agrees to 40/56-bit EXPORT suites, which can be broken in hours (FREAK, Logjam).',
  ),
  cipher(
    /_RC4_/,
    'vigil.tls.cipher-rc4',
    'TLS-RC4',
    'RC4 cipher suites accepted',
    'medium',
    ['CVE-2013-2566', 'CVE-2015-2808'],
    'RC4 has exploitable biases and is prohibited by RFC 7465.',
  ),
  cipher(
    /_DES_|3DES/,
    'vigil.tls.cipher-des',
    'TLS-3DES',
    'DES / 3DES cipher suites accepted (SWEET32)',
    'medium',
    ['CVE-2016-2183'],
    'Single DES is broken outright, and 64-bit block ciphers such as 3DES allow plaintext recovery on long connections (SWEET32).',
  ),
];
