import { isIPv4, isIPv6 } from 'node:net';
import { parseNumber, quoted } from '../text.ts';

/**
 * SvcParams of SVCB and HTTPS (RFC 9460): the presentation form of the add's
 * `params` field and of zone text (2.1, appendix A) both ways with the wire
 * form (2.2). Every way in goes through the same checks, so what is stored
 * (typed, imported or transferred) is one canonical string: keys in
 * ascending key number, each value in one written form.
 */

/**
 * Most characters `params` may have, as typed and as stored. RFC 9460 2.2
 * only bounds SvcParams by the RDATA (65535 octets); Vigil needs a finite
 * bound for a record's stored size (limits.ts), and 2,000 holds several ECH
 * configurations or dozens of address hints.
 */
export const MAX_PARAMS_CHARS = 2000;

/** One SvcParam in wire form: its key number and its value's octets. */
interface Param {
  readonly key: number;
  readonly value: Uint8Array;
}

/** The registered keys Vigil names (RFC 9460 14.3.2); others are written `keyNNNNN` (2.1). */
const NAMES = ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint'];
const [MANDATORY, ALPN, NO_DEFAULT_ALPN, PORT, IPV4HINT, ECH, IPV6HINT] = [0, 1, 2, 3, 4, 5, 6];
/** 65535 is reserved as "Invalid key" (RFC 9460 14.3.2). */
const MAX_KEY = 65534;

/** A key's number from its presentation name; keyNNNNN without leading zeros (RFC 9460 2.1). */
function keyNumber(name: string): number | null {
  const named = NAMES.indexOf(name);
  if (named >= 0) return named;
  const m = /^key(0|[1-9]\d{0,4})$/.exec(name);
  return m && Number(m[1]) <= MAX_KEY ? Number(m[1]) : null;
}

const keyName = (key: number): string => NAMES[key] ?? `key${key}`;

const u16 = (b: Uint8Array, i: number): number => (b[i]! << 8) | b[i + 1]!;

/** Whether a value has the wire format its key defines (RFC 9460 2.2: else the RR is malformed). */
function wireValid(key: number, v: Uint8Array): boolean {
  switch (key) {
    case MANDATORY: {
      // 7.4 and 8: one or more keys in strictly increasing order, never `mandatory` itself.
      if (v.length === 0 || v.length % 2 !== 0) return false;
      for (let i = 0; i < v.length; i += 2) if (u16(v, i) <= (i === 0 ? 0 : u16(v, i - 2))) return false;
      return true;
    }
    case ALPN: {
      // 7.1.1: one or more length-prefixed alpn-ids of 1-255 octets that exactly fill the value.
      let i = 0;
      while (i < v.length) i += v[i] === 0 ? Number.POSITIVE_INFINITY : v[i]! + 1;
      return v.length > 0 && i === v.length;
    }
    case NO_DEFAULT_ALPN:
      return v.length === 0; // 7.1.1
    case PORT:
      return v.length === 2; // 7.2
    case IPV4HINT:
      return v.length > 0 && v.length % 4 === 0; // 7.3: an empty list is invalid
    case IPV6HINT:
      return v.length > 0 && v.length % 16 === 0;
    case ECH:
      // draft-ietf-tls-svcb-ech 2: an ECHConfigList, with its own 2-octet length prefix.
      return v.length > 2 && u16(v, 0) === v.length - 2;
    default:
      return true; // keyNNNNN: opaque (2.1)
  }
}

/** A comma-separated list item by item (RFC 9460 A.1); `escapes`: `\,` and `\\` allowed (alpn). */
function splitList(value: Uint8Array, escapes: boolean): Uint8Array[] | null {
  const items: number[][] = [[]];
  for (let i = 0; i < value.length; i++) {
    const b = value[i]!;
    if (b === 0x2c) items.push([]);
    else if (b !== 0x5c) items[items.length - 1]!.push(b);
    else if (escapes && (value[i + 1] === 0x2c || value[i + 1] === 0x5c)) items[items.length - 1]!.push(value[++i]!);
    else return null;
  }
  // Empty items are not allowed (A.1), so neither is an empty list.
  return items.every((item) => item.length > 0) ? items.map((item) => Uint8Array.from(item)) : null;
}

const ascii = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

/**
 * An IPv6 address as node's isIPv6 accepts it (RFC 4291 2.2, embedded IPv4
 * too; no zone index `%eth0`, which is no address) as its 16 octets. Not
 * ipaddr.js: its 2.5 reads the IPv4-compatible `::1.2.3.4` as `::ffff:1.2.3.4`.
 */
function ipv6Octets(text: string): Uint8Array | null {
  if (!isIPv6(text) || text.includes('%')) return null;
  const quad = (_: string, a: string, b: string, c: string, d: string) =>
    `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`;
  const hex = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, quad);
  const [head, tail] = hex.split('::') as [string, string | undefined];
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0');
  const groups = [...before, ...zeros, ...after].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 ? Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 255])) : null;
}

