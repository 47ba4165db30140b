import type { RdataToken } from './records.ts';

/**
 * A reader of RFC 1035 master files (section 5.1), written for the zone
 * import (docs/dns.md, "Zone import", says why no npm parser was used: each
 * candidate lost or garbled records of the cases below). It knows the
 * syntax only; what a record means is the record type table's business.
 *
 * Handled: parentheses across lines; `;` comments (not inside quotes);
 * quoted strings with `\"`, `\\` and `\DDD`; `$ORIGIN` (absolute or
 * relative to the one in force), `$TTL` (also BIND's `1h30m` units); `@`;
 * relative and absolute names; class and TTL in either order; a line that
 * starts with a blank has the previous owner; a record without TTL takes
 * `$TTL`, else the previous record's TTL (RFC 1035 5.1, RFC 2308 4).
 * `$INCLUDE` is refused: the import reads only the text it was sent, never
 * a file of the server's. `$GENERATE` and other directives are refused too.
 */

/** One resource record as written: owner absolute (trailing dot), type upper case. */
export interface MasterRecord {
  /** The physical line the record starts on (1-based). */
  readonly line: number;
  readonly owner: string;
  /** Explicit, `$TTL` or the previous record's; null when the file gives none. */
  readonly ttl: number | null;
  readonly type: string;
  readonly rdata: readonly RdataToken[];
  /** The `$ORIGIN` in force, against which relative names in rdata are read. */
  readonly origin: string;
}

export interface MasterFile {
  records: MasterRecord[];
  /** `line N: …`, one per line that cannot be read; the reader goes on to report them all. */
  errors: string[];
}

interface LogicalLine {
  line: number;
  /** The line began with a blank: the owner is the previous one. */
  blankOwner: boolean;
  tokens: RdataToken[];
}

const MAX_TTL = 2_147_483_647;
const UNIT: Record<string, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };

/** A TTL: digits, or BIND's units (`1w2d`, `90m`); null when it is not one or is over 2^31-1. */
export function ttlValue(text: string): number | null {
  if (/^\d{1,10}$/.test(text)) return Number(text) <= MAX_TTL ? Number(text) : null;
  if (!/^(?:\d{1,10}[wdhms])+$/i.test(text)) return null;
  let total = 0;
  for (const m of text.toLowerCase().matchAll(/(\d+)([wdhms])/g)) total += Number(m[1]) * UNIT[m[2]!]!;
  return total <= MAX_TTL ? total : null;
}

const CLASSES = new Set(['IN', 'CH', 'HS', 'CS', 'ANY']);
const isClass = (text: string) => CLASSES.has(text.toUpperCase()) || /^CLASS\d+$/i.test(text);

/** Splits text into logical lines of tokens (parentheses joined, comments dropped). */
function lex(text: string, errors: string[]): LogicalLine[] {
  const lines: LogicalLine[] = [];
  let lineNo = 1;
  let depth = 0;
  let openedAt = 0;
  let current: LogicalLine | null = null;
  let atStart = true;
  const enc = new TextEncoder();
  const n = text.length;
  let i = 0;
  const finish = () => {
    if (current && current.tokens.length) lines.push(current);
    current = null;
  };
  while (i < n) {
    const c = text[i]!;
    if (atStart && depth === 0) {
      atStart = false;
      current = { line: lineNo, blankOwner: c === ' ' || c === '\t', tokens: [] };
    }
    if (c === '\n') {
      lineNo++;
      i++;
      if (depth === 0) {
        finish();
        atStart = true;
      }
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === ';') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '(') {
      if (depth === 0) openedAt = lineNo;
      depth++;
      i++;
      continue;
    }
    if (c === ')') {
      if (depth === 0) errors.push(`line ${lineNo}: ")" without "("`);
      else depth--;
      i++;
      continue;
    }
    // A token: quoted (to the closing quote) or bare (to a blank or a special character).
    const quoted = c === '"';
    const start = quoted ? i + 1 : i;
    const bytes: number[] = [];
    let bad = false;
    let j = start;
    for (; j < n; j++) {
      const d = text[j]!;
      if (
        quoted
          ? d === '"'
          : d === ' ' || d === '\t' || d === '\r' || d === '\n' || d === ';' || d === '(' || d === ')' || d === '"'
      )
        break;
      if (d === '\n') break; // inside quotes: refused below
      if (d === '\\') {
        const digits = /^\d{3}/.exec(text.slice(j + 1, j + 4));
        if (digits) {
          const v = Number(digits[0]);
          if (v > 255) bad = true;
          bytes.push(v & 0xff);
          j += 3;
        } else if (j + 1 < n && text[j + 1] !== '\n') {
          const cp = text.codePointAt(j + 1)!;
          const ch = String.fromCodePoint(cp);
          bytes.push(...enc.encode(ch));
          j += ch.length;
        } else bad = true;
        continue;
      }
      const cp = text.codePointAt(j)!;
      if (cp < 0x80) bytes.push(cp);
      else {
        const ch = String.fromCodePoint(cp);
        bytes.push(...enc.encode(ch));
        j += ch.length - 1;
      }
    }
    const raw = text.slice(start, j);
    if (quoted && (j >= n || text[j] !== '"')) {
      errors.push(`line ${lineNo}: a quoted string is not closed on its line`);
      // Skip to the end of the physical line; the rest of it cannot be read.
      while (j < n && text[j] !== '\n') j++;
      i = j;
      continue;
    }
    if (bad) errors.push(`line ${lineNo}: a bad escape in ${JSON.stringify(raw)} (\\DDD is a byte, 0 to 255)`);
    current!.tokens.push({ raw, bytes: Uint8Array.from(bytes), quoted });
    i = quoted ? j + 1 : j;
  }
  if (depth > 0) errors.push(`line ${openedAt}: "(" is never closed`);
  else finish();
  return lines;
}

