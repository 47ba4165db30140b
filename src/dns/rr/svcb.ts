import { fail } from '../../errors.ts';
import { int, presentName } from '../text.ts';
import {
  type Fields,
  intField,
  nameToken,
  ownerField,
  type RdataToken,
  type RecordType,
  type Stored,
  tokenText,
} from './kit.ts';
import { absoluteHostField } from './ns.ts';
import { MAX_PARAMS_CHARS, normalizeParams, paramsFromWire, paramsToWire } from './svc-params.ts';

/** `params`: canonical presentation SvcParams (svc-params.ts), '' for none. `target`: absolute, or `.`. */
export type SvcbData = Stored & { name: string; priority: number; target: string; params: string };

/**
 * TargetName as typed: `.` (RFC 9460 2.5: in ServiceMode the owner itself,
 * in AliasMode "no service"), `@` the apex, or a host name read as NS reads
 * one (absoluteHostField): fully qualified with or without its final dot, a
 * single label refused, no underscore, as it should resolve to an address
 * (RFC 9460 3).
 */
function targetOf(value: string | undefined, zone: string): string {
  if (value === '.') return '.';
  if (value === '@') return `${zone}.`;
  return absoluteHostField(value, zone, 'syntaxInvalidTarget');
}

/** `params` as typed: blank is none; AliasMode takes none (RFC 9460 2.4.2: recipients ignore them). */
function paramsOf(value: string | undefined, priority: number): string {
  const params = value === undefined ? '' : normalizeParams(value);
  if (params === null || (priority === 0 && params !== '')) fail('syntaxInvalidParams');
  return params;
}

/** A label Vigil holds from a transfer: host characters, any case (kept: see canonical below). */
const WIRE_LABEL = /^[A-Za-z0-9_-]{1,63}$/;

/** The RDATA (RFC 9460 2.2) read: SvcPriority, the uncompressed TargetName, SvcParams; null when malformed. */
function readRdata(w: Uint8Array): { priority: number; target: string; params: string } | null {
  if (w.length < 3) return null;
  const labels: string[] = [];
  let i = 2;
  // A compression pointer (top bits set) is malformed here: the name is uncompressed (2.2).
  while (i < w.length && w[i] !== 0 && w[i]! < 64) {
    labels.push(Buffer.from(w.subarray(i + 1, i + 1 + w[i]!)).toString('latin1'));
    i += w[i]! + 1;
  }
  if (i >= w.length || w[i] !== 0 || !labels.every((l) => WIRE_LABEL.test(l))) return null;
  const target = labels.length ? `${labels.join('.')}.` : '.';
  const params = paramsFromWire(w.subarray(i + 1));
  const priority = (w[0]! << 8) | w[1]!;
  if (target.length > 254 || params === null || (priority === 0 && params !== '')) return null;
  return { priority, target, params };
}

/** The RDATA of stored data; params that cannot be read (no add or transfer stores such) are left out. */
function writeRdata(d: SvcbData): Buffer {
  const labels = d.target === '.' ? [] : d.target.replace(/\.$/, '').split('.');
  const name = labels
    .filter((l) => l.length > 0 && l.length < 64)
    .flatMap((l) => [Uint8Array.of(l.length), Buffer.from(l, 'latin1')]);
  const priority = int(d.priority) & 0xffff;
  const params = paramsToWire(String(d.params ?? '')) ?? Buffer.alloc(0);
  return Buffer.concat([Uint8Array.of(priority >> 8, priority & 255), ...name, Uint8Array.of(0), params]);
}

/** The RDATA in presentation form (2.1); null when stored params cannot be read. */
function rdataOf(d: SvcbData): string | null {
  const params = normalizeParams(String(d.params ?? ''));
  if (params === null) return null;
  return `${int(d.priority)} ${presentName(d.target)}${params ? ` ${params}` : ''}`;
}

/**
 * A master-file record as the add's fields. The master-file reader ends a
 * bare token at `"`, so `alpn="h2,h3"` comes as `alpn=` and the quoted
 * `h2,h3`: joined back here (a space between `=` and the quote is read the
 * same way). A quoted token anywhere else is no SvcParam. Missing priority or
 * target are left out, so parse answers their own codes.
 */
function fieldsOf(owner: string, rdata: readonly RdataToken[], origin: string): Fields {
  const params: string[] = [];
  for (const t of rdata.slice(2)) {
    const last = params.length - 1;
    if (!t.quoted) params.push(t.raw);
    else if (last >= 0 && params[last]!.endsWith('=')) params[last] += `"${t.raw}"`;
    else fail('syntaxInvalidParams');
  }
  return {
    name: owner,
    priority: rdata[0] && tokenText(rdata[0]),
    target: rdata[1] && nameToken(rdata[1], origin),
    params: params.join(' '),
  };
}

