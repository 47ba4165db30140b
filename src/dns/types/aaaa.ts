import { fail } from '../../errors.ts';
import { parseIPv6 } from '../../ip.ts';
import { addressText, line, ownerField, tokens, type RecordType } from './shape.ts';

/** AAAA: `name` as for A, `ip` an IPv6 address, stored in its compressed lower-case form. */
export const AAAA: RecordType = {
  type: 'AAAA',
  parse: (f, zone) => ({
    name: ownerField(f.name, zone, 'syntaxInvalidHostname', { wildcard: true }),
    // parseIPv6, not ipaddr.js: `::127.0.0.5` is ::7f00:5, not ::ffff:127.0.0.5 (src/ip.ts).
    data: (f.ip === undefined ? null : parseIPv6(f.ip))?.toString() ?? fail('syntaxInvalidIP'),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  zoneLines: (d, zone, ttl) => {
    const ip = addressText(d.data);
    return ip === null ? [] : [line(d.name, zone, ttl, 'AAAA', ip)];
  },
  owner: (d) => d.name,
  fromText: (owner, rdata) => ({ name: owner, ip: tokens(rdata, 1, 'syntaxInvalidIP')[0] }),
};
