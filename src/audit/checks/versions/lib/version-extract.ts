import type { Service } from '../../../engine/types.ts';
import type { ProductKey } from '../../data/version-table.ts';

/** A product version read off a service, with the text it came from. */
export interface Sighting {
  product: ProductKey;
  version: string;
  /** The header or banner line quoted in findings. */
  seen: string;
  /** A distribution package: fixes are often backported without a version change. */
  distro: string | null;
}

/**
 * How each product shows its version. The first group is the version only,
 * so '9.2p1 Debian-2+deb12u3' yields 9.2p1 and the rest marks a distro.
 */
const PATTERNS: readonly [ProductKey, RegExp][] = [
  ['apache', /\bApache(?:\/| httpd )(\d+\.\d+\.\d+)/i],
  ['nginx', /\bnginx(?:\/| )(\d+\.\d+\.\d+)/i],
  ['iis', /\bMicrosoft[- ]IIS(?:\/| httpd )(\d+\.\d+)/i],
  ['lighttpd', /\blighttpd(?:\/| )(\d+\.\d+\.\d+)/i],
  // "mini_httpd/1.30 26Oct2018": two numbers only.
  ['mini_httpd', /\bmini_httpd\/(\d+\.\d+)\b/i],
  ['openssl', /\bOpenSSL\/(\d+\.\d+\.\d+[a-z]{0,2})(?![\w])/i],
  ['php', /\bPHP\/(\d+\.\d+\.\d+)/i],
  ['openssh', /\bOpenSSH[_ ](\d+\.\d+(?:\.\d+)?(?:p\d+)?)/i],
  ['vsftpd', /\bvsFTPd (\d+\.\d+\.\d+)/i],
  ['proftpd', /\bProFTPD (\d+\.\d+\.\d+(?:rc\d+|[a-z])?)\b/i],
  ['pureftpd', /\bPure-?FTPd[ -]v?(\d+\.\d+\.\d+)/i],
  ['exim', /\bExim (\d+\.\d+(?:\.\d+){0,2})\b/i],
  ['postfix', /\bPostfix (?:smtpd )?v?(\d+\.\d+\.\d+)/i],
  ['sendmail', /\bSendmail (\d+\.\d+\.\d+)/i],
  ['dovecot', /\bDovecot (?:\(\w+\) |imapd |pop3d )?v?(\d+\.\d+\.\d+(?:\.\d+)?)/i],
  ['mariadb', /(?:^|[^\d.])(?:5\.5\.5-)?(\d+\.\d+\.\d+)-MariaDB/i],
  ['redis', /\bredis_version:(\d+\.\d+\.\d+)/i],
  ['redis', /\bRedis(?: key-value store)? v?(\d+\.\d+\.\d+)/i],
];

/** version.bind answers: '9.11.5-P4-5.1+deb10u5-Debian', '9.18.28-1~deb12u2-Debian'. */
export const BIND_VERSION = /(?:^|[^\d.])(9\.\d+\.\d+(?:-[PS]\d+)?)/;
/** MySQL handshake: '5.5.62-0+deb8u1', '8.0.36-0ubuntu0.22.04.1', '5.7.44-log'. */
const MYSQL_VERSION = /(?:^|[^\d.])([3-9]\.\d+\.\d+)(?=[-\s\0]|$)/;

const DISTRO = /debian|ubuntu|\bdeb\d+u|\bel\d|centos|red ?hat|rhel|fedora|suse|raspbian|amzn|almalinux|rocky|fips/i;
const DISTRO_NAME = /(debian|ubuntu|centos|red ?hat|rhel|fedora|suse|raspbian|almalinux|rocky)/i;

const NAMES: Record<string, string> = {
  debian: 'Debian',
  ubuntu: 'Ubuntu',
  centos: 'CentOS',
  redhat: 'Red Hat',
  rhel: 'Red Hat',
  fedora: 'Fedora',
  suse: 'SUSE',
  raspbian: 'Raspbian',
  almalinux: 'AlmaLinux',
  rocky: 'Rocky Linux',
};

export function distroOf(text: string): string | null {
  if (!DISTRO.test(text)) return null;
  const name = DISTRO_NAME.exec(text)?.[1]?.toLowerCase().replace(' ', '');
  if (name) return NAMES[name] ?? name;
  return /\bdeb\d+u/i.test(text) ? 'Debian' : /\bel\d/i.test(text) ? 'Red Hat' : 'a vendor build';
}

/** Texts a service offers, labelled the way a finding quotes them. */
function texts(svc: Service): string[] {
  const out: string[] = [];
  const h = svc.http?.headers ?? {};
  if (h['server']) out.push(`Server: ${h['server']}`);
  if (h['x-powered-by']) out.push(`X-Powered-By: ${h['x-powered-by']}`);
  if (svc.banner) out.push(svc.banner);
  if (svc.product) out.push(`${svc.product} ${svc.version ?? ''}`.trim());
  for (const [k, v] of Object.entries(svc.extra ?? {})) if (typeof v === 'string') out.push(`${k}: ${v}`);
  return out.map((t) => t.replace(/[\0-\x08\x0b-\x1f\x7f]+/g, ' ').slice(0, 600));
}

const isDns = (s: Service) => s.name === 'domain' || s.port === 53 || /\bbind\b/i.test(s.product ?? '');
const isMysql = (s: Service) => s.name === 'mysql' || /mysql/i.test(s.product ?? '');

function line(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index) + 1;
  const end = text.indexOf('\n', index);
  return text
    .slice(start, end < 0 ? undefined : end)
    .trim()
    .slice(0, 200);
}

/** Every product version visible on one service, one sighting per product. */
export function sightings(svc: Service): Sighting[] {
  const found = new Map<ProductKey, Sighting>();
  const add = (product: ProductKey, version: string, text: string, index: number) => {
    if (found.has(product)) return;
    const seen = line(text, index);
    found.set(product, { product, version, seen, distro: distroOf(seen) });
  };
  try {
    for (const text of texts(svc)) {
      for (const [product, re] of PATTERNS) {
        const m = re.exec(text);
        if (m) add(product, m[1]!, text, m.index);
      }
      if (isMysql(svc) && !/mariadb/i.test(text) && !found.has('mysql')) {
        const m = MYSQL_VERSION.exec(text);
        if (m) add('mysql', m[1]!, text, m.index);
      }
      if (isDns(svc) || /version\.bind/i.test(text)) {
        const m = BIND_VERSION.exec(text);
        if (m) add('bind', m[1]!, text, m.index);
      }
    }
  } catch {
    return [];
  }
  return [...found.values()];
}
