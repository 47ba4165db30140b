import { createSocket, type Socket } from 'node:dgram';
import { createServer, isIPv6, type Server, type Socket as TcpSocket } from 'node:net';
import dnsPacket, { type Answer, type Packet } from 'dns-packet';
import type { Logger } from 'pino';
import { capConnections } from '../../net/connection-cap.ts';
import { resolve, type ZoneFinder } from './resolve.ts';
import { withDnssec } from './dnssec-answer.ts';
import { transferMessages } from './transfer.ts';
import { DnsCounters } from './counters.ts';
import { type FastUdp, fastUdpAvailable, openFastUdp } from './udp-fast.ts';

const OPCODE_NOTIFY = 4;
const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
type RcodeName = keyof typeof RCODE;
/** Our advertised EDNS payload size (the DNS flag day 2020 value). */
const EDNS_SIZE = 1232;
/**
 * Longest wait for the next complete query on a TCP connection (RFC 7766
 * 6.2.3 asks for an idle timeout, suggests seconds). It restarts on each
 * complete message, not on each byte: restarted per byte, one byte every
 * 5 s held a connection for ever (issue 12).
 */
const TCP_IDLE_MS = 10_000;
/**
 * Replies queued to a client that is not reading them before we stop reading its queries (pipelined AXFRs
 * would grow it without end).
 */
const TCP_MAX_QUEUED = 1024 * 1024;
/** Cached replies per zone version before the cache starts over. */
const MAX_CACHED = 100_000;

/** A bare error reply made from the query's header alone (when its body cannot be read). */
function headerOnly(query: Buffer, rcode: RcodeName): Buffer {
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
    const key = `${q.name}|${q.type}|${message.readUInt16BE(2) & 0x0100}|${transport === 'tcp' ? 'tcp' : opt ? Math.min(opt.udpPayloadSize ?? 512, 4096) : 'udp'}|${dnssecOk ? 'do' : ''}`;
    const cached = zone?.replies.get(key);
    if (cached) {
      const copy = Buffer.from(cached);
      copy.writeUInt16BE(query.id ?? 0, 0);
      return [copy];
    }
    const plain = resolve(zones, q.name, q.type);
    const r = dnssecOk && zone?.nsecChain ? withDnssec(zone, plain) : plain;
    const out = encodeWithin(reply(r.rcode, r.aa, r), transport, opt);
    // Bounded: a flood of random names must not grow memory without end.
    if (zone && out.length) {
      if (zone.replies.size >= MAX_CACHED) zone.replies.clear();
      zone.replies.set(key, out);
    }
    return [out];
  }
  return [encodeWithin(packet, transport, opt)];
}

/** What answering one message did that its caller may log. */
export interface AnswerFacts {
  transfer?: { zone: string; type: 'AXFR' | 'IXFR'; served: boolean };
}

/**
 * Encodes a reply within what the transport allows; too big for UDP: TC and empty sections, so the client
 * retries over TCP.
 */