/** A name absolute against `origin` (both lower case, trailing dot); `@` is the origin. */
function absolute(raw: string, origin: string): string {
  const name = raw.toLowerCase();
  if (name === '@') return origin;
  if (name.endsWith('.') && !name.endsWith('\\.')) return name;
  return origin === '.' ? `${name}.` : `${name}.${origin}`;
}

/** Reads a master file with `origin` (absolute, trailing dot) as its starting `$ORIGIN`. */
export function parseMasterFile(text: string, startOrigin: string): MasterFile {
  const errors: string[] = [];
  const records: MasterRecord[] = [];
  let origin = startOrigin.toLowerCase();
  let defaultTtl: number | null = null;
  let lastTtl: number | null = null;
  let lastOwner: string | null = null;
  for (const l of lex(text, errors)) {
    const err = (what: string) => errors.push(`line ${l.line}: ${what}`);
    const words = l.tokens;
    const first = words[0]!;
    if (!l.blankOwner && !first.quoted && first.raw.startsWith('$')) {
      const directive = first.raw.toUpperCase();
      if (directive === '$ORIGIN' && words.length === 2 && !words[1]!.quoted) origin = absolute(words[1]!.raw, origin);
      else if (directive === '$TTL' && words.length === 2 && ttlValue(words[1]!.raw) !== null)
        defaultTtl = ttlValue(words[1]!.raw);
      else if (directive === '$INCLUDE') err('$INCLUDE is refused: the import reads only the text it is sent');
      else if (directive === '$ORIGIN' || directive === '$TTL')
        err(`${directive} needs one ${directive === '$TTL' ? 'TTL' : 'name'}`);
      else err(`the directive ${first.raw} is not supported`);
      continue;
    }
    let k = 0;
    let owner: string;
    if (l.blankOwner) {
      if (lastOwner === null) {
        err('the record has no owner and there is no previous one');
        continue;
      }
      owner = lastOwner;
    } else owner = absolute(words[k++]!.raw, origin);
    lastOwner = owner;
    // TTL and class, in either order, each at most once.
    let ttl: number | null = null;
    let klass: string | null = null;
    for (let m = 0; m < 2 && k < words.length; m++) {
      const w = words[k]!.raw;
      if (ttl === null && /^\d/.test(w)) {
        ttl = ttlValue(w);
        if (ttl === null) break;
        k++;
      } else if (klass === null && isClass(w)) {
        klass = w.toUpperCase();
        k++;
      } else break;
    }
    if (/^\d/.test(words[k]?.raw ?? '') && ttl === null) {
      err(`${words[k]!.raw} is not a TTL (0 to 2147483647 seconds)`);
      continue;
    }
    if (klass !== null && klass !== 'IN') {
      err(`class ${klass}: only IN records are hosted`);
      continue;
    }
    const type = words[k]?.raw.toUpperCase();
    if (type === undefined) {
      err('the record has no type');
      continue;
    }
    if (ttl !== null) lastTtl = ttl;
    records.push({ line: l.line, owner, ttl: ttl ?? defaultTtl ?? lastTtl, type, rdata: words.slice(k + 1), origin });
  }
  return { records, errors };
}