/** 16 octets as RFC 5952 4 text: lower-case hex, no leading zeros, the first longest run of 2+ zero groups as `::`. */
function ipv6Text(b: Uint8Array): string {
  const g = Array.from({ length: 8 }, (_, i) => u16(b, 2 * i));
  let [at, run] = [-1, 1];
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > run) [at, run] = [i, j - i];
    i = j;
  }
  const hex = (part: number[]) => part.map((x) => x.toString(16)).join(':');
  return at < 0 ? hex(g) : `${hex(g.slice(0, at))}::${hex(g.slice(at + run))}`;
}

/** A value as typed for a key with a presentation syntax of its own (7.1-7.4): its wire form, or null. */
function wireValue(key: number, value: Uint8Array): Uint8Array | null {
  if (key === NO_DEFAULT_ALPN) return value.length === 0 ? value : null;
  if (key === ALPN) {
    const ids = splitList(value, true);
    if (ids === null || ids.some((id) => id.length > 255)) return null;
    return Buffer.concat(ids.flatMap((id) => [Uint8Array.of(id.length), id]));
  }
  if (key === PORT) {
    const port = parseNumber(ascii(value), 0, 65535);
    return port === null ? null : Uint8Array.of(port >> 8, port & 255);
  }
  if (key === ECH) {
    // RFC 4648 4 base64, padded: only text that decodes and encodes back to itself.
    const text = ascii(value);
    const bytes = Buffer.from(text, 'base64');
    return bytes.toString('base64') === text ? bytes : null;
  }
  const items = splitList(value, false);
  if (items === null) return null;
  const texts = items.map(ascii);
  if (key === MANDATORY) {
    const keys = texts.map(keyNumber);
    if (keys.some((k) => k === null || k === MANDATORY) || new Set(keys).size !== keys.length) return null;
    return Buffer.concat((keys as number[]).sort((a, b) => a - b).map((k) => Uint8Array.of(k >> 8, k & 255)));
  }
  if (key === IPV4HINT) {
    if (!texts.every((t) => isIPv4(t))) return null;
    return Uint8Array.from(texts.flatMap((t) => t.split('.').map(Number)));
  }
  const addresses = texts.map(ipv6Octets); // ipv6hint
  return addresses.every((a) => a !== null) ? Buffer.concat(addresses as Uint8Array[]) : null;
}

/**
 * One value in presentation form, as octets before character-string
 * quoting: lists comma-separated, addresses as RFC 5952 text, ech base64.
 */
function presentValue(key: number, v: Uint8Array): Uint8Array {
  const text = (s: string) => Buffer.from(s, 'latin1');
  const list = (items: string[]) => text(items.join(','));
  const chunks = (size: number) =>
    Array.from({ length: v.length / size }, (_, i) => v.subarray(i * size, (i + 1) * size));
  switch (key) {
    case MANDATORY:
      return list(chunks(2).map((k) => keyName(u16(k, 0))));
    case ALPN: {
      // A.1: `,` and `\` inside an id are escaped with `\`; the quoting below escapes that `\` again.
      const ids: string[] = [];
      for (let i = 0; i < v.length; i += v[i]! + 1) ids.push(ascii(v.subarray(i + 1, i + 1 + v[i]!)));
      return list(ids.map((id) => id.replace(/[,\\]/g, '\\$&')));
    }
    case PORT:
      return text(String(u16(v, 0)));
    case IPV4HINT:
      return list(chunks(4).map((a) => a.join('.')));
    case ECH:
      return text(Buffer.from(v).toString('base64'));
    case IPV6HINT:
      return list(chunks(16).map(ipv6Text));
    default:
      return v;
  }
}

/** Octets that stand bare in a value; anything else is quoted (escapes and quotes undone by A). */
const BARE = /^[A-Za-z0-9+/=.,:_-]+$/;

/** A value as a character-string (RFC 9460 A, RFC 1035 5.1): bare when plain, else quoted with `\"`, `\\`, `\DDD`. */
const charString = (v: Uint8Array): string => (BARE.test(ascii(v)) ? ascii(v) : quoted(v));

/** SvcParams in presentation form: keys ascending, an empty value as the bare key (as BIND and Knot write it). */
function present(params: readonly Param[]): string {
  return params
    .map((p) => (p.value.length ? `${keyName(p.key)}=${charString(presentValue(p.key, p.value))}` : keyName(p.key)))
    .join(' ');
}

/**
 * The rules between params: each key at most once (2.1; in key order as 2.2
 * requires); each value of its key's format; the keys `mandatory` lists all
 * present (7.4, 8: self-consistency, which 2.4.3 asks zone files to
 * enforce); `no-default-alpn` only beside `alpn` (7.1.1). Returns the
 * presentation, or null (also when longer than MAX_PARAMS_CHARS).
 */
