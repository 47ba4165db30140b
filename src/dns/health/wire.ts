import { createSocket } from 'node:dgram';
import { connect, isIPv6 } from 'node:net';
import { randomInt } from 'node:crypto';
import dnsPacket, { type Answer, type Packet } from 'dns-packet';
import type { Peer } from '../peers.ts';

/** A reply as the checks read it; null from `ask` means no reply in time. */
export interface Reply {
  rcode: string;
  aa: boolean;
  ra: boolean;
  answers: Answer[];
  authorities: Answer[];
  additionals: Answer[];
}

export interface AskOptions {
  /** RD: a resolver recurses; off for an authoritative server (RFC 1035 §4.1.1). */
  recurse: boolean;
  /** EDNS DO (RFC 4035 §3.2.1): DNSSEC records in the reply; CD is set too, so a broken chain still answers. */
  dnssec?: boolean;
  timeoutMs: number;
}

/**
 * 1232 bytes: the EDNS buffer size DNS Flag Day 2020 settled on, small
 * enough to avoid IP fragmentation; bigger replies come back truncated and
 * are asked again over TCP (RFC 7766 §5).
 */
const EDNS_SIZE = 1232;

function message(id: number, name: string, type: string, o: AskOptions): Buffer {
  const flags = (o.recurse ? dnsPacket.RECURSION_DESIRED : 0) | (o.dnssec ? dnsPacket.CHECKING_DISABLED : 0);
  return dnsPacket.encode({
    id,
    type: 'query',
    flags,
    questions: [{ name, type: type as Answer['type'], class: 'IN' }],
    additionals: [
      { type: 'OPT', name: '.', udpPayloadSize: EDNS_SIZE, flags: o.dnssec ? dnsPacket.DNSSEC_OK : 0 } as Answer,
    ],
  });
}

function replyOf(p: Packet & Record<string, unknown>): Reply {
  return {
    rcode: String(p.rcode ?? 'NOERROR'),
    aa: Boolean(p.flag_aa),
    ra: Boolean(p.flag_ra),
    answers: p.answers ?? [],
    authorities: p.authorities ?? [],
    additionals: (p.additionals ?? []).filter((a) => a.type !== 'OPT'),
  };
}

/** A record's RDATA as dns-packet decodes it (its Answer union types it per record type). */
export const rdata = <T = unknown>(a: Answer): T => (a as unknown as { data: T }).data;

/** One question to one server: UDP, then TCP when the reply is truncated. Never throws. */
export async function ask(server: Peer, name: string, type: string, o: AskOptions): Promise<Reply | null> {
  const started = Date.now();
  const udp = await overUdp(server, name, type, o);
  if (udp !== 'truncated') return udp;
  return overTcp(server, name, type, { ...o, timeoutMs: Math.max(200, o.timeoutMs - (Date.now() - started)) });
}

function overUdp(server: Peer, name: string, type: string, o: AskOptions): Promise<Reply | null | 'truncated'> {
  const id = randomInt(65536);
  return new Promise((resolve) => {
    const socket = createSocket(isIPv6(server.address) ? 'udp6' : 'udp4');
    let done = false;
    const finish = (r: Reply | null | 'truncated') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      resolve(r);
    };
    const timer = setTimeout(() => finish(null), o.timeoutMs);
    socket.on('message', (msg) => {
      try {
        const p = dnsPacket.decode(msg) as unknown as Packet & Record<string, unknown>;
        if (p.id !== id) return;
        finish(p.flag_tc ? 'truncated' : replyOf(p));
      } catch {
        finish(null);
      }
    });
    // Connected: an ICMP port-unreachable ends the wait at once instead of costing the timeout.
    socket.on('error', () => finish(null));
    socket.connect(server.port, server.address, () => socket.send(message(id, name, type, o)));
  });
}

function overTcp(server: Peer, name: string, type: string, o: AskOptions): Promise<Reply | null> {
  const id = randomInt(65536);
  return new Promise((resolve) => {
    const socket = connect({ host: server.address, port: server.port });
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (r: Reply | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => finish(null), o.timeoutMs);
    socket.on('connect', () => {
      const m = message(id, name, type, o);
      const len = Buffer.alloc(2);
      len.writeUInt16BE(m.length);
      socket.write(Buffer.concat([len, m]));
    });
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length < 2 || buf.length < 2 + buf.readUInt16BE(0)) return;
      try {
        const p = dnsPacket.decode(buf.subarray(2, 2 + buf.readUInt16BE(0))) as unknown as Packet &
          Record<string, unknown>;
        finish(p.id === id ? replyOf(p) : null);
      } catch {
        finish(null);
      }
    });
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(null));
  });
}
