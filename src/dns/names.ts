import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * Name rules. Every name a record stores passes through here and holds
 * nothing but [a-z0-9-_*.]: the guard against zone-file injection.
 */
const LDH = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Service labels (`_dmarc`, `_sip._tcp`): the underscore counts as a letter. */
const LDH_UNDERSCORE = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
/** ASCII a typed name may hold; anything else ASCII is refused, non-ASCII goes to IDNA. */
const NAME_ASCII = /[A-Za-z0-9._*@-]/g;
const ANY_ASCII = /[\x00-\x7f]/;
const PLAIN = /^[A-Za-z0-9._*@-]*$/;
/** Longer input cannot be a name (253 octets, IDN included); refused before any work. */
const MAX_INPUT = 1024;

/** Lower-cases and converts U-labels to A-labels; null if the text cannot be a name. */
function toAscii(input: string): string | null {
  if (input.length > MAX_INPUT) return null;
  if (PLAIN.test(input)) return input.toLowerCase();
  // Spaces, quotes, `;`, `$`, `\`, controls… are refused here, not left to IDNA's mapping.
  if (ANY_ASCII.test(input.replace(NAME_ASCII, ''))) return null;
  // IDNA (UTS 46) refuses U+FFFD, lone surrogates and controls with ''.
  const ascii = domainToASCII(input);
  return ascii === '' ? null : ascii.toLowerCase();
}

function isLabel(label: string, underscore: boolean): boolean {
  if (label.length === 0 || label.length > 63 || !(underscore ? LDH_UNDERSCORE : LDH).test(label)) return false;
  // An A-label must be valid Punycode: `xn--zz` is no name anyone can type.
  return !label.startsWith('xn--') || domainToASCII(label) === label;
}

const labelsValid = (labels: string[], underscore: boolean) => labels.every((l) => isLabel(l, underscore));

/** A zone name as typed: returns it lower case, A-labels, no trailing dot; or null. */
export function normalizeDomain(input: string): string | null {
  const name = toAscii(input.endsWith('.') ? input.slice(0, -1) : input);
  if (name === null || name.length > 253) return null;
  const labels = name.split('.');
  // A top-level label is never all digits: `192.0.2.1` is an address, not a zone.
  return labels.length >= 2 && labelsValid(labels, false) && !/^\d+$/.test(labels[labels.length - 1]!) ? name : null;
}

/** The absolute name of an owner relative to the zone, with trailing dot. */
export function fqdn(relOwner: string, zone: string): string {
  return relOwner === '' ? `${zone}.` : `${relOwner}.${zone}.`;
}

/** `name` without `.zone` when it ends in the zone ('' for the zone itself); else null. */
function inZone(name: string, zone: string): string | null {
  if (name === zone) return '';
  return name.endsWith(`.${zone}`) ? name.slice(0, -zone.length - 1) : null;
}

/**
 * An owner name as typed in a record add, made relative to the zone:
 * '' or '@' is the apex; `www`, `a.b`, `*`, `*.sub` (wildcards when allowed);
 * a name ending in the zone, with or without the final dot, is made
 * relative. Returns '' for the apex, or null.
 */
export function normalizeOwner(
  input: string,
  zone: string,
  opts: { wildcard?: boolean; underscore?: boolean } = {},
): string | null {
  if (input === '' || input === '@') return '';
  const ascii = toAscii(input);
  if (ascii === null) return null;
  const rel = ascii.endsWith('.') ? inZone(ascii.slice(0, -1), zone) : (inZone(ascii, zone) ?? ascii);
  if (rel === null) return null; // absolute, and outside the zone
  if (rel === '') return '';
  const labels = rel.split('.');
  const wild = labels[0] === '*';
  if (wild && !opts.wildcard) return null;
  if (!labelsValid(wild ? labels.slice(1) : labels, !!opts.underscore)) return null;
  return rel.length + 1 + zone.length <= 253 ? rel : null;
}

/**
 * A host name a record points at (CNAME, MX, NS, SRV targets), returned
 * absolute with its trailing dot. A trailing dot makes the input absolute;
 * otherwise it is relative to the zone, except that a name already ending
 * in the zone is taken as meant (`mail.example.com` in example.com is not
 * `mail.example.com.example.com.`, a mistake nobody intends). `@` is the
 * apex; '' is no name. Underscores pass (`_acme-challenge` CNAME targets);
 * callers that need a strict host name refuse them. All-numeric labels are
 * legal (RFC 1123), so `192.0.2.1.` passes here and validation flags it.
 */
export function normalizeTarget(input: string, zone: string): string | null {
  if (input === '@') return `${zone}.`;
  const ascii = input === '' ? null : toAscii(input);
  if (ascii === null || ascii.includes('*') || ascii.includes('@')) return null;
  let absolute: string;
  if (ascii.endsWith('.')) absolute = ascii.slice(0, -1);
  else absolute = inZone(ascii, zone) === null ? `${ascii}.${zone}` : ascii;
  if (absolute === '' || absolute.length > 253 || !labelsValid(absolute.split('.'), true)) return null;
  return `${absolute}.`;
}

/** Whether a name is really an address literal (`192.0.2.1.`): an error at publish. */
export function looksLikeIp(name: string): boolean {
  return isIP(name.endsWith('.') ? name.slice(0, -1) : name) !== 0;
}
