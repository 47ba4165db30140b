import { isIPv6 } from 'node:net';
import { fail } from '../../errors.ts';
import { parseIPv6 } from '../../ip.ts';
import { ADDRESS_OWNER, type AddressData, ownerFieldOf } from './a.ts';
import { addressText, type RecordType, tokens } from './kit.ts';

/** AAAA: `name` as for A, `ip` an IPv6 address, stored in its compressed lower-case form. */
export const AAAA = {
  type: 'AAAA',
  role: 'address',
  add: {
    script: 'dnsAddAAAA.php',
    summary: 'add an AAAA record',
    fields: [
      ADDRESS_OWNER,
      {
        name: 'ip',
        kind: 'ipv6',
        required: true,
        code: 'syntaxInvalidIP',
        doc: 'an IPv6 address',
        label: 'IPv6 address',
      },
    ],
    example: { name: 'www', ip: '2001:db8::10' },
  },
  wire: {
    type: 'AAAA',
    encode: (d) => d.data,
    decode: (w, name) => (typeof w === 'string' && isIPv6(w) ? { name, data: w } : null),
    present: addressText,
  },
  bound: 360,
  display: '{name|@} → {data}',
  parse: (f, zone) => ({
    name: ownerFieldOf(f.name, zone),
    // parseIPv6, not ipaddr.js: `::127.0.0.5` is ::7f00:5, not ::ffff:127.0.0.5 (src/ip.ts).
    data: (f.ip === undefined ? null : parseIPv6(f.ip))?.toString() ?? fail('syntaxInvalidIP'),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  owner: (d) => d.name,
  rdata: (d) => addressText(d.data),
  fromText: (owner, rdata) => ({ name: owner, ip: tokens(rdata, 1, 'syntaxInvalidIP')[0] }),
} as const satisfies RecordType<AddressData, 'AAAA'>;
