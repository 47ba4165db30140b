import { fail } from '../../errors.ts';
import { int, parseNumber, quoted } from '../text.ts';
import { line, need, ownerField, tokens, type RecordType } from './shape.ts';

const TAGS = ['issue', 'issuewild', 'iodef'];
const PRINTABLE = /^[\x20-\x7e]{1,255}$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
/** RFC 8659 4.2 parameter: `tag=value`, value without spaces or `;`. No nested quantifiers: no backtracking. */
const PARAMETER = /^[a-z0-9][a-z0-9-]* *= *[\x21-\x3a\x3c-\x7e]*$/i;
const MAILTO = /^mailto:[^\s@]+@[^\s@]+$/;

/** issue / issuewild value (RFC 8659 4.2): `[issuer-domain] [; key=value [; key=value…]]`, `;` alone forbids issuance. */
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
export const CAA: RecordType = {
  type: 'CAA',
  parse(f, zone) {
    const name = ownerField(f.subdomain, zone, 'syntaxInvalidSubdomain');
    const flag = need(parseNumber(f.flag, 0, 255), 'syntaxInvalidFlag');
    const tag = f.tag !== undefined && TAGS.includes(f.tag) ? f.tag : fail('syntaxInvalidTag');
    const value = f.value ?? '';
    const ok = PRINTABLE.test(value) && (tag === 'iodef' ? iodefValid(value) : issueValueValid(value));
    if (!ok) fail('unspecifiedError');
    return { name, flag, tag, caaval: value };
  },
  reply: (d) => ({ name: d.name, flag: d.flag, tag: d.tag, caaval: d.caaval }),
  zoneLines: (d, zone, ttl) => {
    // A transferred tag is not trusted into zone text; ours are always one of TAGS.
    if (typeof d.tag !== 'string' || !/^[a-z0-9]{1,15}$/i.test(d.tag)) return [];
    return [line(d.name, zone, ttl, 'CAA', `${int(d.flag)} ${d.tag} ${quoted(Buffer.from(String(d.caaval)))}`)];
  },
  owner: (d) => d.name,
  fromText: (owner, rdata) => {
    const [flag, tag, value] = tokens(rdata, 3, 'syntaxInvalidFlag');
    return { subdomain: owner, flag, tag, value };
  },
};
