import { type ErrorCode, fail } from '../../errors.ts';
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

export type PtrData = Stored & { name: string; host: string };

/**
 * A fully qualified name field (PTR `host`, NAPTR `replacement`), by NS's
 * rule (absoluteHostField in ns.ts): without a final dot `mail.example.net`
 * still means mail.example.net., never mail.example.net.<zone>.; a single
 * label without the dot is a relative name typed by mistake, refused.
 * `hostname` refuses underscores (RFC 952 host names, BIND's check-names);
 * without it service names such as `_sip._udp.example.net` pass.
 */
export function absoluteName(value: string | undefined, zone: string, code: ErrorCode, hostname: boolean): string {
  if (value === undefined || value === '' || value.endsWith('.')) return targetField(value, zone, code, hostname);
  if (!value.includes('.')) fail(code);
  return targetField(`${value}.`, zone, code, hostname);
}

/**
 * In a reverse zone a PTR names the host of an address, so it must be a host
 * name: BIND's check-names (on, `fail`, for primary zones) refuses
 * `1 PTR _x.example.org.` under in-addr.arpa and ip6.arpa, and so would load
 * no zone holding one. Elsewhere PTR targets are any domain name (RFC 1035
 * 3.3.12), service instances included (RFC 6763 4.1: `_http._tcp` PTR
 * `printer._http._tcp`).
 */
const REVERSE = /(?:^|\.)(?:in-addr|ip6)\.arpa$/;

/** Control characters are written as \u00XX in JSON, six times their size: a transferred name with one is not held. */
const CONTROL = /[\x00-\x1f]/;

/** PTR (RFC 1035 3.3.12): `name` the owner, `host` the name it points to, fully qualified. */
export const PTR = {
  type: 'PTR',
  add: {
    script: 'dnsAddPTR.php',
    summary: 'add a PTR record',
    extension: true,
    // DNS-SD in a forward zone (RFC 6763 4.1): the browse name points at one instance.
    example: { name: '_http._tcp', host: 'web._http._tcp.example.org.' },
    fields: [
      {
        name: 'name',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'owner relative to the domain: blank (or `@`) for the domain itself, e.g. `1` in 2.0.192.in-addr.arpa',
        label: 'Name',
        hint: 'blank for the domain itself',
        blank: true,
      },
      {
        name: 'host',
        kind: 'hostname',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'the name it points to, fully qualified (final dot optional); a host name in a reverse zone',
        label: 'Points to (fully qualified)',
        hint: 'host.example.net',
      },
    ],
  },
  wire: {
    // dns-packet carries PTR data as the bare name string (its rptr codec, shared with CNAME).
    type: 'PTR',
    encode: (d) => bare(d.host),
    decode: (w, name) => (typeof w === 'string' && !CONTROL.test(w) ? { name, host: dotted(w) } : null),
    // PTR is in RFC 4034 6.2's list (kept by RFC 6840 5.1): its name is lowercased for signing.
    canonical: (w) => lowerName(String(w)),
    present: (w) => presentName(dotted(String(w))),
  },
  // {"name":"<253>","host":"<254>"} + `,"ttl":2147483647`: an added host is at
  // most 254 name characters, none escaped in JSON; a transferred one (no
  // control characters) may have `"` or `\`, two characters each in JSON.
  bound: '{"name":"'.length + 253 + '","host":"'.length + 2 * 254 + '"}'.length + 17,
  display: '{name|@} → {host}',
  parse: (f, zone) => ({
    name: ownerField(f.name, zone, 'syntaxInvalidHostname', { underscore: true }),
    host: absoluteName(f.host, zone, 'syntaxInvalidHostname', REVERSE.test(zone)),
  }),
  reply: (d) => ({ name: d.name, host: d.host }),
  owner: (d) => d.name,
  // No targets: a PTR's host is another zone's business (often not even
  // resolvable from here), not a name this zone should resolve.
  rdata: (d) => presentName(d.host),
  fromText: (owner, rdata, origin) => ({
    name: owner,
    host: nameToken(one(rdata, 'syntaxInvalidHostname'), origin),
  }),
} as const satisfies RecordType<PtrData, 'PTR'>;
