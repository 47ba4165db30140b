import ipaddr from 'ipaddr.js';
import { fail } from '../errors.ts';
import { parseIP } from '../ip.ts';
import { parsePattern, parsePatternList, patternContains, type Pattern } from './patterns.ts';

/** ARCHITECTURE.md: one request covers at most this many addresses. */
export const MAX_TARGETS = 256;

/** An address in the one form we store and compare: IPv4 dotted, IPv6 canonical, mapped IPv4 unwrapped. */
export function canonicalAddress(text: string): string | null {
  let addr = parseIP(text); // not ipaddr.parse: it reads `::127.0.0.5` as mapped 127.0.0.5 (src/ip.ts)
  if (addr === null) return null;
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  // ipaddr.js prints IPv6 in RFC 5952 form (lower case, longest zero run compressed).
  return addr.toString();
}

function size(p: Pattern): number {
  if (p.kind === 'octets') return p.ranges.reduce((n, [lo, hi]) => n * (hi - lo + 1), 1);
  const hostBits = (p.addr.kind() === 'ipv4' ? 32 : 128) - p.bits;
  return hostBits > 30 ? Infinity : 2 ** hostBits;
}

function* addresses(p: Pattern): Generator<string> {
  if (p.kind === 'octets') {
    const [a, b, c, d] = p.ranges as [[number, number], [number, number], [number, number], [number, number]];
    for (let w = a[0]; w <= a[1]; w++)
      for (let x = b[0]; x <= b[1]; x++)
        for (let y = c[0]; y <= c[1]; y++) for (let z = d[0]; z <= d[1]; z++) yield `${w}.${x}.${y}.${z}`;
    return;
  }
  const bytes = p.addr.toByteArray();
  const hostBits = bytes.length * 8 - p.bits;
  for (let i = 0; i < 2 ** hostBits; i++) {
    const out = [...bytes];
    // Clear the host part, then write i into it (host part < 31 bits here).
    for (let bit = 0; bit < hostBits; bit++) {
      const byte = bytes.length - 1 - (bit >> 3);
      const mask = 1 << (bit & 7);
      out[byte] = ((i >> bit) & 1 ? out[byte]! | mask : out[byte]! & ~mask) & 0xff;
    }
    yield canonicalAddress(ipaddr.fromByteArray(out).toString())!;
  }
}

/**
 * The exact addresses of an `ipaddr` field (spec 4.1): comma-separated
 * patterns, `*` and `a-b` in any octet, CIDRs, single IPv4/IPv6 addresses;
 * absent or blank means the caller's own address. Sizes are computed before
 * anything is expanded, so `*.*.*.*` costs nothing. A malformed pattern or
 * more than MAX_TARGETS addresses answers IPPermissionsProblem: the caller
 * holds no permission for what cannot be named (docs/audits.md).
 */
export function expandTargets(
  ipaddrField: string | undefined,
  clientAddress: string,
): { hostip: string; addresses: string[] } {
  const text = ipaddrField?.trim() ? ipaddrField : clientAddress;
  const items = text.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) fail('IPPermissionsProblem');
  const patterns = items.map((s) => parsePattern(s) ?? fail('IPPermissionsProblem'));
  if (patterns.reduce((n, p) => n + size(p), 0) > MAX_TARGETS) fail('IPPermissionsProblem');
  const seen = new Set<string>();
  for (const p of patterns) for (const a of addresses(p)) seen.add(a);
  return { hostip: items.join(','), addresses: [...seen] };
}

/** Whether every address is inside the account's grants and the server's --scan-allow fence. */
export function permitted(addresses: readonly string[], allowIp: string, scanAllow: readonly string[]): boolean {
  const grants = parsePatternList(allowIp) ?? [];
  const fence = scanAllow.map(parsePattern).filter((p): p is Pattern => p !== null);
  return addresses.every((a) => grants.some((g) => patternContains(g, a)) && fence.some((f) => patternContains(f, a)));
}
