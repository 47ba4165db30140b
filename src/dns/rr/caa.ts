import { fail } from '../../errors.ts';
import { int, quoted } from '../text.ts';
import { intField, ownerField, type RecordType, type Stored, tokens } from './kit.ts';

export type CaaData = Stored & { name: string; flag: number; tag: string; caaval: string };
type CaaWire = { flags?: number; tag: string; value: string | Buffer };

const TAGS = ['issue', 'issuewild', 'iodef'];
const PRINTABLE = /^[\x20-\x7e]{1,255}$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
/** RFC 8659 4.2 parameter: `tag=value`, value without spaces or `;`. No nested quantifiers: no backtracking. */
const PARAMETER = /^[a-z0-9][a-z0-9-]* *= *[\x21-\x3a\x3c-\x7e]*$/i;
const MAILTO = /^mailto:[^\s@]+@[^\s@]+$/;

/**
 * issue / issuewild value (RFC 8659 4.2): `[issuer-domain] [; key=value [; key=value…]]`, `;` alone forbids
 * issuance.
 */
function issueValueValid(value: string): boolean {
  const parts = value.split(';');
  const issuer = parts[0]!.trim();
  if (issuer !== '' && !issuer.split('.').every((l) => LABEL.test(l))) return false;
  const params = parts.slice(1).map((p) => p.trim());
  // `ca.example;` and `;` are legal: an empty parameter list.
  if (params.length === 1 && params[0] === '') return true;
  return params.every((p) => PARAMETER.test(p));
}

/** iodef value (RFC 8659 4.4): a mailto: address or an http(s) URL. */
function iodefValid(value: string): boolean {
  if (MAILTO.test(value)) return true;
  if (!/^https?:\/\/[^\s]+$/.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/**
 * CAA: `subdomain` the owner (usually blank), `flag` 0..255, `tag`, `value`.
 * The spec has no code for a bad value: it is answered `unspecifiedError`
 * (the record was not added), the code the spec keeps for that.
 */
export const CAA = {
  type: 'CAA',
  add: {
    script: 'dnsAddCAA.php',
    summary: 'add a CAA record (also served as dnsAddNS.php)',
    fields: [
      {
        name: 'subdomain',
        kind: 'owner',
        required: true,
        code: 'syntaxInvalidSubdomain',
        doc: 'owner, usually blank',
        label: 'Subdomain',
        hint: 'usually blank',
        blank: true,
      },
      {
        name: 'flag',
        kind: 'integer',
        required: true,
        min: 0,
        max: 255,
        code: 'syntaxInvalidFlag',
        doc: '0 to 255',
        label: 'Flag (0-255)',
      },
      {
        name: 'tag',
        kind: 'enum',
        required: true,
        values: TAGS,
        code: 'syntaxInvalidTag',
        doc: 'the property',
        label: 'Tag (issue, issuewild, iodef)',
      },
      // No code of its own in the spec: an invalid value is unspecifiedError.
      { name: 'value', kind: 'text', required: true, doc: 'the property value', label: 'Value' },
    ],
    example: { subdomain: '', flag: '0', tag: 'issue', value: 'letsencrypt.org' },
  },
  wire: {
    type: 'CAA',
    encode: (d) => ({ flags: d.flag, tag: d.tag, value: d.caaval }),
    decode: (w, name) => {
      const d = w as CaaWire;
      return { name, flag: d.flags ?? 0, tag: d.tag, caaval: d.value.toString() };
    },
    // dns-packet's CAA encoder writes flags from issuerCritical when set; keep our flags as given.
    canonical: (w) => {
      const d = w as CaaWire;
      return { flags: d.flags ?? 0, tag: d.tag, value: d.value };
    },
    present: (w) => {
      const d = w as CaaWire;
      return `${d.flags ?? 0} ${d.tag} ${quoted(Buffer.from(d.value))}`;
    },
  },
  // Values have no length rule of their own: the record-set check keeps each under 64 KB on the wire.
  bound: 140_000,
  display: '{name|@} {flag} {tag} "{caaval}"',
  parse(f, zone) {
    const name = ownerField(f.subdomain, zone, 'syntaxInvalidSubdomain');
    const flag = intField(f.flag, 0, 255, 'syntaxInvalidFlag');
    const tag = f.tag !== undefined && TAGS.includes(f.tag) ? f.tag : fail('syntaxInvalidTag');
    const value = f.value ?? '';
    const ok = PRINTABLE.test(value) && (tag === 'iodef' ? iodefValid(value) : issueValueValid(value));
    if (!ok) fail('unspecifiedError');
    return { name, flag, tag, caaval: value };
  },
  reply: (d) => ({ name: d.name, flag: d.flag, tag: d.tag, caaval: d.caaval }),
  owner: (d) => d.name,
  // A transferred tag is not trusted into zone text; ours are always one of TAGS.
  rdata: (d) =>
    typeof d.tag === 'string' && /^[a-z0-9]{1,15}$/i.test(d.tag)
      ? `${int(d.flag)} ${d.tag} ${quoted(Buffer.from(String(d.caaval)))}`
      : null,
  fromText: (owner, rdata) => {
    const [flag, tag, value] = tokens(rdata, 3, 'syntaxInvalidFlag');
    return { subdomain: owner, flag, tag, value };
  },
} as const satisfies RecordType<CaaData, 'CAA'>;
