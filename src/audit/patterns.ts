import ipaddr from 'ipaddr.js';

/**
 * Address patterns as the spec writes them: IPv4 with `*` or `a-b` in any
 * octet (`10.0.*.1-20`), or a CIDR / single address (IPv4 or IPv6).
 * Octets are plain decimal: a leading zero is rejected, never read as octal.
 */
export type Pattern =
  | { kind: 'octets'; ranges: [number, number][] }
  | { kind: 'cidr'; addr: ipaddr.IPv4 | ipaddr.IPv6; bits: number };

const OCTET = /^(0|[1-9]\d{0,2})$/;

function octetRange(part: string): [number, number] | null {
  if (part === '*') return [0, 255];
  const [lo, hi, extra] = part.split('-');
  if (extra !== undefined || lo === undefined || !OCTET.test(lo)) return null;
  if (hi !== undefined && !OCTET.test(hi)) return null;
  const a = Number(lo);
  const b = hi === undefined ? a : Number(hi);
  return a <= b && b <= 255 ? [a, b] : null;
}

const strictIPv4 = (text: string) => {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => OCTET.test(p) && Number(p) <= 255);
};

export function parsePattern(text: string): Pattern | null {
  if (text.includes('/')) {
    // ipaddr.js also reads 0x7f.1, 0177.0.0.1 and 127.1: only plain dotted decimal or IPv6 here.
    const [address = '', bits = '', extra] = text.split('/');
    if (extra !== undefined || !OCTET.test(bits) || !(strictIPv4(address) || (address.includes(':') && ipaddr.IPv6.isValid(address)))) return null;
    if (!ipaddr.isValidCIDR(text)) return null;
    const [addr, n] = ipaddr.parseCIDR(text);
    return { kind: 'cidr', addr, bits: n };
  }
  const parts = text.split('.');
  if (parts.length === 4 && !text.includes(':')) {
    const ranges = parts.map(octetRange);
    return ranges.every((r) => r !== null) ? { kind: 'octets', ranges: ranges as [number, number][] } : null;
  }
  if (text.includes(':') && ipaddr.IPv6.isValid(text)) {
    return { kind: 'cidr', addr: ipaddr.IPv6.parse(text), bits: 128 };
  }
  return null;
}

/** A comma list of patterns; null when any of them is malformed. */
export function parsePatternList(text: string): Pattern[] | null {
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  const parsed = items.map(parsePattern);
  return parsed.every((p) => p !== null) ? (parsed as Pattern[]) : null;
}

/** Whether `address` (a plain IPv4 or IPv6 address) falls inside the pattern. */
export function patternContains(pattern: Pattern, address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  if (pattern.kind === 'cidr') {
    return addr.kind() === pattern.addr.kind() && addr.match(pattern.addr, pattern.bits);
  }
  if (addr.kind() !== 'ipv4') return false;
  const octets = (addr as ipaddr.IPv4).octets;
  return pattern.ranges.every(([lo, hi], i) => octets[i]! >= lo && octets[i]! <= hi);
}
