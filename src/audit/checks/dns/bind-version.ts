import { QOD } from '../../engine/qod.ts';
import { queryVersionBind } from '../../proto/dns.ts';
import { VERSION_TABLE } from '../data/version-table.ts';
import { defineCheck, type Found } from '../kit.ts';
import { BIND_VERSION, distroOf, sightings } from '../versions/lib/version-extract.ts';
import { productFinding } from '../versions/lib/version-finding.ts';

const BIND = VERSION_TABLE.find((t) => t.product === 'bind')!;

/**
 * Decision: the table-row checks are passive and only see version.bind when
 * service detection put it in the facts. This one active check asks for it
 * itself (UDP, port 53 and every detected DNS port) and reports it twice
 * over: one finding naming the text (version disclosure), and, when it is
 * a vulnerable ISC BIND release, the one outdated-release finding the
 * passive vigil.version.bind check would give (version-finding.ts), with
 * its CVEs, risk, title and solution as overrides. A version already
 * visible in the facts is left to the passive check so that nothing is
 * reported twice.
 */
export default defineCheck({
  id: 'vigil.version.bind.version-bind',
  shortid: 'DNS-VERSION-BIND',
  title: 'DNS server discloses its version (version.bind)',
  family: 'DNS',
  categories: ['safe', 'version', 'discovery', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'The name server answers the CHAOS TXT query version.bind with its software version, which helps an attacker pick exploits (reported as information). ' +
    'Set `version "none";` (BIND) or the equivalent option. When the version is a vulnerable ISC BIND release, the affected CVEs are reported too.',
  solution:
    'Hide the version: in BIND set `version "none";` in the options block of named.conf (Unbound and NSD: `hide-version: yes`; Knot: `version:` empty; dnsmasq: `no-ident`), and upgrade when a vulnerable release is reported.',
  ports: { services: ['domain'], udp: [53], via: 'udp' },
  async run({ net, port, service }) {
    const text = await queryVersionBind(net, port);
    if (!text) return null;
    // The disclosure alone is information (LOG), as the HTTP Server header is (vigil.http.server-version)
    // and as OpenVAS ("DNS Server Version Detection") and Nessus (10028, severity None) report it: NSD,
    // Knot and dnsmasq answer version.bind by default, so a NOTE here was an alarm on their hardened
    // twins, whose transfers and updates were closed. A vulnerable release stays a finding of its own.
    const out: Found[] = [
      { detail: `version.bind (CHAOS TXT, UDP ${port}): "${text}"`, qod: QOD.active, type: 'LOG', risk: 'other' },
    ];
    if (service && sightings(service).some((s) => s.product === 'bind')) return out;
    const version = BIND_VERSION.exec(text)?.[1];
    if (!version) return out;
    const sighting = { product: 'bind' as const, version, seen: text, distro: distroOf(text) };
    const outdated = productFinding(BIND, sighting, port, `version.bind "${text}"`);
    return outdated ? [...out, outdated] : out;
  },
});
