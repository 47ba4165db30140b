import { fail } from '../../errors.ts';
import { int, presentName } from '../text.ts';
import {
  bare,
  dotted,
  intField,
  lowerName,
  nameToken,
  ownerField,
  type RecordType,
  type Stored,
  targetField,
  tokenText,
} from './kit.ts';

export type MxData = Stored & { host: string; data: string; pri: number };

/** MX: `name` the owner (usually blank), `mxname` the mail server, `priority` 0..99 (the spec's range). */
export const MX = {
  type: 'MX',
  add: {
    script: 'dnsAddMX.php',
    summary: 'add an MX record',
    fields: [
      {
        name: 'name',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidMX',
        doc: 'owner, usually blank',
        label: 'Name',
        hint: 'usually blank',
        blank: true,
      },
      {
        name: 'mxname',
        kind: 'hostname',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'the mail server; another domain fully qualified with a final dot',
        label: 'Mail server',
        hint: 'end with . if outside this domain',
      },
      {
        name: 'priority',
        kind: 'integer',
        required: true,
        min: 0,
        max: 99,
        code: 'syntaxInvalidPriority',
        doc: '0 to 99',
        label: 'Priority (0-99)',
      },
    ],
    example: { name: '', mxname: 'mail.example.org.', priority: '10' },
  },
  wire: {
    type: 'MX',
    encode: (d) => ({ preference: int(d.pri), exchange: bare(d.data) }),
    decode: (w, host) => {
      const { preference, exchange } = w as { preference: number; exchange: string };
      return { host, pri: preference, data: dotted(exchange) };
    },
    canonical: (w) => {
      const d = w as { preference: number; exchange: string };
      return { ...d, exchange: lowerName(d.exchange) };
    },
    present: (w) => {
      const d = w as { preference?: number; exchange: string };
      return `${d.preference ?? 0} ${presentName(dotted(d.exchange))}`;
    },
  },
  bound: 620,
  display: '{host|@} → {data} (priority {pri})',
  parse: (f, zone) => ({
    host: ownerField(f.name, zone, 'syntaxInvalidMX', { wildcard: true }),
    data: targetField(f.mxname, zone, 'syntaxInvalidHostname', true),
    pri: intField(f.priority, 0, 99, 'syntaxInvalidPriority'),
  }),
  reply: (d) => ({ pri: d.pri, host: d.host, data: d.data }),
  owner: (d) => d.host,
  targets: (d) => [d.data],
  rdata: (d) => `${int(d.pri)} ${presentName(d.data)}`,
  fromText: (owner, rdata, origin) => {
    if (rdata.length !== 2) fail('syntaxInvalidHostname');
    return { name: owner, priority: tokenText(rdata[0]!), mxname: nameToken(rdata[1]!, origin) };
  },
} as const satisfies RecordType<MxData, 'MX'>;
