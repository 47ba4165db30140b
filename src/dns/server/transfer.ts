import dnsPacket, { type Answer, type Packet } from 'dns-packet';
import ipaddr from 'ipaddr.js';
import type { ZoneIndex } from './zone-index.ts';
import type { Peer } from '../peers.ts';

export { parsePeer, type Peer } from '../peers.ts';

function matches(entry: string, address: string): boolean {
  try {
    const addr = ipaddr.process(address);
    if (entry.includes('/')) {
      const [net, bits] = ipaddr.parseCIDR(entry);
      return addr.kind() === net.kind() && addr.match(net, bits);
    }
    return ipaddr.process(entry).toString() === addr.toString();
  } catch {
    return false;
  }
}

/** Zone transfers go to the configured secondaries and the zone's allowtransferacl, nobody else. */
export function transferAllowed(zone: ZoneIndex, address: string, secondaries: readonly Peer[]): boolean {
  if (secondaries.some((s) => matches(s.address, address))) return true;
  return zone.options.allowtransferacl.split(',').filter(Boolean).some((entry) => matches(entry, address));
}

const CHUNK = 16_000;

/**
 * AXFR (RFC 5936): SOA, every record, SOA again, in as many messages as
 * needed. An IXFR is answered the same way (RFC 1995 4: a full transfer is
 * always a valid reply when no increment is kept).
 */
export function transferMessages(zone: ZoneIndex, query: Packet, flags: number): Buffer[] {
  const records: Answer[] = [...zone.all, zone.soa];
  const messages: Buffer[] = [];
  let batch: Answer[] = [];
  let size = 0;
  const flush = () => {
    messages.push(
      dnsPacket.encode({
        id: query.id,
        type: 'response',
        flags: flags | dnsPacket.AUTHORITATIVE_ANSWER,
        questions: messages.length === 0 ? query.questions : [],
        answers: batch,
      }),
    );
    batch = [];
    size = 0;
  };
  for (const rr of records) {
    const length = (dnsPacket as unknown as { answer: { encodingLength(a: Answer): number } }).answer.encodingLength(rr);
    if (size + length > CHUNK && batch.length) flush();
    batch.push(rr);
    size += length;
  }
  flush();
  return messages;
}
