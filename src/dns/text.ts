/**
 * Character-strings of the master-file format (TXT data, CAA values):
 * quoted, `"` and `\` escaped, every byte outside printable ASCII written
 * as \DDD, so no input can end the string, start a comment or a new line.
 */
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
  const bytes = Buffer.from(text, 'utf8');
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 255) parts.push(quoted(bytes.subarray(i, i + 255)));
  return parts.join(' ');
}

/** Text a user may store: no NUL or other control characters but tab. */
export function isCleanText(text: string): boolean {
  return !/[\u0000-\u0008\u000a-\u001f\u007f]/.test(text) && !text.includes('\ufffd');
}

/** A whole number written with ASCII digits only, within [min, max]; else null. */
export function parseNumber(text: string | undefined, min: number, max: number): number | null {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}