function checked(params: Param[]): string | null {
  params.sort((a, b) => a.key - b.key);
  const keys = new Set(params.map((p) => p.key));
  if (keys.size !== params.length || params.some((p) => p.key > MAX_KEY || !wireValid(p.key, p.value))) return null;
  const mandatory = params.find((p) => p.key === MANDATORY)?.value ?? new Uint8Array();
  for (let i = 0; i < mandatory.length; i += 2) if (!keys.has(u16(mandatory, i))) return null;
  if (keys.has(NO_DEFAULT_ALPN) && !keys.has(ALPN)) return null;
  const text = present(params);
  return text.length <= MAX_PARAMS_CHARS ? text : null;
}

const SPACE = new Set([0x20, 0x09, 0x0d, 0x0a]);
/** Octets that end a bare value or may not stand in one unescaped (RFC 9460 A: non-special). */
const SPECIAL = new Set([0x22, 0x3b, 0x28, 0x29]);

/**
 * Reads presentation SvcParams (RFC 9460 2.1, appendix A): whitespace
 * separated `key`, `key=value`, `key="value"`, values with `\X` and `\DDD`.
 * `key=` with nothing after is refused: the ABNF has no empty bare value
 * (Knot refuses it too). Returns the params in wire form, unordered.
 */
function lex(text: string): Param[] | null {
  const b = Buffer.from(text, 'utf8');
  const params: Param[] = [];
  let i = 0;
  while (i < b.length) {
    if (SPACE.has(b[i]!)) {
      i++;
      continue;
    }
    const start = i;
    while (i < b.length && /[a-z0-9-]/.test(String.fromCharCode(b[i]!))) i++;
    const name = ascii(b.subarray(start, i));
    const key = keyNumber(name);
    if (key === null) return null;
    const value: number[] = [];
    let escaped = false;
    if (b[i] === 0x3d) {
      const inQuotes = b[++i] === 0x22;
      if (inQuotes) i++;
      const from = i;
      for (; i < b.length && (inQuotes ? b[i] !== 0x22 : !SPACE.has(b[i]!)); i++) {
        const c = b[i]!;
        if (c === 0x5c) {
          escaped = true;
          const ddd = /^\d{3}/.exec(ascii(b.subarray(i + 1, i + 4)));
          const byte = ddd ? Number(ddd[0]) : b[i + 1];
          // `\DDD` is one octet (0-255); `\X` a character, not a control (RFC 9460 A: escaped).
          if (byte === undefined || byte > 255 || (!ddd && ((byte < 0x20 && byte !== 0x09) || byte === 0x7f)))
            return null;
          value.push(byte);
          i += ddd ? 3 : 1;
        } else if ((c < 0x20 && c !== 0x09) || c === 0x7f || (!inQuotes && (SPECIAL.has(c) || c === 0x09))) return null;
        else value.push(c);
      }
      if (inQuotes ? b[i++] !== 0x22 : i === from) return null;
    }
    if (i < b.length && !SPACE.has(b[i]!)) return null;
    const bytes = Uint8Array.from(value);
    // keyNNNNN values are wire form (2.1); named ones other than alpn MUST NOT hold escapes (7.2-7.4).
    if (!NAMES.includes(name)) params.push({ key, value: bytes });
    else if (escaped && key !== ALPN) return null;
    else {
      const wire = wireValue(key, bytes);
      if (wire === null) return null;
      params.push({ key, value: wire });
    }
  }
  return params;
}

/** Typed or imported SvcParams, checked and in key order; null when invalid. */
function read(text: string): { params: Param[]; text: string } | null {
  const params = text.length <= MAX_PARAMS_CHARS ? lex(text) : null;
  if (params === null) return null;
  const canonical = checked(params);
  return canonical === null ? null : { params, text: canonical };
}

/** The canonical presentation of typed or imported SvcParams ('' for none); null when invalid. */
export const normalizeParams = (text: string): string | null => read(text)?.text ?? null;

/** SvcParams in wire form (RFC 9460 2.2), from valid presentation text; null when it is not. */
export function paramsToWire(text: string): Buffer | null {
  const params = read(text)?.params;
  if (params === undefined) return null;
  const head = (p: Param) => Uint8Array.of(p.key >> 8, p.key & 255, p.value.length >> 8, p.value.length & 255);
  return Buffer.concat(params.flatMap((p) => [head(p), p.value]));
}

/** Wire SvcParams (the rest of the RDATA) in canonical presentation form; null when malformed (RFC 9460 2.2). */
export function paramsFromWire(wire: Uint8Array): string | null {
  const params: Param[] = [];
  for (let i = 0; i < wire.length; ) {
    if (i + 4 > wire.length) return null;
    const key = u16(wire, i);
    const end = i + 4 + u16(wire, i + 2);
    if (end > wire.length) return null; // the RDATA ends inside a SvcParam
    // Strictly increasing (2.2), which also rules out a key twice.
    if (params.length && key <= params[params.length - 1]!.key) return null;
    params.push({ key, value: wire.subarray(i + 4, end) });
    i = end;
  }
  return checked(params);
}
