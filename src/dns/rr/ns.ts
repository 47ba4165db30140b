import { type ErrorCode, fail } from '../../errors.ts';
import { presentName } from '../text.ts';
import { type NameData, nameWire } from './cname.ts';
import { nameToken, one, ownerField, type RecordType, targetField } from './kit.ts';

/**
 * A fully qualified host name field (NS `nameserver`, spec 4.1; PTR `host`):
 * without a final dot, `ns1.example.net` still means ns1.example.net.,
 * never ns1.example.net.<zone>. (issue 12, item 8; MX keeps the spec's
 * explicit trailing-dot rule). A name already ending in the zone is the same
 * either way. A single label without the dot (`ns1`) is a relative name
 * typed by mistake, not a host anyone points at: refused rather than stored
 * as the top-level name `ns1.`.
 */
export function absoluteHostField(
  value: string | undefined,
  zone: string,
  code: ErrorCode = 'syntaxInvalidHostname',
): string {
  if (value === undefined || value === '' || value.endsWith('.')) return targetField(value, zone, code, true);
  if (!value.includes('.')) fail(code);
  return targetField(`${value}.`, zone, code, true);
}

/**
 * NS: `subdomain` the owner (blank: the apex, beside the defaults; else a
 * delegation, `_acme-challenge` included), `nameserver` a fully qualified
 * host name, stored absolute with its trailing dot like the default NS
 * records (`ns1.<ns-domain>.`).
 */
export const NS = {
  type: 'NS',
  role: 'delegation',
  add: {
    script: 'dnsAddNS.php',
    summary: 'add an NS record (a delegation)',
    fields: [
      {
        name: 'subdomain',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidSubdomain',
        doc: 'owner, normally a subdomain',
        label: 'Subdomain',
        blank: true,
      },
      {
        name: 'nameserver',
        kind: 'hostname',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'the name server, fully qualified',
        label: 'Name server (fully qualified)',
      },
    ],
    example: { subdomain: 'lab', nameserver: 'ns1.lab.example.org' },
  },
  wire: nameWire('NS'),
  bound: 580,
  display: '{name|@} → {data}',
  parse: (f, zone) => ({
    name: ownerField(f.subdomain, zone, 'syntaxInvalidSubdomain', { underscore: true }),
    data: absoluteHostField(f.nameserver, zone),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  owner: (d) => d.name,
  targets: (d) => [d.data],
  rdata: (d) => presentName(d.data),
  fromText: (owner, rdata, origin) => ({
    subdomain: owner,
    nameserver: nameToken(one(rdata, 'syntaxInvalidHostname'), origin),
  }),
} as const satisfies RecordType<NameData, 'NS'>;
