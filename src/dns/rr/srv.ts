import { fail } from '../../errors.ts';
import { int, presentName } from '../text.ts';
import {
  bare,
  dotted,
  intField,
  lowerName,
  nameToken,
  ownerField,
  type RecordType,
  type Stored,
  targetField,
  tokenText,
} from './kit.ts';

export type SrvData = Stored & {
  srvc: string;
  prot: string;
  host: string;
  pri: number;
  weight: number;
  port: number;
  target: string;
};

/** RFC 6335 5.1 service name: 1..15 LDH with at least one letter. */
const SERVICE = /^[a-z0-9](?:[a-z0-9-]{0,13}[a-z0-9])?$/;
const PROTOCOLS = ['tcp', 'udp', 'tls', 'sctp'];
/** `_srvc._prot[.host]`: the owner carries the service and protocol. */
const OWNER = /^_([^.]+)\._([^.]+)(?:\.(.*))?$/;

/** The owner of an SRV record: `_srvc._prot[.host]`, relative to the zone. */
export const srvOwner = (d: Pick<SrvData, 'srvc' | 'prot' | 'host'>): string =>
  `_${d.srvc}._${d.prot}${d.host ? `.${d.host}` : ''}`;

/** `sip` or `_sip` (either way the user types it), stored without the underscore. */
const label = (value: string | undefined) => (value ?? '').replace(/^_/, '').toLowerCase();

const u16 = (max: number, code: Parameters<typeof intField>[3], name: string, label: string) =>
  ({ name, kind: 'integer', required: true, min: 0, max, code, doc: `0 to ${max}`, label }) as const;

type SrvWire = { priority?: number; weight?: number; port: number; target: string };

/**
 * SRV: `srvc`, `prot`, `host` (the name within the zone the service is
 * for), `pri`, `weight`, `port` 0..65535, `target` a host name or `.`
 * ("no such service here", RFC 2782).
 */
export const SRV = {
  type: 'SRV',
  add: {
    script: 'dnsAddSRV.php',
    summary: 'add an SRV record',
    // The spec lists no `domain` for SRV but lists its code: Vigil takes one when sent.
    domainOptional: true,
    fields: [
      {
        name: 'srvc',
        kind: 'text',
        required: true,
        code: 'syntaxInvalidSrvc',
        doc: 'the service, with or without its underscore',
        label: 'Service',
        hint: 'e.g. _sip',
      },
      {
        name: 'prot',
        kind: 'text',
        required: true,
        code: 'syntaxInvalidProt',
        doc: 'the protocol (`tcp`, `udp`, …), with or without its underscore',
        label: 'Protocol',
        hint: '_tcp or _udp',
      },
      {
        name: 'host',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'owner; without `domain`: fully qualified, and the domain is the longest of the account that ends it',
        label: 'Host',
        hint: 'blank for the domain itself',
        blank: true,
      },
      u16(65535, 'syntaxInvalidPriority', 'pri', 'Priority'),
      u16(65535, 'syntaxInvalidWeight', 'weight', 'Weight'),
      u16(65535, 'syntaxInvalidPort', 'port', 'Port'),
      {
        name: 'target',
        kind: 'hostname',
        required: true,
        code: 'syntaxInvalidTarget',
        doc: 'the target host, or `.`',
        label: 'Target host',
      },
    ],
    example: { srvc: 'sip', prot: 'tcp', host: '', pri: '10', weight: '5', port: '5060', target: 'sip.example.org.' },
  },
  wire: {
    type: 'SRV',
    encode: (d) => ({
      priority: d.pri,
      weight: d.weight,
      port: d.port,
      target: d.target === '.' ? '.' : bare(d.target),
    }),
    decode: (w, owner) => {
      const m = OWNER.exec(owner);
      if (!m) return null;
      const d = w as SrvWire;
      const [srvc, prot, host] = [m[1]!, m[2]!, m[3] ?? ''];
      return { srvc, prot, host, pri: d.priority ?? 0, weight: d.weight ?? 0, port: d.port, target: dotted(d.target) };
    },
    canonical: (w) => ({ ...(w as SrvWire), target: lowerName((w as SrvWire).target) }),
    present: (w) => {
      const d = w as SrvWire;
      return `${d.priority ?? 0} ${d.weight ?? 0} ${d.port} ${presentName(dotted(d.target))}`;
    },
  },
  bound: 920,
  display: '_{srvc}._{prot}{.host} {pri} {weight} {port} {target}',
  parse(f, zone) {
    const srvc = label(f.srvc);
    if (!SERVICE.test(srvc) || !/[a-z]/.test(srvc)) fail('syntaxInvalidSrvc');
    const prot = label(f.prot);
    if (!PROTOCOLS.includes(prot)) fail('syntaxInvalidProt');
    const host = ownerField(f.host, zone, 'syntaxInvalidHostname');
    // The owner with its two labels must still fit in 253 octets.
    if (srvOwner({ srvc, prot, host }).length + 1 + zone.length > 253) fail('syntaxInvalidHostname');
    const pri = intField(f.pri, 0, 65535, 'syntaxInvalidPriority');
    const weight = intField(f.weight, 0, 65535, 'syntaxInvalidWeight');
    const port = intField(f.port, 0, 65535, 'syntaxInvalidPort');
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
  owner: srvOwner,
  targets: (d) => (d.target === '.' ? [] : [d.target]),
  rdata: (d) => `${int(d.pri)} ${int(d.weight)} ${int(d.port)} ${presentName(String(d.target))}`,
  fromText: (owner, rdata, origin) => {
    const m = OWNER.exec(owner) ?? fail('syntaxInvalidSrvc');
    if (rdata.length !== 4) fail('syntaxInvalidTarget');
    const [pri, weight, port] = rdata.slice(0, 3).map(tokenText);
    return { srvc: m[1], prot: m[2], host: m[3] ?? '', pri, weight, port, target: nameToken(rdata[3]!, origin) };
  },
} as const satisfies RecordType<SrvData, 'SRV'>;
