import { randomInt } from 'node:crypto';
import * as dnsPacket from 'dns-packet';
import { QOD } from '../qod.ts';
import type { Check, Finding, HostFacts, Net } from '../types.ts';
import { BIND_VERSION, distroOf, sightings } from './version-extract.ts';
import { productFinding } from './version-finding.ts';
import { VERSION_TABLE } from './version-table.ts';
import { WIRE } from '../../../dns/rr/wire-names.ts';

/** The TXT text of a CHAOS version.bind answer, or null. Never throws. */
export async function queryVersionBind(net: Net, port: number, timeoutMs = 2000): Promise<string | null> {
  try {
    const id = randomInt(1, 65535);
    const query = dnsPacket.encode({
      type: 'query',
      id,
      flags: 0,
      questions: [{ type: WIRE.TXT, class: 'CH', name: 'version.bind' }],
    });
    const reply = await net.udpRequest(port, query, { timeoutMs });
    if (!reply || reply.length > 4096) return null;
    const msg = dnsPacket.decode(reply);
    if (msg.id !== id) return null;
    for (const a of msg.answers ?? []) {
      if (a.type !== WIRE.TXT) continue;
      const parts = Array.isArray(a.data) ? a.data : [a.data];
      const text = parts.map((p) => (Buffer.isBuffer(p) ? p.toString('latin1') : String(p))).join('');
      return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
    }
    return null;
  } catch {
    return null;
  }
}

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
export const VERSION_BIND_CHECK: Check = {
  id: 'vigil.version.bind.version-bind',
  shortid: 'DNS-VERSION-BIND',
  title: 'DNS server discloses its version (version.bind)',
  category: 'DNS',
  risk: 'low',
  cves: [],
  type: 'NOTE',
  description:
    'The name server answers the CHAOS TXT query version.bind with its software version, which helps an attacker pick exploits. ' +
    'Set `version "none";` (BIND) or the equivalent option. When the version is a vulnerable ISC BIND release, the affected CVEs are reported too.',
  solution:
    'Hide the version: in BIND set `version "none";` in the options block of named.conf (Unbound: `hide-version: yes`; Knot: `version:` empty), and upgrade when a vulnerable release is reported.',
  intrusive: false,
  dos: false,
  active: true,
  async run(host: HostFacts, net: Net): Promise<Finding[]> {
    const dnsServices = host.services.filter((s) => s.name === 'domain');
    const ports = [...new Set([53, ...dnsServices.map((s) => s.port)])];
    const findings: Finding[] = [];
    for (const port of ports) {
      const text = await queryVersionBind(net, port);
      if (!text) continue;
      findings.push({ port, detail: `version.bind (CHAOS TXT, UDP ${port}): "${text}"`, qod: QOD.active });
      const svc = host.services.find((s) => s.port === port);
      if (svc && sightings(svc).some((s) => s.product === 'bind')) continue;
      const version = BIND_VERSION.exec(text)?.[1];
      if (!version) continue;
      const sighting = { product: 'bind' as const, version, seen: text, distro: distroOf(text) };
      const outdated = productFinding(BIND, sighting, port, `version.bind "${text}"`);
      if (outdated) findings.push(outdated);
    }
    return findings;
  },
};
