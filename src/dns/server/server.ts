import dnsPacket, { type Answer, type Packet } from 'dns-packet';
import { resolve, type ZoneFinder } from './resolve.ts';
import { withDnssec } from './dnssec-answer.ts';
import { transferMessages } from './transfer.ts';
import { responseKey } from './rrl.ts';
import { compressMessage } from './compress.ts';

const OPCODE_NOTIFY = 4;
const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
type RcodeName = keyof typeof RCODE;
/** Our advertised EDNS payload size (the DNS flag day 2020 value). */
const EDNS_SIZE = 1232;
/** Cached replies per zone version before the cache starts over. */
export const MAX_CACHED = 100_000;

/** A bare error reply made from the query's header alone (when its body cannot be read). */
export function headerOnly(query: Buffer, rcode: RcodeName): Buffer {
  const out = Buffer.alloc(12);
  out.writeUInt16BE(query.readUInt16BE(0), 0);
  const opcode = query.readUInt16BE(2) & 0x7800;
  out.writeUInt16BE(0x8000 | opcode | RCODE[rcode], 2);
  return out;
}

/**
 * Answers one DNS message from `client`. UDP replies fit 512 bytes or the
 * client's EDNS size; TCP replies 65535. Returns the reply messages: none
 * when no reply is due (a response, a message too short to carry an ID),
 * several for a zone transfer. A zone transfer asked over TCP is reported
 * in `facts` (this function has no logger; its caller logs it).
 */
export function answerMessage(
  zones: ZoneFinder,
  message: Buffer,
  transport: 'udp' | 'tcp',
  client = '',
  facts?: AnswerFacts,
): Buffer[] {
  if (message.length < 12) return [];
  let query: Packet;
  try {
    query = dnsPacket.decode(message);
  } catch {
    return [headerOnly(message, 'FORMERR')];
  }
  if (query.type === 'response') return [];
  const q = query.questions?.[0];
  const opt = query.additionals?.find((a) => a.type === 'OPT') as
    | { udpPayloadSize?: number; flags?: number }
    | undefined;
  // RFC 3225: DO asks for DNSSEC records, and the reply's OPT says it was seen.
  const dnssecOk = ((opt?.flags ?? 0) & dnsPacket.DNSSEC_OK) !== 0;
  const reply = (rcode: RcodeName, aa: boolean, sections: Partial<Packet> = {}): Packet => ({
    id: query.id,
    type: 'response',
    flags:
      ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) |
      (aa ? dnsPacket.AUTHORITATIVE_ANSWER : 0) |
      RCODE[rcode] |
      (message.readUInt16BE(2) & 0x7800),
    questions: query.questions,
    answers: sections.answers ?? [],
    authorities: sections.authorities ?? [],
    additionals: [
      ...(sections.additionals ?? []),
      ...(opt
        ? [{ type: 'OPT', name: '.', udpPayloadSize: EDNS_SIZE, flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0 } as Answer]
        : []),
    ],
  });
  let packet: Packet;
  const opcode = (message.readUInt16BE(2) & 0x7800) >> 11;
  if (opcode === OPCODE_NOTIFY && q)
    packet = reply(zones.notified?.(q.name.toLowerCase(), client) ? 'NOERROR' : 'REFUSED', true);
  else if (opcode !== 0) packet = reply('NOTIMP', false);
  else if (!q || query.questions!.length !== 1) packet = reply('FORMERR', false);
  else if (q.class !== 'IN' && q.class !== 'ANY') packet = reply('REFUSED', false);
  else if (q.type === 'AXFR' || q.type === 'IXFR') {
    const zone = zones.find(q.name.toLowerCase());
    if (facts) facts.zone = zone?.zone ?? '';
    if (transport === 'udp')
      packet = {
        ...reply('NOERROR', false),
        flags: (reply('NOERROR', false).flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE,
      };
    else if (zone && zone.zone === q.name.toLowerCase() && zones.transferAllowed(zone, client)) {
      if (facts) facts.transfer = { zone: zone.zone, type: q.type, served: true };
      return transferMessages(zone, query, message.readUInt16BE(2) & 0x7800);
    } else {
      if (facts) facts.transfer = { zone: q.name.toLowerCase(), type: q.type, served: false };
      packet = reply('REFUSED', false);
    }
  } else {
    const zone = zones.find(q.name.toLowerCase().replace(/\.$/, ''));
    if (facts) facts.zone = zone?.zone ?? '';
    const key = `${q.name}|${q.type}|${message.readUInt16BE(2) & 0x0100}|${transport === 'tcp' ? 'tcp' : opt ? Math.min(opt.udpPayloadSize ?? 512, 4096) : 'udp'}|${dnssecOk ? 'do' : ''}`;
    const cached = zone?.replies.get(key);
    if (cached) {
      const copy = Buffer.from(cached.out);
      copy.writeUInt16BE(query.id ?? 0, 0);
      if (facts) facts.rrl = cached.rrl;
      return [copy];
    }
    // RFC 8482: ANY over UDP (a spoofable question) gets one RRset; over TCP, every set as before.
    const plain = resolve(zones, q.name, q.type, transport === 'udp');
    const r = zone && dnssecOk && (zone.nsecChain || zone.nsec3) ? withDnssec(zone, plain) : plain;
    const out = encodeWithin(reply(r.rcode, r.aa, r), transport, opt);
    const rrl = responseKey(q.name.toLowerCase().replace(/\.$/, ''), q.type, zone?.zone, plain);
    if (facts) facts.rrl = rrl;
    // Bounded: a flood of random names must not grow memory without end.
    if (zone && out.length) {
      if (zone.replies.size >= MAX_CACHED) zone.replies.clear();
      zone.replies.set(key, { out, rrl });
    }
    return [out];
  }
  return [encodeWithin(packet, transport, opt)];
}

/** What answering one message did that its caller may log. */
export interface AnswerFacts {
  transfer?: { zone: string; type: 'AXFR' | 'IXFR'; served: boolean };
  /** Which responses count as the same one for rate limiting (rrl.ts); absent: the reply's opcode and RCODE. */
  rrl?: string;
  /** The zone whose data the reply came from ('' for none): the reply caches forget it when that zone changes. */
  zone?: string;
}

/**
 * Encodes a reply within what the transport allows, its names compressed
 * (compress.ts) before the size is judged, as every C server does: more
 * answers fit 512 bytes. Too big for UDP: an authoritative answer first
 * sheds its additional section, which is optional (RFC 2181 9: TC is not
 * set "merely because some extra information could have been included");
 * a referral keeps its glue and still too big, TC and empty sections, so the
 * client retries over TCP.
 */
function encodeWithin(packet: Packet, transport: 'udp' | 'tcp', opt: { udpPayloadSize?: number } | undefined): Buffer {
  const limit = transport === 'tcp' ? 65535 : opt ? Math.max(512, Math.min(opt.udpPayloadSize ?? 512, 4096)) : 512;
  const out = compressMessage(dnsPacket.encode(packet));
  if (out.length <= limit) return out;
  const optOnly = packet.additionals!.filter((a) => a.type === 'OPT');
  const authoritative = ((packet.flags ?? 0) & dnsPacket.AUTHORITATIVE_ANSWER) !== 0;
  if (authoritative && optOnly.length < packet.additionals!.length) {
    const lean = compressMessage(dnsPacket.encode({ ...packet, additionals: optOnly }));
    if (lean.length <= limit) return lean;
  }
  return dnsPacket.encode({
    ...packet,
    flags: (packet.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE,
    answers: [],
    authorities: [],
    additionals: optOnly,
  });
}
