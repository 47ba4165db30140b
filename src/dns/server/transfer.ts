import dnsPacket, { type Answer, type Packet } from 'dns-packet';
import { parsePattern, patternContains } from '../../audit/patterns.ts';
import type { ZoneIndex } from './zone-index.ts';
import type { Peer } from '../peers.ts';
import { WIRE } from '../rr/wire-names.ts';
import { compressMessage } from './compress.ts';

export { parsePeer, type Peer } from '../peers.ts';

/**
 * An ACL entry (address or CIDR) against the asking address, read through
 * src/ip.ts like every typed address: ipaddr.js alone reads `::a.b.c.d`
 * as IPv4-mapped, so an old entry in that form matched the IPv4 address.
 */
function matches(entry: string, address: string): boolean {
  const pattern = parsePattern(entry);
  return pattern !== null && patternContains(pattern, address);
}

/** Zone transfers go to the configured secondaries and the zone's allowtransferacl, nobody else. */
export function transferAllowed(zone: ZoneIndex, address: string, secondaries: readonly Peer[]): boolean {
  if (secondaries.some((s) => matches(s.address, address))) return true;
  return zone.options.allowtransferacl
    .split(',')
    .filter(Boolean)
    .some((entry) => matches(entry, address));
}

const CHUNK = 16_000;

const key = (a: Answer) => `${a.name.toLowerCase()}|${a.type}|${JSON.stringify((a as { data?: unknown }).data)}`;

/**
 * The records of a zone transfer. AXFR (RFC 5936): SOA, every record, SOA.
 * IXFR (RFC 1995) from the version just before this one: new SOA, old SOA,
 * the records gone, new SOA, the records added, new SOA; from a client
 * already up to date: the SOA alone; from any older version: a full
 * transfer, which RFC 1995 allows as the reply to an IXFR.
 */
export function transferRecords(zone: ZoneIndex, query: Packet): Answer[] {
  const q = query.questions![0]!;
  if (q.type === 'IXFR') {
    const theirs = (query.authorities ?? []).find((a) => a.type === WIRE.SOA) as
      | { data: { serial: number } }
      | undefined;
    if (theirs && theirs.data.serial === zone.serial) return [zone.soa];
    if (theirs && zone.previous && theirs.data.serial === zone.previous.serial) {
      const before = new Set(zone.previous.all.slice(1).map(key));
      const now = new Set(zone.all.slice(1).map(key));
      const gone = zone.previous.all.slice(1).filter((a) => !now.has(key(a)));
      const added = zone.all.slice(1).filter((a) => !before.has(key(a)));
      return [zone.soa, zone.previous.all[0]!, ...gone, zone.soa, ...added, zone.soa];
    }
  }
  return [...zone.all, zone.soa];
}

/** A transfer in as many messages as needed (~16 KB each), the question in the first. */
export function transferMessages(zone: ZoneIndex, query: Packet, flags: number): Buffer[] {
  const records = transferRecords(zone, query);
  const messages: Buffer[] = [];
  let batch: Answer[] = [];
  let size = 0;
  const flush = () => {
    // Compressed (compress.ts): a transfer is mostly names under the apex, as Knot and BIND send it.
    messages.push(
      compressMessage(
        dnsPacket.encode({
          id: query.id,
          type: 'response',
          flags: flags | dnsPacket.AUTHORITATIVE_ANSWER,
          questions: messages.length === 0 ? query.questions : [],
          answers: batch,
        }),
      ),
    );
    batch = [];
    size = 0;
  };
  for (const rr of records) {
    const length = (dnsPacket as unknown as { answer: { encodingLength(a: Answer): number } }).answer.encodingLength(
      rr,
    );
    if (size + length > CHUNK && batch.length) flush();
    batch.push(rr);
    size += length;
  }
  flush();
  return messages;
}
