import { fail } from '../../errors.ts';
import { int, presentName, quoted } from '../text.ts';
import {
  bare,
  dotted,
  intField,
  lowerName,
  nameToken,
  ownerField,
  type RecordType,
  type Stored,
  tokenText,
} from './kit.ts';
import { regexpValid } from './naptr-regexp.ts';
import { absoluteName } from './ptr.ts';

export type NaptrData = Stored & {
  name: string;
  order: number;
  preference: number;
  flags: string;
  service: string;
  regexp: string;
  replacement: string;
};

/**
 * FLAGS (RFC 3403 4.1): single characters from A-Z and 0-9, case not
 * significant (kept as sent), possibly none. Their meaning is the
 * application's; those every NAPTR application uses (SIP, RFC 3263 4.1;
 * ENUM, RFC 6116 2.4.1; S-NAPTR, RFC 3958 6.5) are S, A, U and P, which
 * "are all mutually exclusive" (RFC 2915 2, kept by RFC 3404 4.3; RFC
 * 3403 leaves flags to the application): at most one of them.
 */
const FLAGS = /^[A-Za-z0-9]*$/;
const TERMINAL = /[SAUP]/gi;

/**
 * SERVICES (RFC 3403 4.1) is the application's to define; every grammar
 * (RFC 3404 4.4, RFC 3958 6.5, RFC 6116 3.4.3: `E2U+sip`, `aaa+ap1:diameter.tcp`)
 * is visible ASCII, no blank: taken as such, up to a character-string's 255.
 */
const SERVICE = /^[\x21-\x7e]{0,255}$/;

/** dns-packet's NAPTR data (its rnaptr codec): `services`, plural; strings decoded as UTF-8. */
export interface NaptrWire {
  order: number;
  preference: number;
  flags: string;
  services: string;
  regexp: string;
  replacement: string;
}

/** Control characters are written as \u00XX in JSON, six times their size: transferred data with one is not held. */
const CONTROL = /[\x00-\x1f]/;
const held = (w: NaptrWire): boolean =>
  [w.flags, w.services, w.regexp, w.replacement].every((s) => typeof s === 'string' && !CONTROL.test(s));

const rdataOf = (order: unknown, preference: unknown, flags: string, service: string, regexp: string, to: string) =>
  `${int(order)} ${int(preference)} ${[flags, service, regexp].map((s) => quoted(Buffer.from(s))).join(' ')} ${presentName(to)}`;

/**
 * NAPTR (RFC 3403 4): `name` the owner (an ENUM number's name, a SIP
 * domain), `order` and `preference` 0-65535, `flags`, `service`, `regexp`
 * and `replacement` (fully qualified, or `.` for none).
 */