function encodeWithin(packet: Packet, transport: 'udp' | 'tcp', opt: { udpPayloadSize?: number } | undefined): Buffer {
  const limit = transport === 'tcp' ? 65535 : opt ? Math.max(512, Math.min(opt.udpPayloadSize ?? 512, 4096)) : 512;
  const out = dnsPacket.encode(packet);
  if (out.length <= limit) return out;
  return dnsPacket.encode({
    ...packet,
    flags: (packet.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE,
    answers: [],
    authorities: [],
    additionals: packet.additionals!.filter((a) => a.type === 'OPT'),
  });
}

/** Limits on DNS over TCP; the field names are Config's, so a Config can be passed as is. */
export interface TcpLimits {
  /** Open TCP connections per client address (an IPv6 client is its /64). */
  maxConnectionsPerIp?: number;
  /** Total life of one connection, however busy. */
  dnsTcpLifetimeMs?: number;
  /** Wait for the next complete query. */
  dnsTcpIdleMs?: number;
}

/** Vigil's authoritative name server: UDP and TCP on one address and port. */
export class NameServer {
  private udp: Socket | null = null;
  /**
   * UDP replies by the query's bytes after its ID, for the current serving
   * generation: a repeated question skips decoding altogether. Only
   * standard queries are stored (never NOTIFY), and the map starts over
   * when it is full or the serving set changes.
   */
  private udpReplies = new Map<string, Buffer>();
  private udpGeneration = -1;
  /** The native batched UDP I/O when it was built (udp-fast.ts); node:dgram otherwise. */
  private fast: FastUdp | null = null;
  private tcp: Server | null = null;
  private readonly sockets = new Set<TcpSocket>();

  private readonly limits: Required<TcpLimits>;
  /** Replies and transfers, for the metrics (plain numbers: this is the hot path). */
  readonly counters: DnsCounters;

  constructor(
    private readonly zones: ZoneFinder & { generation?: number; onReplace?(fn: () => void): void },
    private readonly logger: Logger,
    limits: TcpLimits = {},
    counters?: DnsCounters,
  ) {
    this.counters = counters ?? new DnsCounters();
    // Defaults: those of src/config.ts.
    this.limits = { maxConnectionsPerIp: 64, dnsTcpLifetimeMs: 60_000, dnsTcpIdleMs: TCP_IDLE_MS, ...limits };
    // The native cache answers without asking JavaScript: it must forget a replaced serving set at once.
    zones.onReplace?.(() => this.fast?.clear());
  }

  private answerUdp(msg: Buffer, address: string): Buffer | undefined {
    if (msg.length < 12 || msg.length > 512) return this.safeAnswer(msg, 'udp', address)[0];
    if (this.zones.generation !== this.udpGeneration) {
      this.udpReplies = new Map();
      this.udpGeneration = this.zones.generation ?? -1;
    }
    const key = msg.toString('latin1', 2);
    const cached = this.udpReplies.get(key);
    if (cached) {
      const copy = Buffer.from(cached);
      msg.copy(copy, 0, 0, 2); // the query's ID
      return copy;
    }
    const [out] = this.safeAnswer(msg, 'udp', address);
    const standardQuery = (msg.readUInt16BE(2) & 0xf800) === 0; // QR=0, opcode QUERY
    if (out && standardQuery && out.length >= 12) {
      if (this.udpReplies.size >= MAX_CACHED) this.udpReplies.clear();
      this.udpReplies.set(key, out);
    }
    return out;
  }

  private safeAnswer(message: Buffer, transport: 'udp' | 'tcp', client: string, facts?: AnswerFacts): Buffer[] {
    try {
      return answerMessage(this.zones, message, transport, client, facts);
    } catch (err) {
      this.logger.error({ err }, 'dns: answering failed');
      return message.length >= 12 ? [headerOnly(message, 'SERVFAIL')] : [];
    }
  }

  /** Binds UDP and TCP; port 0 picks a free port (both on the same one). */
  async listen(host: string, port: number): Promise<number> {
    const tcp = createServer((socket) => this.serveTcp(socket));
    capConnections(tcp, { perAddress: this.limits.maxConnectionsPerIp, logger: this.logger, name: 'dns-tcp' });
    await new Promise<void>((res, rej) => tcp.once('error', rej).listen(port, host, () => res()));
    const bound = (tcp.address() as { port: number }).port;
    this.tcp = tcp;
    if (fastUdpAvailable()) {
      const fast = openFastUdp(host, bound, 1, (msg, address, port) => {
        const out = this.answerUdp(msg, address);
        if (!out) return;
        this.counters.reply(0, out);
        this.fast?.send(out, address, port);
        if ((msg.readUInt16BE(2) & 0xf800) === 0 && out.length >= 12) this.fast?.store(msg, out);
      });
      this.fast = fast;
      // Its cache hits are answered in C: counted there, read when scraped.
      this.counters.native = () => (this.fast ? fast.stats() : null);
      return bound;
    }
    const udp = createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4', recvBufferSize: 4 * 1024 * 1024 });
    udp.on('message', (msg, rinfo) => {
      const out = this.answerUdp(msg, rinfo.address);
      if (!out) return;
      this.counters.reply(0, out);
      udp.send(out, rinfo.port, rinfo.address);
    });
    udp.on('error', (err) => this.logger.error({ err }, 'dns: udp socket error'));
    await new Promise<void>((res, rej) => udp.once('error', rej).bind(bound, host, () => res()));
    this.udp = udp;
    return bound;
  }

  /**
   * DNS over TCP: 2-byte length prefix per message (RFC 1035 4.2.2).
   * Three limits bound what one connection holds: an idle timer that only
   * a complete query (or the client reading our replies) restarts, a total
   * lifetime that nothing restarts, and a cap on replies queued unread.
   */
  private serveTcp(socket: TcpSocket): void {
    this.sockets.add(socket);
    const lifetime = setTimeout(() => socket.destroy(), this.limits.dnsTcpLifetimeMs);
    let idle = setTimeout(() => socket.destroy(), this.limits.dnsTcpIdleMs);
    const active = () => {
      clearTimeout(idle);
      idle = setTimeout(() => socket.destroy(), this.limits.dnsTcpIdleMs);
    };
    socket.on('close', () => {
      clearTimeout(lifetime);
      clearTimeout(idle);
      this.sockets.delete(socket);
    });
    socket.on('error', () => socket.destroy());
    // A client draining a long transfer is busy, not idle.
    socket.on('drain', () => {
      active();
      socket.resume();
    });
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk as Buffer]);
      while (pending.length >= 2) {
        const size = pending.readUInt16BE(0);
        if (pending.length < 2 + size) break;
        active();
        const facts: AnswerFacts = {};
        const replies = this.safeAnswer(pending.subarray(2, 2 + size), 'tcp', socket.remoteAddress ?? '', facts);
        pending = pending.subarray(2 + size);
        if (replies[0]) this.counters.reply(1, replies[0]);
        if (facts.transfer) this.transferred(facts.transfer, socket.remoteAddress ?? '');
        for (const out of replies) {
          const len = Buffer.alloc(2);
          len.writeUInt16BE(out.length);
          socket.write(Buffer.concat([len, out]));
        }
      }
      if (socket.writableLength > TCP_MAX_QUEUED) socket.pause();
    });
  }

  /** An AXFR/IXFR over TCP: one line each, served or refused (a refusal is what an operator looks for). */
  private transferred(t: NonNullable<AnswerFacts['transfer']>, peer: string): void {
    if (t.served) this.counters.transfers.served++;
    else this.counters.transfers.refused++;
    const line = { zone: t.zone, type: t.type, peer };
    if (t.served) this.logger.info(line, 'dns: zone transfer served');
    else this.logger.warn(line, 'dns: zone transfer refused');
  }

  async close(): Promise<void> {
    this.udp?.close();
    this.fast?.close();
    this.fast = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((res) => (this.tcp ? this.tcp.close(() => res()) : res()));
  }
}
