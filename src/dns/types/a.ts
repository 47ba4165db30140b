import { isIPv4 } from 'node:net';
import { fail } from '../../errors.ts';
import { addressText, line, ownerField, tokens, type RecordType } from './shape.ts';

/** A: `name` (blank = apex, host, `*`, `*.sub`), `ip` an IPv4 dotted quad (no leading zeros: node's isIPv4). */
export const A: RecordType = {
  type: 'A',
  parse: (f, zone) => ({
    name: ownerField(f.name, zone, 'syntaxInvalidHostname', { wildcard: true }),
    data: f.ip !== undefined && isIPv4(f.ip) ? f.ip : fail('syntaxInvalidIP'),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  zoneLines: (d, zone, ttl) => {
    const ip = addressText(d.data);
    return ip === null ? [] : [line(d.name, zone, ttl, 'A', ip)];
  },
  owner: (d) => d.name,
  fromText: (owner, rdata) => ({ name: owner, ip: tokens(rdata, 1, 'syntaxInvalidIP')[0] }),
};