/**
 * SVCB (type 64) and HTTPS (type 65) share everything but their names
 * (RFC 9460 9: HTTPS is SVCB-compatible, same RDATA and presentation).
 */
function svcbType<N extends 'SVCB' | 'HTTPS'>(type: N, code: 64 | 65) {
  return {
    type,
    add: {
      script: `dnsAdd${type}.php`,
      summary: `add an ${type} record (RFC 9460 service binding)`,
      extension: true,
      // HTTPS at the apex served by the apex itself; SVCB for a DNS server's encrypted transports (RFC 9461).
      example:
        type === 'HTTPS'
          ? { name: '', priority: '1', target: '.', params: 'alpn=h2,h3' }
          : { name: '_dns', priority: '1', target: 'dns.example.net.', params: 'alpn=dot port=853' },
      fields: [
        {
          name: 'name',
          kind: 'owner',
          required: true,
          code: 'syntaxInvalidHostname',
          doc: 'owner: blank (the apex), a host name, `*`, or a service name such as `_8443._https.api`',
          label: 'Name',
          hint: 'blank for the domain itself',
          blank: true,
        },
        {
          name: 'priority',
          kind: 'integer',
          required: true,
          min: 0,
          max: 65535,
          code: 'syntaxInvalidPriority',
          doc: 'SvcPriority: 0 is AliasMode (no params), 1 to 65535 ServiceMode, lower preferred',
          label: 'Priority (0 = alias)',
        },
        {
          name: 'target',
          kind: 'hostname',
          required: true,
          code: 'syntaxInvalidTarget',
          doc: 'TargetName: a fully qualified host name (final dot optional), or `.` for the owner itself',
          label: 'Target',
          hint: '. for this name itself',
        },
        {
          name: 'params',
          kind: 'text',
          required: false,
          code: 'syntaxInvalidParams',
          doc: `SvcParams in zone-file form, e.g. \`alpn=h2,h3 port=8443\` (RFC 9460); at most ${MAX_PARAMS_CHARS} characters; none in AliasMode`,
          label: 'Parameters',
          hint: 'alpn=h2,h3 port=8443',
        },
      ],
    },
    wire: {
      // dns-packet has no SVCB/HTTPS codec: it carries the raw RDATA as a Buffer under this name.
      type: `UNKNOWN_${code}`,
      encode: writeRdata,
      decode: (w, name) => {
        const d = w instanceof Uint8Array ? readRdata(w) : null;
        return d && { name, ...d };
      },
      // As it is: RFC 9460 2.2 has TargetName uncompressed and says nothing of
      // case; SVCB is not in RFC 4034 6.2's list, and for every type after
      // RFC 3597 "no downcasing of embedded domain names takes place" (RFC 3597 7).
      canonical: (w) => w,
      // Malformed RDATA (null) is written in RFC 3597's generic form by the caller.
      present: (w) => {
        const d = w instanceof Uint8Array ? readRdata(w) : null;
        return d && `${d.priority} ${d.target}${d.params ? ` ${d.params}` : ''}`;
      },
    },
    // {"name":"<253>","priority":65535,"target":"<254>","params":"<2000 characters, each at most 2 bytes in
    // JSON: only `"` and `\` are escaped, the rest is printable ASCII>"} and 17 bytes of `,"ttl":2147483647`.
    bound: 10 + 253 + 12 + 5 + 12 + 254 + 12 + 2 * MAX_PARAMS_CHARS + 1 + 17,
    display: '{name|@} {priority} {target}{ params}',
    parse: (f, zone) => {
      const name = ownerField(f.name, zone, 'syntaxInvalidHostname', { underscore: true, wildcard: true });
      const priority = intField(f.priority, 0, 65535, 'syntaxInvalidPriority');
      const target = targetOf(f.target, zone);
      return { name, priority, target, params: paramsOf(f.params, priority) };
    },
    reply: (d) => ({ name: d.name, priority: d.priority, target: d.target, params: d.params }),
    owner: (d) => d.name,
    // Both modes' TargetName should resolve to addresses: clients connect to
    // a ServiceMode target's A/AAAA (RFC 9460 3), and to an AliasMode
    // target's too when it has no SVCB of its own (3: the final $QNAME is
    // appended as an endpoint). A target holding only ServiceMode records is
    // legal (2.4.2) and would be warned about; that chain is rare. `.` names
    // the owner itself (2.5.2) or no service (2.5.1): nothing to follow.
    targets: (d) => (d.target === '.' ? [] : [d.target]),
    rdata: rdataOf,
    fromText: fieldsOf,
  } as const satisfies RecordType<SvcbData, N>;
}

export const SVCB = svcbType('SVCB', 64);
export const HTTPS = svcbType('HTTPS', 65);
