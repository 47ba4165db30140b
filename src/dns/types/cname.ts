import { presentName } from '../text.ts';
import { line, nameToken, one, ownerField, targetField, type RecordType } from './shape.ts';

/**
 * CNAME: `alias` the owner (wildcards and service labels allowed, e.g. a
 * `_domainkey` delegation), `name` the name it stands for.
 */
export const CNAME: RecordType = {
  type: 'CNAME',
  parse: (f, zone) => ({
    name: ownerField(f.alias, zone, 'syntaxInvalidCNAME', { wildcard: true, underscore: true }),
    data: targetField(f.name, zone, 'syntaxInvalidHostname', false),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  zoneLines: (d, zone, ttl) => [line(d.name, zone, ttl, 'CNAME', presentName(d.data))],
  owner: (d) => d.name,
  fromText: (owner, rdata, origin) => ({ alias: owner, name: nameToken(one(rdata, 'syntaxInvalidHostname'), origin) }),
};
