import { presentName } from '../text.ts';
import {
  bare,
  dotted,
  lowerName,
  nameToken,
  one,
  ownerField,
  type RecordType,
  type Stored,
  targetField,
} from './kit.ts';

export type NameData = Stored & { name: string; data: string };

/** Wire form of the types whose RDATA is one name (CNAME, NS): dns-packet writes it as a string. */
export const nameWire = <T extends string>(type: T) => ({
  type,
  encode: (d: NameData) => bare(d.data),
  decode: (w: unknown, name: string): NameData | null => (typeof w === 'string' ? { name, data: dotted(w) } : null),
  canonical: (w: unknown) => lowerName(String(w)),
  present: (w: unknown) => presentName(dotted(String(w))),
});

/**
 * CNAME: `alias` the owner (wildcards and service labels allowed, e.g. a
 * `_domainkey` delegation), `name` the name it stands for.
 */
export const CNAME = {
  type: 'CNAME',
  role: 'alias',
  add: {
    script: 'dnsAddCNAME.php',
    summary: 'add a CNAME record',
    fields: [
      {
        name: 'alias',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidCNAME',
        doc: 'the CNAME (owner) to add',
        label: 'Alias',
      },
      {
        name: 'name',
        kind: 'hostname',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'the host name it points to',
        label: 'Points to host',
      },
    ],
    example: { alias: 'blog', name: 'www.example.org.' },
  },
  wire: nameWire('CNAME'),
  bound: 580,
  display: '{name|@} → {data}',
  parse: (f, zone) => ({
    name: ownerField(f.alias, zone, 'syntaxInvalidCNAME', { wildcard: true, underscore: true }),
    data: targetField(f.name, zone, 'syntaxInvalidHostname', false),
  }),
  reply: (d) => ({ name: d.name, data: d.data }),
  owner: (d) => d.name,
  targets: (d) => [d.data],
  rdata: (d) => presentName(d.data),
  fromText: (owner, rdata, origin) => ({ alias: owner, name: nameToken(one(rdata, 'syntaxInvalidHostname'), origin) }),
} as const satisfies RecordType<NameData, 'CNAME'>;
