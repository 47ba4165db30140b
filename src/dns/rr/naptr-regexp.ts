import { isCleanText } from '../text.ts';

/**
 * NAPTR's REGEXP field checked as BIND checks it (lib/dns/rdata/generic/
 * naptr_35.c txt_valid_regex, lib/isc/regex.c isc_regex_validate): BIND
 * applies that check to every NAPTR it loads or transfers, so a regexp it
 * refuses would stop BIND secondaries (and named-checkzone) taking the
 * whole zone. Kept beside naptr.ts as svc-params.ts is beside svcb.ts.
 */

/** POSIX character classes isc_regex_validate knows (BIND lib/isc/regex.c). */
const CLASS = /^\[:(?:alnum|digit|punct|alpha|graph|space|blank|lower|upper|cntrl|print|xdigit):\]/;

/**
 * The number of groups of a POSIX ERE (its bytes as latin1 characters), or
 * -1 where isc_regex_validate refuses it. Stricter in one point: no
 * collating elements `[. .]` or equivalence classes `[= =]` in brackets.
 */
function ereGroups(ere: string): number {
  let groups = 0;
  let open = 0;
  let atom = false; // something a repetition may follow
  let repeated = false; // the atom already has a repetition (or is ^ or $)
  let emptyOk = false; // `()` is allowed, `(a|)` is not
  let start = 0; // the low end of a bracket range (kept across brackets, as BIND does)
  const bracketEnd = (i: number): number => {
    let neg = false;
    let seen = false;
    let range = 0;
    while (i < ere.length) {
      const c = ere[i]!;
      if (c === '^' && !seen && !neg) neg = true;
      else if (c === '-' && range !== 2 && seen) {
        if (range === 1) return -1;
        range = 2;
      } else if (c === '[' && /^\[[.=:]/.test(ere.slice(i, i + 2))) {
        const m = CLASS.exec(ere.slice(i));
        if (m === null || range === 2) return -1;
        seen = true;
        i += m[0].length;
        continue;
      } else if (c === '[') seen = true;
      else if (c === ']' && seen) return i + 1;
      else {
        if (range === 2 && c.charCodeAt(0) < start) return -1;
        if (range !== 0) range--;
        start = c.charCodeAt(0);
        seen = true;
      }
      i++;
    }
    return -1;
  };
  for (let i = 0; i < ere.length; ) {
    const c = ere[i]!;
    let next = i + 1;
    if (c === '\\') {
      const e = ere[i + 1];
      if (e === undefined || (e >= '1' && e <= '9' && Number(e) > groups)) return -1;
      next = i + 2;
      [atom, repeated] = [true, false];
    } else if (c === '[') {
      next = bracketEnd(i + 1);
      if (next < 0) return -1;
      [atom, repeated] = [true, false];
    } else if (c === '{' && /\d/.test(ere[i + 1] ?? '')) {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(ere.slice(i));
      if (!atom || repeated || m === null) return -1;
      const low = Number(m[1]);
      const high = m[2] ? Number(m[2]) : low;
      if (low > 255 || high > 255 || low > high) return -1;
      next = i + m[0].length;
      repeated = true;
    } else if (c === '(') {
      groups++;
      open++;
      [atom, repeated, emptyOk] = [false, false, true];
    } else if (c === ')') {
      if (open > 0 && !atom && !emptyOk) return -1;
      if (open > 0) open--;
      [atom, repeated] = [true, false];
    } else if (c === '|') {
      if (!atom) return -1;
      [atom, repeated, emptyOk] = [false, false, false];
    } else if (c === '^' || c === '$') [atom, repeated] = [true, true];
    else if (c === '*' || c === '+' || c === '?') {
      if (!atom || repeated) return -1;
      repeated = true;
    } else [atom, repeated] = [true, false];
    i = next;
  }
  return open === 0 && atom ? groups : -1;
}

/**
 * REGEXP (RFC 3403 4.1): empty, or RFC 3402 3.2's substitution expression
 * `delim ere delim repl delim flags`. The delimiter is not a digit, `\` or
 * the flag `i` (BIND refuses 0 too), here a printable ASCII character;
 * `\delim` stands for it inside; repl's back-references are \1 to \9 and
 * none beyond the ERE's groups; the only flag is `i`. As BIND checks it
 * (naptr_35.c txt_valid_regex, bytes). UTF-8 text at most 255 bytes.
 */
export function regexpValid(regexp: string): boolean {
  if (regexp === '') return true;
  if (!isCleanText(regexp) || Buffer.byteLength(regexp) > 255) return false;
  const s = Buffer.from(regexp).toString('latin1');
  const delim = s[0]!;
  if (delim < ' ' || delim > '~' || /[0-9i\\]/.test(delim)) return false;
  let part = 0; // 0 the ERE, 1 repl, 2 flags
  let ere = '';
  let backref = 0;
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === delim) {
      if (++part > 2) return false;
    } else if (part === 2) {
      if (c !== 'i') return false;
    } else if (c === '\\') {
      const e = s[++i];
      if (e === undefined || (part === 1 && e === '0')) return false;
      if (part === 0) ere += c + e;
      else if (e >= '1' && e <= '9') backref = Math.max(backref, Number(e));
    } else if (part === 0) ere += c;
  }
  const groups = part === 2 ? ereGroups(ere) : -1;
  return groups >= 0 && backref <= groups;
}
