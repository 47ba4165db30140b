import type ipaddr from 'ipaddr.js';
import { parseCidr, parseIP, parseIPv6 } from '../ip.ts';

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

export function parsePattern(text: string): Pattern | null {
  if (text.includes('/')) {
    // src/ip.ts: plain dotted decimal or IPv6 only (ipaddr.js alone also reads 0x7f.1, 127.1, and `::a.b.c.d` wrong).
    const cidr = parseCidr(text);
    return cidr && { kind: 'cidr', addr: cidr[0], bits: cidr[1] };
  }
  const parts = text.split('.');
  if (parts.length === 4 && !text.includes(':')) {
    const ranges = parts.map(octetRange);
    return ranges.every((r) => r !== null) ? { kind: 'octets', ranges: ranges as [number, number][] } : null;
  }
  const v6 = parseIPv6(text);
  return v6 && { kind: 'cidr', addr: v6, bits: 128 };
}

/** A comma list of patterns; null when any of them is malformed. */
export function parsePatternList(text: string): Pattern[] | null {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const parsed = items.map(parsePattern);
  return parsed.every((p) => p !== null) ? (parsed as Pattern[]) : null;
}

/** Whether `address` (a plain IPv4 or IPv6 address) falls inside the pattern. */
export function patternContains(pattern: Pattern, address: string): boolean {
  let addr = parseIP(address);
  if (addr === null) return false;
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
