import { fail } from '../../errors.ts';
import { presentName } from '../text.ts';
import { line, nameToken, one, ownerField, targetField, type RecordType } from './shape.ts';

/**
 * `nameserver` is "the fully qualified host name" (spec 4.1): without a
 * final dot, `ns1.example.net` still means ns1.example.net., never
 * ns1.example.net.<zone>. (issue 12, item 8; MX keeps the spec's explicit
 * trailing-dot rule). A name already ending in the zone is the same either
 * way. A single label without the dot (`ns1`) is a relative name typed by
 * mistake, not a host anyone delegates to: refused rather than stored as
 * the top-level name `ns1.`.
 */
function nameserverField(value: string | undefined, zone: string): string {
  if (value === undefined || value === '' || value.endsWith('.'))
    return targetField(value, zone, 'syntaxInvalidHostname', true);
  if (!value.includes('.')) fail('syntaxInvalidHostname');
  return targetField(`${value}.`, zone, 'syntaxInvalidHostname', true);
}

/**
 * NS: `subdomain` the owner (blank: the apex, beside the defaults; else a
 * delegation, `_acme-challenge` included), `nameserver` a fully qualified
 * host name, stored absolute with its trailing dot like the default NS
 * records (`ns1.<ns-domain>.`).
 */
export const NS: RecordType = {
  type: 'NS',
  parse: (f, zone) => ({
    name: ownerField(f.subdomain, zone, 'syntaxInvalidSubdomain', { underscore: true }),
    data: nameserverField(f.nameserver, zone),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  zoneLines: (d, zone, ttl) => [line(d.name, zone, ttl, 'NS', presentName(d.data))],
  owner: (d) => d.name,
  fromText: (owner, rdata, origin) => ({
    subdomain: owner,
    nameserver: nameToken(one(rdata, 'syntaxInvalidHostname'), origin),
  }),
};
