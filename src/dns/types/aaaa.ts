import { isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { fail } from '../../errors.ts';
import { addressText, line, ownerField, type RecordType } from './shape.ts';

/** AAAA: `name` as for A, `ip` an IPv6 address, stored in its compressed lower-case form. */
export const AAAA: RecordType = {
  type: 'AAAA',
  parse: (f, zone) => ({
    name: ownerField(f.name, zone, 'syntaxInvalidHostname', { wildcard: true }),
    // isIPv6 takes a zone index (`fe80::1%eth0`): an interface means nothing in DNS.
    data: f.ip !== undefined && isIPv6(f.ip) && !f.ip.includes('%') ? ipaddr.IPv6.parse(f.ip).toString() : fail('syntaxInvalidIP'),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  zoneLines: (d, zone, ttl) => {
    const ip = addressText(d.data);
    return ip === null ? [] : [line(d.name, zone, ttl, 'AAAA', ip)];
  },
  owner: (d) => d.name,
};
