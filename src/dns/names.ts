import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * Name rules. Every name that reaches a zone file passes through here and
 * holds nothing but [a-z0-9-_*.] — the guard against zone-file injection.
 */
const LDH = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const LDH_UNDERSCORE = /^(?:_?[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?|_[a-z0-9_-]{0,62})$/;
const PLAIN = /^[A-Za-z0-9._*@-]*$/;
const MAX_INPUT = 1024;

/** Lower-cases and converts U-labels to A-labels; null if the text cannot be a name. */
function toAscii(input: string): string | null {
  if (input.length > MAX_INPUT) return null;
  if (PLAIN.test(input)) return input.toLowerCase();
  // Only non-ASCII letters may go through IDN conversion; anything else odd is refused.
  if (/[\u0000-\u002c\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007f]/.test(input.replace(/[._*@-]/g, ''))) return null;
  const ascii = domainToASCII(input);
  return ascii === '' ? null : ascii.toLowerCase();
}

function labelsValid(labels: string[], underscore: boolean): boolean {
  const rule = underscore ? LDH_UNDERSCORE : LDH;
  return labels.every((l) => l.length > 0 && l.length <= 63 && rule.test(l));
}

/** A zone name as typed: returns it lower case, A-labels, no trailing dot; or null. */
export function normalizeDomain(input: string): string | null {
  const ascii = toAscii(input.endsWith('.') ? input.slice(0, -1) : input);
  if (ascii === null || ascii.length > 253) return null;
  const labels = ascii.split('.');
  return labels.length >= 2 && labelsValid(labels, false) && !/^\d+$/.test(labels.at(-1)!) ? ascii : null;
}

/** The absolute name of an owner relative to the zone, with trailing dot. */
export function fqdn(relOwner: string, zone: string): string {
  return relOwner === '' ? `${zone}.` : `${relOwner}.${zone}.`;
}

/**
 * An owner name as typed in a record add, made relative to the zone:
 * '' or '@' is the apex; `www`, `a.b`, `*`, `*.sub` (wildcards when allowed);
 * a name ending in the zone is made relative. Returns '' for the apex.
 */
export function normalizeOwner(input: string, zone: string, opts: { wildcard?: boolean; underscore?: boolean } = {}): string | null {
  if (input === '' || input === '@') return '';
  let ascii = toAscii(input);
  if (ascii === null) return null;
  if (ascii.endsWith('.')) {
    const abs = ascii.slice(0, -1);
    if (abs === zone) return '';
    if (!abs.endsWith(`.${zone}`)) return null;
    ascii = abs.slice(0, -zone.length - 1);
  } else if (ascii === zone) {
    return '';
  } else if (ascii.endsWith(`.${zone}`)) {
    ascii = ascii.slice(0, -zone.length - 1);
  }
  const labels = ascii.split('.');
  const wild = labels[0] === '*';
  if (wild && !opts.wildcard) return null;
  if (!labelsValid(wild ? labels.slice(1) : labels, !!opts.underscore)) return null;
  return ascii.length + zone.length + 2 <= 254 ? ascii : null;
}

/**
 * A host name a record points at (CNAME, MX, NS, SRV targets). A trailing
 * dot makes it absolute, otherwise it is relative to the zone. Returns the
 * absolute name with its trailing dot. All-numeric labels are legal host
 * names (RFC 1123), so `192.0.2.1.` passes here and validation flags it.
 */
export function normalizeTarget(input: string, zone: string): string | null {
  if (input === '' || input === '@') return `${zone}.`;
  const ascii = toAscii(input);
  if (ascii === null || ascii.includes('*')) return null;
  const absolute = ascii.endsWith('.') ? ascii.slice(0, -1) : `${ascii}.${zone}`;
  if (absolute.length > 253 || !labelsValid(absolute.split('.'), true)) return null;
  return `${absolute}.`;
}

/** Whether a target name is really an address literal (an error at publish). */
export function looksLikeIp(name: string): boolean {
  return isIP(name.endsWith('.') ? name.slice(0, -1) : name) !== 0;
}
