import { isIPv4 } from 'node:net';
import { fail } from '../../errors.ts';
import { addressText, ownerField, type RecordType, type Stored, tokens } from './kit.ts';

export type AddressData = Stored & { name: string; data: string };

/** The owner field of A and AAAA: blank the apex, a host, `*` or `*.sub`. */
export const ADDRESS_OWNER = {
  name: 'name',
  kind: 'owner',
  required: true,
  code: 'syntaxInvalidHostname',
  doc: 'owner: blank (the apex), a host name or `*`',
  label: 'Name',
  hint: 'blank for the domain itself, * for a wildcard',
} as const;

/** A: `name` (blank = apex, host, `*`, `*.sub`), `ip` an IPv4 dotted quad (no leading zeros: node's isIPv4). */
export const A = {
  type: 'A',
  role: 'address',
  add: {
    script: 'dnsAddA.php',
    summary: 'add an A record',
    fields: [
      ADDRESS_OWNER,
      {
        name: 'ip',
        kind: 'ipv4',
        required: true,
        code: 'syntaxInvalidIP',
        doc: 'an IPv4 address',
        label: 'IPv4 address',
      },
    ],
    example: { name: 'www', ip: '192.0.2.10' },
  },
  wire: {
    type: 'A',
    encode: (d) => d.data,
    decode: (w, name) => (typeof w === 'string' && isIPv4(w) ? { name, data: w } : null),
    // Only address characters reach the text; anything else is written as the bytes that were signed.
    present: addressText,
  },
  bound: 320,
  display: '{name|@} → {data}',
  parse: (f, zone) => ({
    name: ownerFieldOf(f.name, zone),
    data: f.ip !== undefined && isIPv4(f.ip) ? f.ip : fail('syntaxInvalidIP'),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  owner: (d) => d.name,
  rdata: (d) => addressText(d.data),
  fromText: (owner, rdata) => ({ name: owner, ip: tokens(rdata, 1, 'syntaxInvalidIP')[0] }),
} as const satisfies RecordType<AddressData, 'A'>;

/** The A/AAAA owner, as the form field declares it. */
export const ownerFieldOf = (value: string | undefined, zone: string): string =>
  ownerField(value, zone, 'syntaxInvalidHostname', { wildcard: true });
