/**
 * Text as it appears in master files and in form fields. Everything written
 * into zone text goes through one of these, so no stored value (typed by an
 * account holder or transferred from a hostile master) can end a line,
 * start a comment, open parentheses or begin a `$` directive.
 */

/** Bytes that may stand bare inside a quoted character-string. */
const BARE_IN_QUOTES = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A character-string: quoted, `"` and `\` escaped, every byte outside printable ASCII as \DDD. */
export function quoted(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\${String(b).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/** TXT data of any length as <=255-byte character-strings (RFC 1035 3.3.14). */
export function txtStrings(text: string): string {
  // Fast paths for the usual values: plain short text as is; printable ASCII
  // (one byte a character) cut by characters with a regex escape. Others walk bytes.
  if (text.length <= 255 && BARE_IN_QUOTES.test(text)) return `"${text}"`;
  const parts: string[] = [];
  if (PRINTABLE_ASCII.test(text)) {
    for (let i = 0; i < text.length; i += 255) parts.push(`"${text.slice(i, i + 255).replace(/["\\]/g, '\\$&')}"`);
  } else {
    const bytes = Buffer.from(text, 'utf8');
    for (let i = 0; i < bytes.length; i += 255) parts.push(quoted(bytes.subarray(i, i + 255)));
  }
  return parts.length ? parts.join(' ') : '""';
}

/** Name characters that need no escape; `\.` is an escaped dot (SOA mailbox). */
const SAFE_NAME = /^(?:[\w*+.-]|\\\.)*$/;
const SAFE_BYTE = /[\w*+.-]/;

/**
 * A domain name for zone text. Names made by names.ts are already safe
 * (fast path); anything else (a transferred name) has every other byte
 * written as \DDD rather than trusted.
 */
export function presentName(name: string): string {
  if (SAFE_NAME.test(name)) return name;
  let out = '';
  const bytes = Buffer.from(name, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const c = String.fromCharCode(b);
    if (b === 0x5c && bytes[i + 1] === 0x2e) {
      out += '\\.';
      i++;
    } else out += b < 0x80 && SAFE_BYTE.test(c) ? c : `\\${String(b).padStart(3, '0')}`;
  }
  return out;
}

/** A number for zone text: a non-negative integer, else 0 (never raw text). */
export function int(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/**
 * Control characters (tab, CR, LF and NUL too), lone surrogates, and U+FFFD,
 * which is what invalid UTF-8 in a request decodes to.
 */
const UNCLEAN = /[\p{Cc}\p{Cs}\ufffd]/u;

/** Text a user may store: well-formed Unicode without control characters. */
export function isCleanText(text: string): boolean {
  return !UNCLEAN.test(text);
}

/** A whole number written with ASCII digits only, within [min, max]; else null. */
export function parseNumber(text: string | undefined, min: number, max: number): number | null {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}
