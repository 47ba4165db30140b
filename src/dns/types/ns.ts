import { presentName } from '../text.ts';
import { line, ownerField, targetField, type RecordType } from './shape.ts';

/**
 * NS: `subdomain` the owner (blank: the apex, beside the defaults; else a
 * delegation, `_acme-challenge` included), `nameserver` a host name.
 */
export const NS: RecordType = {
  type: 'NS',
  parse: (f, zone) => ({
    name: ownerField(f.subdomain, zone, 'syntaxInvalidSubdomain', { underscore: true }),
    data: targetField(f.nameserver, zone, 'syntaxInvalidHostname', true),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  zoneLines: (d, zone, ttl) => [line(d.name, zone, ttl, 'NS', presentName(d.data))],
  owner: (d) => d.name,
};
