/**
 * The planted weaknesses: one target address each (127.0.0.60+), one
 * hardened twin per service kind (127.0.0.84+), which check ids name each
 * weakness, and what in nmap's output counts as naming it.
 *
 * Vigil: a weakness is found when a finding of a matching check id is
 * reported on the target's address and port. Families still being written
 * (services.ts, remote.ts, nse.ts) are matched by what their ids must
 * contain (e.g. "redis" and not a version row), so they count once landed.
 *
 * nmap: a script output or the -sV service line must name the weakness.
 * Version weaknesses count on product+version (Vigil's version checks use
 * the same evidence); exposure weaknesses (Telnet, memcached) count on
 * the service name; authentication and configuration weaknesses need a
 * script that states them.
 */
import type { NmapPort } from './nmap.ts';

export type Kind = 'http' | 'nginx' | 'https' | 'ftp' | 'ssh' | 'telnet' | 'smtp' | 'dns' | 'redis' | 'memcached' | 'vnc' | 'mongodb';

export interface Weakness {
  id: string;
  label: string;
  kind: Kind;
  address: string;
  port: number;
  vigil: RegExp;
  /** Evidence in nmap's output for this port, or null. */
  nmap: (p: NmapPort) => string | null;
}

/** The ports each kind listens on (TCP; DNS also UDP 53). */
export const PORTS: Record<Kind, number[]> = {
  http: [80], nginx: [80], https: [443], ftp: [21], ssh: [22], telnet: [23], smtp: [25], dns: [53],
  redis: [6379], memcached: [11211], vnc: [5900], mongodb: [27017],
};

/** The hardened twin of every kind: same service, weakness removed (Telnet: SSH instead; memcached: not exposed). */
export const TWINS: Record<Kind, string> = {
  http: '127.0.0.84', nginx: '127.0.0.85', ftp: '127.0.0.86', ssh: '127.0.0.87', telnet: '127.0.0.87', smtp: '127.0.0.88',
  dns: '127.0.0.89', https: '127.0.0.90', redis: '127.0.0.91', memcached: '127.0.0.92', vnc: '127.0.0.93', mongodb: '127.0.0.94',
};

const text = (p: NmapPort) => [p.service, ...p.scripts.map((s) => `${s.id}: ${s.output}`)].join('\n');
const grep = (re: RegExp) => (p: NmapPort) => re.exec(text(p))?.[0] ?? null;
const script = (id: string, re: RegExp) => (p: NmapPort) => {
  const s = p.scripts.find((x) => x.id === id);
  return s && re.test(s.output) ? `${id}: ${re.exec(s.output)![0]}` : null;
};
const any = (...ms: ((p: NmapPort) => string | null)[]) => (p: NmapPort) => ms.reduce<string | null>((hit, m) => hit ?? m(p), null);
/** ssl-cert's "Not valid after:  2026-10-19T05:59:29" in the past. */
const certExpired = (p: NmapPort) => {
  const m = /Not valid after:\s*(\S+)/.exec(p.scripts.find((s) => s.id === 'ssl-cert')?.output ?? '');
  return m && Date.parse(m[1]!.endsWith('Z') ? m[1]! : `${m[1]}Z`) < Date.now() ? `ssl-cert: ${m[0]}` : null;
};
const certSelfSigned = (p: NmapPort) => {
  const out = p.scripts.find((s) => s.id === 'ssl-cert')?.output ?? '';
  const subject = /^Subject: (.*)$/m.exec(out)?.[1];
  const issuer = /^Issuer: (.*)$/m.exec(out)?.[1];
  return subject && subject === issuer ? `ssl-cert: Issuer = Subject (${subject})` : null;
};

let n = 60;
const at = () => `127.0.0.${n++}`;
const w = (id: string, label: string, kind: Kind, vigil: RegExp, nmap: Weakness['nmap']): Weakness => ({ id, label, kind, address: at(), port: PORTS[kind][0]!, vigil, nmap });
/** Service-family check ids, version rows excluded. */
const fam = (re: string) => new RegExp(`^vigil\\.(?!version\\.)[\\w.-]*${re}`, 'i');

