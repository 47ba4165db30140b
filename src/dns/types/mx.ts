import { int, parseNumber, presentName } from '../text.ts';
import { fail } from '../../errors.ts';
import { line, nameToken, need, ownerField, targetField, tokenText, type RecordType } from './shape.ts';

/** MX: `name` the owner (usually blank), `mxname` the mail server, `priority` 0..99 (the spec's range). */
export const MX: RecordType = {
  type: 'MX',
  parse: (f, zone) => ({
    host: ownerField(f.name, zone, 'syntaxInvalidMX', { wildcard: true }),
    data: targetField(f.mxname, zone, 'syntaxInvalidHostname', true),
    pri: need(parseNumber(f.priority, 0, 99), 'syntaxInvalidPriority'),
  }),
  reply: (d) => ({ pri: d.pri, host: d.host, data: d.data }),
  zoneLines: (d, zone, ttl) => [line(d.host, zone, ttl, 'MX', `${int(d.pri)} ${presentName(d.data)}`)],
  owner: (d) => d.host,
  fromText: (owner, rdata, origin) => {
    if (rdata.length !== 2) fail('syntaxInvalidHostname');
    return { name: owner, priority: tokenText(rdata[0]!), mxname: nameToken(rdata[1]!, origin) };
  },
};
