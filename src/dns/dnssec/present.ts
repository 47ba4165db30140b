import type { Answer } from 'dns-packet';
import { presentName } from '../text.ts';
import { typeByWire, typeText } from '../records.ts';
import { rdataWire } from './canonical.ts';
import { base32hex } from './nsec3.ts';

/**
 * Master-file text (RFC 1035 5, RFC 4034 2.2/3.2/4.2/5.3 for the DNSSEC
 * types) of signed records, for validators in tests and for dnsBuildZone
 * later. Names go through text.ts's presentName like every zone line, so
 * no stored byte can break the file.
 */
const fqdn = (name: string) =>
  name === '' || name === '.' ? '.' : name.endsWith('.') ? presentName(name) : `${presentName(name)}.`;

/** YYYYMMDDHHmmSS in UTC (RFC 4034 3.2), from RRSIG's 32-bit seconds. */
function stamp(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** RFC 3597's generic form, which every parser reads: exactly the RDATA that was signed. */
function generic(a: Answer): string {
  const w = rdataWire(a);
  return `\\# ${w.length - 2} ${w.subarray(2).toString('hex')}`;
}

function rdataText(a: Answer): string {
  const d = (a as { data: any }).data;
  // The record table's types present themselves; what follows is DNSSEC's own.
  const kit = typeByWire(a.type)?.wire;
  if (kit) return kit.present(d) ?? generic(a);
  switch (a.type) {
    case 'DNSKEY':
      return `${d.flags} 3 ${d.algorithm} ${d.key.toString('base64')}`;
    case 'RRSIG':
      return `${typeText(d.typeCovered)} ${d.algorithm} ${d.labels} ${d.originalTTL} ${stamp(d.expiration)} ${stamp(d.inception)} ${d.keyTag} ${fqdn(d.signersName)} ${d.signature.toString('base64')}`;
    case 'NSEC':
      return `${fqdn(d.nextDomain)} ${d.rrtypes.map(typeText).join(' ')}`;
    case 'CDS':
    case 'CDNSKEY': {
      // Raw RDATA (dns-packet has no codec): DS's and DNSKEY's layouts (RFC 7344 3).
      const b = d as Buffer;
      return a.type === 'CDS'
        ? `${b.readUInt16BE(0)} ${b[2]} ${b[3]} ${b.length > 4 ? b.subarray(4).toString('hex').toUpperCase() : '00'}`
        : `${b.readUInt16BE(0)} ${b[2]} ${b[3]} ${b.length > 4 ? b.subarray(4).toString('base64') : 'AA=='}`;
    }
    case 'NSEC3': {
      const salt = d.salt.length ? d.salt.toString('hex').toUpperCase() : '-';
      return `${d.algorithm} ${d.flags} ${d.iterations} ${salt} ${base32hex(d.nextDomain).toUpperCase()} ${d.rrtypes.map(typeText).join(' ')}`.trimEnd();
    }
    case 'NSEC3PARAM': {
      // Raw RDATA (dns-packet has no codec): algorithm, flags, iterations, salt.
      const b = d as Buffer;
      const salt = b.subarray(5, 5 + b[4]!);
      return `${b[0]} ${b[1]} ${b.readUInt16BE(2)} ${salt.length ? salt.toString('hex').toUpperCase() : '-'}`;
    }
    default:
      return generic(a);
  }
}

/** One line per record: owner, TTL, class, type, RDATA. */
export function recordLine(a: Answer): string {
  return `${fqdn(a.name)}\t${(a as { ttl?: number }).ttl ?? 0}\tIN\t${typeText(a.type)}\t${rdataText(a)}`;
}

export function masterFile(records: readonly Answer[]): string {
  return records.map(recordLine).join('\n') + '\n';
}
