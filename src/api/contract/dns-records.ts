import { RECORD_ADD_FORMS } from './record-adds.gen.ts';
import { DOMAIN } from './dns-domains.ts';

/**
 * Record adds (spec 10-17) and the extension scripts on records. Each add
 * script's contract is made from its record type's add form (src/dns/rr/):
 * the type declares its fields once; record-adds.gen.ts is that declaration
 * as pure data, so the typed client carries it without the server's code. Every field but `domain` is checked by
 * the domain after the domain is found: a name is relative to the zone, and
 * `noSuchDomain` comes first.
 */

/** Extension (issue 16): every add takes a record TTL; the zone text writes it. */
const TTL = {
  required: false,
  kind: 'integer',
  min: 0,
  max: 2147483647,
  code: 'syntaxInvalidTTL',
  checkedBy: 'domain',
  doc: "extension: the record's TTL in seconds (0 to 2147483647); absent: the zone's default",
} as const;

const ADD = {
  requires: ['session', 'dnsSubscription'],
  storeDownError: 'dbConnectionFailure',
  systemError: 'unspecifiedError',
  reply: {},
  // cnameConflict: a CNAME beside other data at its name, either order (RFC 2181 10.1; docs/api.md).
  errors: ['noSuchDomain', 'cnameConflict'],
} as const;

/** A field of an add form as a contract parameter: checked by the domain. */
type ParamOf<F> = F & { readonly checkedBy: 'domain' };
type AddFormOf = (typeof RECORD_ADD_FORMS)[number];
type ParamsOfForm<A extends AddFormOf> = { readonly domain: typeof DOMAIN } & {
  readonly [F in A['fields'][number] as F['name']]: ParamOf<F>;
} & { readonly ttl: typeof TTL };
type ContractOfForm<A extends AddFormOf> = typeof ADD & {
  readonly summary: A['summary'];
  readonly extension?: true;
  readonly params: ParamsOfForm<A>;
};
type AddContracts = { readonly [A in AddFormOf as A['script']]: ContractOfForm<A> };

function contractOf(form: AddFormOf) {
  const own = Object.fromEntries(form.fields.map((f) => [f.name, { ...f, checkedBy: 'domain' }]));
  // The spec lists no `domain` for SRV but lists its code: Vigil takes one when sent.
  const domain = 'domainOptional' in form && form.domainOptional ? { ...DOMAIN, required: false } : DOMAIN;
  return {
    ...ADD,
    summary: form.summary,
    ...('extension' in form && form.extension ? { extension: true } : {}),
    params: { domain, ...own, ttl: TTL },
  };
}

const addContracts = Object.fromEntries(
  RECORD_ADD_FORMS.map((f) => [f.script, contractOf(f)]),
) as unknown as AddContracts;

export const dnsRecordContracts = {
  ...addContracts,
  'dnsImportZone.php': {
    ...ADD,
    summary: 'extension: import master-file text into a domain; all records or none',
    extension: true,
    params: {
      domain: DOMAIN,
      zone: {
        required: true,
        kind: 'zoneText',
        checkedBy: 'domain',
        doc: 'master-file text; every record checked as its add script would',
      },
    },
    reply: {
      imported: { type: 'number' },
      warnings: { type: 'array', items: { type: 'string' } },
      errors: { type: 'array', items: { type: 'string' } },
    },
    errors: ['noSuchDomain'],
  },
} as const;
