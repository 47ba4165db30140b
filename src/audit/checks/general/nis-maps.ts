import type { HostFacts } from '../../engine/types.ts';
import { findYpserv, firstRecords, mapList, servesDomain } from '../../proto/nis.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

/**
 * Names a NIS domain is commonly given (Debian's installer offers the DNS
 * domain; tutorials and old Sun habits use these). A short list, never a
 * dictionary: each costs one YPPROC_DOMAIN datagram.
 */
const COMMON = ['nis', 'yp', 'nisdomain', 'ypdomain', 'domain', 'localdomain', 'local', 'lan', 'corp', 'unix'];

/**
 * Domain candidates: the DNS names the host's other services announce (SMTP
 * and FTP banners, certificate names, protocol facts detection kept, HTTP
 * headers), each with its parent suffixes and
 * first label, then the common ones. NIS domains are usually the DNS domain
 * or a label of it (ypserv(8), Debian's nis README).
 */
export function domainCandidates(host: HostFacts): string[] {
  const names = new Set<string>();
  for (const s of host.services) {
    const texts = [
      s.banner ?? '',
      s.tls?.certificate?.subject ?? '',
      ...(s.tls?.certificate?.altNames ?? []),
      // What detection read off the protocol (an XMPP domain, …) and HTTP headers (Location, cookie domains).
      ...Object.values(s.extra),
      ...Object.values(s.http?.headers ?? {}),
    ];
    for (const t of texts)
      for (const m of t.matchAll(/\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/gi)) names.add(m[0].toLowerCase());
  }
  const out = new Set<string>();
  for (const n of names) {
    if (/^[\d.]+$/.test(n)) continue; // an address, not a name
    const labels = n.replace(/^\*\./, '').split('.');
    for (let i = 1; i < labels.length - 1; i++) out.add(labels.slice(i).join('.'));
    out.add(labels[labels.length > 2 ? 1 : 0]!);
  }
  for (const c of COMMON) out.add(c);
  return [...out].slice(0, 30);
}

/** A passwd map line with its password field masked: the finding proves the field came, not what it holds. */
const masked = (line: string) => line.replace(/^([^:]*):([^:]*)/, (_, u: string, p: string) => `${u}:${mask(p)}`);
const mask = (p: string) => (p.length > 2 ? `${p.slice(0, 3)}[masked, ${p.length} chars]` : p);
/** A crypt(3) hash or DES hash rather than "x", "*", "!" or "##user" (shadow or adjunct elsewhere). */
const isHash = (line: string) => /^[^:]*:(\$[0-9a-z]+\$|[./0-9A-Za-z]{13}:)/.test(line);

/**
 * ypserv handing a domain's maps to whoever names the domain: NIS has no
 * client authentication (ypserv's only gate is securenets, by address), so
 * the passwd map gives account names, home directories and shells, and on
 * hosts without shadow maps the password hashes themselves.
 */
export default defineCheck({
  id: 'vigil.nis.maps',
  shortid: 'NIS-MAPS',
  title: 'NIS server hands its maps to anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default', 'auth'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'A NIS (YP) server answers anyone who names its domain with its maps: the passwd map lists every account with its home directory and shell, hosts and group maps describe the network, and where the passwd map carries password hashes they can be cracked offline. NIS has no client authentication; domain names are easy to guess.',
  solution:
    'Restrict ypserv to the client networks in /var/yp/securenets (/etc/ypserv.securenets before ypserv 4) and per map in /etc/ypserv.conf, keep password hashes out of the maps (shadow maps served only to privileged ports, or better LDAP/Kerberos), and firewall the portmapper and ypserv from untrusted networks.',
  references: ['https://manpages.debian.org/ypserv.8', 'https://manpages.debian.org/ypserv.conf.5'],
  ports: { services: ['rpcbind', 'sunrpc'], ports: [111] },
  run: async ({ net, port, host }) => {
    const yp = await findYpserv(net, port);
    if (!yp) return null;
    for (const domain of domainCandidates(host)) {
      if ((await servesDomain(net, yp, domain)) !== true) continue;
      const maps = await mapList(net, yp, domain);
      const passwd = await firstRecords(net, yp, domain, 'passwd.byname');
      if (!maps?.length && !passwd) return null; // it serves the domain but hands nothing out
      const where = `ypserv (program 100004 v2, ${yp.proto}/${yp.port}, found through the portmapper on ${port})`;
      const said = [`${where} serves domain "${domain}" (YPPROC_DOMAIN true)`];
      if (maps?.length) said.push(`YPPROC_MAPLIST answered ${maps.length} maps: ${shown(maps.join(', '), 200)}`);
      if (passwd) {
        const lines = passwd.map((r) => masked(r.value));
        said.push(`YPPROC_FIRST/NEXT on passwd.byname answered: ${shown(lines.join(' | '), 300)}`);
      }
      const hashes = passwd?.some((r) => isHash(r.value));
      return {
        detail: `${said.join('; ')}.${hashes ? ' The passwd map carries password hashes (masked above).' : ''}`,
        ...(hashes ? { risk: 'high' as const } : {}),
      };
    }
    return null;
  },
});