export const NAPTR = {
  type: 'NAPTR',
  add: {
    script: 'dnsAddNAPTR.php',
    summary: 'add a NAPTR record',
    extension: true,
    // SIP over UDP for the domain (RFC 3263 4.1): on to the SRV records.
    example: {
      name: '',
      order: '10',
      preference: '50',
      flags: 'S',
      service: 'SIP+D2U',
      regexp: '',
      replacement: '_sip._udp.example.org.',
    },
    fields: [
      {
        name: 'name',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidHostname',
        doc: 'owner relative to the domain: blank (or `@`) for the domain itself, or e.g. an ENUM number `4.3.2.1`',
        label: 'Name',
        hint: 'blank for the domain itself',
        blank: true,
      },
      {
        name: 'order',
        kind: 'integer',
        required: true,
        min: 0,
        max: 65535,
        code: 'syntaxInvalidOrder',
        doc: '0 to 65535: records are tried in increasing order',
        label: 'Order',
      },
      {
        name: 'preference',
        kind: 'integer',
        required: true,
        min: 0,
        max: 65535,
        code: 'syntaxInvalidPreference',
        doc: '0 to 65535: among records of one order, lower first',
        label: 'Preference',
      },
      {
        name: 'flags',
        kind: 'text',
        required: false,
        code: 'syntaxInvalidFlags',
        doc: 'letters and digits, possibly none; at most one of S, A, U and P (e.g. `U` for ENUM, `S` for SIP)',
        label: 'Flags',
      },
      {
        name: 'service',
        kind: 'text',
        required: false,
        code: 'syntaxInvalidService',
        doc: 'the service parameters, e.g. `E2U+sip` or `SIP+D2U`: visible ASCII, at most 255 characters',
        label: 'Service',
      },
      {
        name: 'regexp',
        kind: 'text',
        required: false,
        code: 'syntaxInvalidRegexp',
        doc: 'empty, or a substitution `!ere!repl!` (RFC 3402 3.2) such as `!^.*$!sip:info@example.com!`; at most 255 bytes',
        label: 'Regexp',
      },
      {
        name: 'replacement',
        kind: 'hostname',
        required: true,
        code: 'syntaxInvalidReplacement',
        doc: 'the next name to look up, fully qualified (final dot optional), or `.` for none (always `.` with a regexp)',
        label: 'Replacement',
        hint: '. when a regexp is given',
      },
    ],
  },
  wire: {
    type: 'NAPTR',
    encode: (d): NaptrWire => ({
      order: int(d.order),
      preference: int(d.preference),
      flags: String(d.flags),
      services: String(d.service),
      regexp: String(d.regexp),
      replacement: bare(d.replacement),
    }),
    decode: (w, name) => {
      const d = w as NaptrWire;
      if (!held(d)) return null;
      const { order, preference, flags, services: service, regexp } = d;
      return { name, order, preference, flags, service, regexp, replacement: dotted(d.replacement) };
    },
    // NAPTR is in RFC 4034 6.2's list (RFC 3597 7, kept by RFC 6840 5.1): the
    // replacement is lowercased for signing, the character-strings are not.
    canonical: (w) => ({ ...(w as NaptrWire), replacement: lowerName((w as NaptrWire).replacement) }),
    present: (w) => {
      const d = w as NaptrWire;
      if (!held(d)) return null;
      return rdataOf(d.order, d.preference, d.flags, d.services, d.regexp, dotted(d.replacement));
    },
  },
  // {"name":"<253>","order":65535,"preference":65535,"flags":"<255>","service":"<255>","regexp":"<255>",
  // "replacement":"<254>"} + `,"ttl":2147483647`. An add stores fewer: flags are letters and digits, the
  // service visible ASCII, the replacement a plain name; a transfer's strings (no control characters) may
  // hold `"` and `\`, two characters each in JSON, as may its name.
  bound:
    '{"name":"'.length +
    253 +
    '","order":65535,"preference":65535,"flags":"'.length +
    2 * 255 +
    '","service":"'.length +
    2 * 255 +
    '","regexp":"'.length +
    2 * 255 +
    '","replacement":"'.length +
    2 * 254 +
    '"}'.length +
    17,
  display: '{name|@} → {order} {preference} "{flags}" "{service}" "{regexp}" {replacement}',
  parse: (f, zone) => {
    const name = ownerField(f.name, zone, 'syntaxInvalidHostname', { underscore: true });
    const order = intField(f.order, 0, 65535, 'syntaxInvalidOrder');
    const preference = intField(f.preference, 0, 65535, 'syntaxInvalidPreference');
    const flags = f.flags ?? '';
    if (flags.length > 255 || !FLAGS.test(flags) || (flags.match(TERMINAL)?.length ?? 0) > 1)
      fail('syntaxInvalidFlags');
    const service = f.service ?? '';
    if (!SERVICE.test(service)) fail('syntaxInvalidService');
    const regexp = f.regexp ?? '';
    if (!regexpValid(regexp)) fail('syntaxInvalidRegexp');
    // Replacement names may be service names (`_sip._udp.example.com`, RFC 3263 4.1).
    const replacement =
      f.replacement === '.' ? '.' : absoluteName(f.replacement, zone, 'syntaxInvalidReplacement', false);
    // "The fields are also mutually exclusive" (RFC 3403 4.1, said of
    // REPLACEMENT): with a regexp the replacement must be `.`. Answered as a
    // bad replacement: the regexp was valid on its own, and it is the
    // replacement whose text says it must give way.
    if (regexp !== '' && replacement !== '.') fail('syntaxInvalidReplacement');
    return { name, order, preference, flags, service, regexp, replacement };
  },
  reply: (d) => ({
    name: d.name,
    order: d.order,
    preference: d.preference,
    flags: d.flags,
    service: d.service,
    regexp: d.regexp,
    replacement: d.replacement,
  }),
  owner: (d) => d.name,
  // No targets: the replacement is the next NAPTR (or SRV, A) lookup of the application, not an address.
  rdata: (d) => rdataOf(d.order, d.preference, String(d.flags), String(d.service), String(d.regexp), d.replacement),
  // The three character-strings may be quoted or bare (RFC 1035 5.1); their bytes are read as UTF-8.
  fromText: (owner, rdata, origin) => {
    if (rdata.length !== 6) fail('syntaxInvalidOrder');
    const [order, preference, flags, service, regexp] = rdata.slice(0, 5).map(tokenText);
    return { name: owner, order, preference, flags, service, regexp, replacement: nameToken(rdata[5]!, origin) };
  },
} as const satisfies RecordType<NaptrData, 'NAPTR'>;