export const WEAKNESSES: readonly Weakness[] = [
  w('apache-2.4.49', 'Apache 2.4.49 Server header (CVE-2021-41773)', 'http', /^vigil\.version\.apache\.cve-2021-41773$/,
    any(grep(/CVE-2021-41773/), grep(/Apache httpd 2\.4\.49/))),
  w('php-5.6.40', 'X-Powered-By: PHP/5.6.40', 'http', /^vigil\.version\.php\./, grep(/PHP\/?\s?5\.6\.40/)),
  w('http-trace', 'HTTP TRACE enabled', 'http', /^vigil\.http\.trace$/, any(script('http-trace', /TRACE is enabled/), script('http-methods', /risky methods:.*TRACE/))),
  w('dir-listing', 'Directory listing on /', 'nginx', /^vigil\.http\.dir-listing$/, script('http-enum', /w\/ listing|directory listing/i)),
  w('git-exposed', 'Exposed /.git/HEAD', 'nginx', /^vigil\.http\.git-exposed$/, any(script('http-git', /Git repository found/i), script('http-enum', /\/\.git\/HEAD|Git folder/))),
  w('env-exposed', 'Exposed /.env', 'nginx', /^vigil\.http\.env-exposed$/, grep(/\/\.env\b/)),
  w('vsftpd-2.3.4', 'vsftpd 2.3.4 banner (CVE-2011-2523)', 'ftp', /^vigil\.version\.vsftpd\.cve-2011-2523$/,
    any(grep(/CVE-2011-2523/), grep(/vsftpd 2\.3\.4/i))),
  w('ftp-anon', 'Anonymous FTP login', 'ftp', fam('ftp[\\w.-]*anon'), script('ftp-anon', /Anonymous FTP login allowed/)),
  w('openssh-7.4', 'OpenSSH 7.4 banner', 'ssh', /^vigil\.version\.openssh\./, grep(/OpenSSH 7\.4\b/)),
  w('telnet', 'Telnet open', 'telnet', fam('telnet'), grep(/^telnet\b.*/m)),
  w('exim-4.89', 'Exim 4.89 banner (CVE-2019-10149)', 'smtp', /^vigil\.version\.exim\.cve-2019-10149$/, any(grep(/CVE-2019-10149/), grep(/Exim smtpd 4\.89/))),
  w('smtp-relay', 'Open SMTP relay', 'smtp', fam('relay'), script('smtp-open-relay', /Server is an open relay/i)),
  w('dns-recursion', 'DNS open recursion', 'dns', fam('recurs'), script('dns-recursion', /Recursion appears to be enabled/i)),
  w('cert-expired', 'Expired certificate', 'https', /^vigil\.tls\.cert-expired$/, any(certExpired, grep(/certificate has expired/i))),
  w('cert-self-signed', 'Self-signed certificate', 'https', /^vigil\.tls\.cert-self-signed$/, any(certSelfSigned, grep(/self-signed/i))),
  w('cert-1024', '1024-bit RSA key', 'https', /^vigil\.tls\.cert-weak-key$/, grep(/Public Key bits: 1024|rsa 1024|RSA.{0,10}1024/i)),
  w('cert-sha1', 'SHA-1 certificate signature', 'https', /^vigil\.tls\.cert-weak-signature$/, grep(/sha1WithRSAEncryption/i)),
  w('tls10', 'TLS 1.0 accepted', 'https', /^vigil\.tls\.tls10$/, grep(/TLSv1\.0:/)),
  w('hsts-missing', 'HTTPS without HSTS', 'https', /^vigil\.tls\.hsts-missing$/, grep(/HSTS not configured|Strict-Transport-Security.*(missing|not)/i)),
  w('redis-noauth', 'Redis without authentication', 'redis', fam('redis'), script('redis-info', /Version/)),
  w('memcached-open', 'Memcached open', 'memcached', fam('memcache'), grep(/^memcache.*/m)),
  w('vnc-noauth', 'VNC without authentication', 'vnc', /^vigil\.vnc\.noauth$/, any(script('vnc-info', /None \(1\)/), script('realvnc-auth-bypass', /VULNERABLE/))),
  w('mongodb-noauth', 'MongoDB without authentication', 'mongodb', fam('mongo'), any(script('mongodb-databases', /customers/), script('mongodb-info', /databases/i))),
];

/** Addresses the bench serves: every target, every twin. */
export const ADDRESSES = [...new Set([...WEAKNESSES.map((x) => x.address), ...Object.values(TWINS)])];
export const ALL_PORTS = [...new Set(Object.values(PORTS).flat())].sort((a, b) => a - b);
