/**
 * DNS UPDATE (RFC 2136) over the fenced Net: one message over UDP, its
 * rcode back. dns-packet has no UPDATE type: the opcode (5, RFC 2136 §1.3)
 * goes in the header flags, the zone in the question section (ZOCOUNT)
 * and the changes in the authority section (UPCOUNT, §2.5).
 */
import { randomInt } from 'node:crypto';
import * as dnsPacket from 'dns-packet';
import type { Net } from '../engine/types.ts';

const OPCODE_UPDATE = 5 << 11;

export interface TxtChange {
  name: string;
  /** Set to add; null deletes the name's TXT RRset (CLASS ANY, TTL 0, RDLENGTH 0: RFC 2136 §2.5.2). */
  text: string | null;
}

/** The rcode of the server's answer to an UPDATE of `zone`, or null (timeout, not DNS, another id). */
export async function dnsUpdateTxt(net: Net, port: number, zone: string, change: TxtChange): Promise<string | null> {
  try {
    const id = randomInt(1, 65535);
    const rr =
      change.text === null
        ? { name: change.name, type: 'TXT', class: 'ANY', ttl: 0, data: [] as Buffer[] }
        : { name: change.name, type: 'TXT', class: 'IN', ttl: 60, data: [change.text] };
    const msg = dnsPacket.encode({
      type: 'query',
      id,
      flags: OPCODE_UPDATE,
      questions: [{ name: zone, type: 'SOA', class: 'IN' }],
      authorities: [rr as dnsPacket.Answer],
    });
    const raw = await net.udpRequest(port, msg, { timeoutMs: 2500 });
    if (!raw) return null;
    const back = dnsPacket.decode(raw) as dnsPacket.DecodedPacket & { rcode?: string; opcode?: string };
    return back.id === id && back.opcode === 'UPDATE' ? (back.rcode ?? 'NOERROR') : null;
  } catch {
    return null;
  }
}
