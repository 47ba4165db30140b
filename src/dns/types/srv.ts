import { fail } from '../../errors.ts';
import { int, parseNumber, presentName } from '../text.ts';
import {
  line,
  nameToken,
  need,
  ownerField,
  targetField,
  tokenText,
  type RecordType,
  type StoredData,
} from './shape.ts';

/** RFC 6335 5.1 service name: 1..15 LDH with at least one letter. */
const SERVICE = /^[a-z0-9](?:[a-z0-9-]{0,13}[a-z0-9])?$/;
const PROTOCOLS = ['tcp', 'udp', 'tls', 'sctp'];

/** The owner of an SRV record: `_srvc._prot[.host]`, relative to the zone. */
export function srvOwner(d: StoredData): string {
  return `_${d.srvc}._${d.prot}${d.host ? `.${d.host}` : ''}`;
}

/** `sip` or `_sip` (either way the user types it), stored without the underscore. */
const label = (value: string | undefined) => (value ?? '').replace(/^_/, '').toLowerCase();

/**
 * SRV: `srvc`, `prot`, `host` (the name within the zone the service is
 * for), `pri`, `weight`, `port` 0..65535, `target` a host name or `.`
 * ("no such service here", RFC 2782).
 */
export const SRV: RecordType = {
  type: 'SRV',
  parse(f, zone) {
    const srvc = label(f.srvc);
    if (!SERVICE.test(srvc) || !/[a-z]/.test(srvc)) fail('syntaxInvalidSrvc');
    const prot = label(f.prot);
    if (!PROTOCOLS.includes(prot)) fail('syntaxInvalidProt');
    const host = ownerField(f.host, zone, 'syntaxInvalidHostname');
    // The owner with its two labels must still fit in 253 octets.
    if (srvOwner({ srvc, prot, host }).length + 1 + zone.length > 253) fail('syntaxInvalidHostname');
    const pri = need(parseNumber(f.pri, 0, 65535), 'syntaxInvalidPriority');
    const weight = need(parseNumber(f.weight, 0, 65535), 'syntaxInvalidWeight');
    const port = need(parseNumber(f.port, 0, 65535), 'syntaxInvalidPort');
    const target = f.target === '.' ? '.' : targetField(f.target, zone, 'syntaxInvalidTarget', true);
    return { srvc, prot, host, pri, weight, port, target };
  },
  reply: (d) => ({
    srvc: d.srvc,
    prot: d.prot,
    host: d.host,
    pri: d.pri,
    weight: d.weight,
    port: d.port,
    target: d.target,
  }),
  zoneLines: (d, zone, ttl) => [
    line(
      srvOwner(d),
      zone,
      ttl,
      'SRV',
      `${int(d.pri)} ${int(d.weight)} ${int(d.port)} ${presentName(String(d.target))}`,
    ),
  ],
  owner: (d) => srvOwner(d),
  fromText: (owner, rdata, origin) => {
    // The owner carries service and protocol: `_sip._tcp[.host]`.
    const m = /^_([^.]+)\._([^.]+)(?:\.(.*))?$/.exec(owner) ?? fail('syntaxInvalidSrvc');
    if (rdata.length !== 4) fail('syntaxInvalidTarget');
    const [pri, weight, port] = rdata.slice(0, 3).map(tokenText);
    return { srvc: m[1], prot: m[2], host: m[3] ?? '', pri, weight, port, target: nameToken(rdata[3]!, origin) };
  },
};
