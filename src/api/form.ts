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

/** Nothing to decode: no escape (`%`, `+`) and no NUL. Keys, tokens and most values. */
const PLAIN = /^[^%+\u0000]*$/;

function decode(text: string): string | null {
  if (PLAIN.test(text)) return text;
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
  if (body === '') return form;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    if (name === null) continue; // an unreadable name names no field
    const value = decode(eq < 0 ? '' : pair.slice(eq + 1));
    // Every name read is in the map: a second one is a repeat.
    form.set(name, form.has(name) || value === null ? MALFORMED : value);
  }
  return form;
}
