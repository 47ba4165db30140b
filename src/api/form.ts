/**
 * Strict `application/x-www-form-urlencoded` parsing.
 *
 * A value that cannot be read honestly — a key sent twice, an invalid
 * percent-escape, bytes that are not UTF-8, a NUL byte — becomes MALFORMED:
 * a value that no field validator accepts, so the script answers the
 * field's own "invalid" code instead of guessing what was meant.
 */
export const MALFORMED = '\u0000';

export type Form = ReadonlyMap<string, string>;

function decode(text: string): string | null {
  try {
    // decodeURIComponent throws on bad escapes and on invalid UTF-8.
    const value = decodeURIComponent(text.replace(/\+/g, ' '));
    return value.includes('\u0000') ? null : value;
  } catch {
    return null;
  }
}

export function parseForm(body: string): Form {
  const form = new Map<string, string>();
  const seen = new Set<string>();
  if (body === '') return form;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    if (name === null) continue; // an unreadable name names no field
    const value = decode(eq < 0 ? '' : pair.slice(eq + 1));
    form.set(name, seen.has(name) || value === null ? MALFORMED : value);
    seen.add(name);
  }
  return form;
}
