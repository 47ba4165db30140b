import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Reading an address a user typed. Every such address goes through here,
 * never straight to ipaddr.js, because ipaddr.js 2.5 gets two things wrong
 * (issue 12, item 7):
 *   - `::a.b.c.d` (IPv4-compatible, RFC 4291 2.5.5.1: `::7f00:5`) is read as
 *     `::ffff:a.b.c.d` (IPv4-mapped), so `::127.0.0.5` became 127.0.0.5 once
 *     mapped addresses were unwrapped;
 *   - it accepts a leading zero in the dotted tail (`::127.0.0.05`), a zone
 *     index (`fe80::1%eth0`) and IPv4 in octal, hex or short form (`127.1`).
 * Node's isIPv4/isIPv6 (inet_pton's rules) decide what is an address; the
 * dotted tail is rewritten as two hex groups, which ipaddr.js reads right.
 */
const DOTTED_TAIL = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/;

export function parseIPv6(text: string): ipaddr.IPv6 | null {
  if (!isIPv6(text) || text.includes('%')) return null;
  const m = DOTTED_TAIL.exec(text);
  const hex = m ? `${m[1]}${((+m[2]! << 8) | +m[3]!).toString(16)}:${((+m[4]! << 8) | +m[5]!).toString(16)}` : text;
  return ipaddr.IPv6.parse(hex);
}

/** A plain address: dotted-decimal IPv4 (no leading zeros) or IPv6 as above. */
export function parseIP(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  return isIPv4(text) ? ipaddr.IPv4.parse(text) : parseIPv6(text);
}

/** `address/bits`, the address as parseIP, bits plain decimal within its family. */
export function parseCidr(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const addr = parseIP(text.slice(0, slash));
  const bits = text.slice(slash + 1);
  if (addr === null || !/^(?:0|[1-9]\d{0,2})$/.test(bits) || Number(bits) > (addr.kind() === 'ipv4' ? 32 : 128))
    return null;
  return [addr, Number(bits)];
}
