/** DNS over the fenced Net: one query, one answer (dns-packet encodes and decodes). */
import { randomInt } from 'node:crypto';
import * as dnsPacket from 'dns-packet';
import { WIRE } from '../../dns/rr/wire-names.ts';
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/**
 * One DNS question over UDP; the decoded answer with its id checked, or null (timeout, not DNS, another id).
 * `edns`: an OPT record offering 4096-byte answers (RFC 6891), as an amplifying client would send.
 */
export async function dnsQuery(
  net: Net,
  port: number,
  question: { name: string; type: string; class?: 'IN' | 'CH' },
  opts: { flags?: number; timeoutMs?: number; edns?: boolean } = {},
): Promise<{ raw: Buffer; msg: dnsPacket.DecodedPacket; querySize: number } | null> {
  try {
    const id = randomInt(1, 65535);
    const query = dnsPacket.encode({
      type: 'query',
      id,
      flags: opts.flags ?? 0,
      questions: [
        { type: question.type as dnsPacket.Question['type'], class: question.class ?? 'IN', name: question.name },
      ],
      additionals: opts.edns ? [{ type: 'OPT', name: '.', udpPayloadSize: 4096 } as dnsPacket.Answer] : [],
    });
    const raw = await net.udpRequest(port, query, { timeoutMs: opts.timeoutMs ?? 2500 });
    if (!raw) return null;
    const msg = dnsPacket.decode(raw);
    return msg.id === id ? { raw, msg, querySize: query.length } : null;
  } catch {
    return null;
  }
}

/** The TXT text of a CHAOS version.bind answer, or null. Never throws. */
export async function queryVersionBind(net: Net, port: number, timeoutMs = 2000): Promise<string | null> {
  const r = await dnsQuery(net, port, { type: WIRE.TXT, class: 'CH', name: 'version.bind' }, { timeoutMs });
  if (!r || r.raw.length > 4096) return null;
  for (const a of r.msg.answers ?? []) {
    if (a.type !== WIRE.TXT) continue;
    const parts = Array.isArray(a.data) ? a.data : [a.data];
    const text = parts.map((p) => (Buffer.isBuffer(p) ? p.toString('latin1') : String(p))).join('');
    return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
  }
  return null;
}

export type DnsAnswer = { rcode: string; aa: boolean; answers: dnsPacket.Answer[]; size: number; querySize: number };

/** dnsQuery, summed up: the rcode, the AA bit, the answers, and the sizes of question and answer. */
export async function dnsAsk(
  net: Net,
  port: number,
  name: string,
  type: string,
  klass: 'IN' | 'CH' = 'IN',
  edns = false,
): Promise<DnsAnswer | null> {
  const r = await dnsQuery(net, port, { name, type, class: klass }, { timeoutMs: 1500, edns });
  if (!r) return null;
  return {
    rcode: (r.msg as { rcode?: string }).rcode ?? 'NOERROR',
    aa: ((r.msg.flags ?? 0) & dnsPacket.AUTHORITATIVE_ANSWER) !== 0,
    answers: r.msg.answers ?? [],
    size: r.raw.length,
    querySize: r.querySize,
  };
}

export type Msg = ReturnType<typeof dnsPacket.decode>;
export const AA = 1 << 10;

/** One query over TCP (2-byte length framing, RFC 1035 §4.2.2); the whole reply stream for AXFR. */
export function tcpQuery(
  net: Net,
  port: number,
  name: string,
  type: string,
  klass = 'IN',
  axfr = false,
): Promise<Msg[] | null> {
  return talk(
    net,
    port,
    async (c) => {
      const id = Math.floor(Math.random() * 65535);
      const q = dnsPacket.streamEncode({
        type: 'query',
        id,
        flags: 0,
        questions: [{ name, type: type as typeof WIRE.SOA, class: klass as 'IN' }],
      });
      // AXFR: messages until a second SOA closes the zone, or the server closes, or 64 KB.
      const msgs = (b: Buffer) => {
        const out: Buffer[] = [];
        for (let at = 0; at + 2 <= b.length && at + 2 + b.readUInt16BE(at) <= b.length; at += 2 + b.readUInt16BE(at))
          out.push(b.subarray(at + 2, at + 2 + b.readUInt16BE(at)));
        return out;
      };
      const soaCount = (b: Buffer) =>
        msgs(b).reduce((n, m) => n + (m.toString('latin1').match(/\x00\x06\x00\x01/g)?.length ?? 0), 0);
      // A refused or failed transfer is one message with its RCODE (RFC 5936 §2.2.1): done at once. Before, a
      // REFUSED waited out the 4 s for a second SOA, per zone (8 s of dns.test.ts's hardened BIND twin).
      const failed = (b: Buffer) => (msgs(b)[0]?.readUInt8(3) ?? 0) & 0x0f;
      const r = await c.ask(q, 4000, (b) => msgs(b).length > 0 && (!axfr || soaCount(b) >= 2 || failed(b) !== 0));
      return msgs(r).flatMap((m) => {
        try {
          const d = dnsPacket.decode(m);
          return d.id === id ? [d] : [];
        } catch {
          return [];
        }
      });
    },
    8000,
  );
}
