import { createSocket, type Socket } from 'node:dgram';
import { createServer, isIPv6, type Server, type Socket as TcpSocket } from 'node:net';
import type { Logger } from 'pino';
import { type Clock, systemClock } from '../../clock.ts';
import { DEFAULTS } from '../../config.ts';
import { capConnections, DESCRIPTOR_SHARES, defaultTotalCap } from '../../net/connection-cap.ts';
import { parsePeer } from '../peers.ts';
import type { ZoneFinder } from './resolve.ts';
import type { Stale } from './serving-set.ts';
import { DnsCounters } from './counters.ts';
import { RRL_SLIP, ResponseRateLimiter, responseKeyOf, slipReply } from './rrl.ts';
import { type AnswerFacts, answerMessage, headerOnly, MAX_CACHED } from './server.ts';
import { serveDnsTcp, TCP_IDLE_MS, type TcpLimits } from './tcp.ts';
import { type FastUdp, type FastUdpOptions, fastUdpAvailable, openFastUdp, udpPlan } from './udp-fast.ts';

export type { TcpLimits } from './tcp.ts';

/** Limits on DNS over UDP; the field names are Config's, so a Config can be passed as is. */
export interface UdpLimits {
  /** Response rate limiting: identical responses a second to one client network; 0: off (rrl.ts). */
  dnsRrlRate?: number;
  /** `--secondaries` (ADDR[:PORT]): exempt from rate limiting, as they poll every zone. */
  secondaries?: readonly string[];
  /** `--dns-workers`: name-server processes binding the port together (udpPlan shares the cores out). */
  dnsWorkers?: number;
  /** Which of them this is, from 0: they bind in this order (workers.ts). */
  dnsWorker?: number;
}

/** A UDP reply, the key it is rate limited under, and the zone it came from ('' for none). */
interface UdpReply {
  out: Buffer;
  rrl: string;
  zone: string;
}

/** A cached reply and its zone's count of changes when it was made: stale once the count moved. */
interface CachedUdp extends UdpReply {
  changes: number;
}

/** Zones changed in one swap beyond which emptying the whole native cache is cheaper than matching each entry. */
const CLEAR_ALL_ABOVE = 256;

/** Vigil's authoritative name server: UDP and TCP on one address and port. */
export class NameServer {
  private udp: Socket | null = null;
  /**
   * UDP replies by the query's bytes after its ID: a repeated question
   * skips decoding altogether. Only standard queries are stored (never
   * NOTIFY), and the map starts over when it is full or the whole set
   * changes. A change in one zone makes that zone's replies stale and no
   * other's (`changes`, issue 32).
   */
  private udpReplies = new Map<string, CachedUdp>();
  /** Per zone ('' : names in no zone), how many times its replies went stale. */
  private readonly changes = new Map<string, number>();
  /** The native batched UDP I/O when it was built (udp-fast.ts); node:dgram otherwise. */
  private fast: FastUdp | null = null;
  /** Pushes the clock's time to the native rate limiter (its cache hits never ask JavaScript). */
  private ticker: NodeJS.Timeout | null = null;
  private tcp: Server | null = null;
  private readonly sockets = new Set<TcpSocket>();

  private readonly limits: Required<TcpLimits>;
  private readonly rrlRate: number;
  private readonly rrlExempt: string[];
  /** node:dgram's rate limiter; the native I/O keeps its own (native/rrl.c). */
  private readonly rrl: ResponseRateLimiter | null;
  private readonly udpOptions: FastUdpOptions;
  /** Replies and transfers, for the metrics (plain numbers: this is the hot path). */
  readonly counters: DnsCounters;

  constructor(
    private readonly zones: ZoneFinder & { onReplace?(fn: (stale: Stale) => void): void },
    private readonly logger: Logger,
    limits: TcpLimits & UdpLimits = {},
    counters?: DnsCounters,
    private readonly clock: Clock = systemClock,
  ) {
    this.counters = counters ?? new DnsCounters();
    // Defaults: those of src/config.ts.
    this.limits = {
      maxConnectionsPerIp: limits.maxConnectionsPerIp ?? 64,
      dnsTcpLifetimeMs: limits.dnsTcpLifetimeMs ?? 60_000,
      dnsTcpIdleMs: limits.dnsTcpIdleMs ?? TCP_IDLE_MS,
    };
    this.rrlRate = limits.dnsRrlRate ?? DEFAULTS.dnsRrlRate;
    this.udpOptions = udpPlan(limits.dnsWorkers ?? 1, limits.dnsWorker ?? 0);
    this.rrlExempt = (limits.secondaries ?? []).flatMap((s) => parsePeer(s)?.address ?? []);
    this.rrl = this.rrlRate > 0 ? new ResponseRateLimiter(this.rrlRate, this.rrlExempt, clock) : null;
    // The native cache answers without asking JavaScript: it must forget a replaced version at once.
    zones.onReplace?.((stale) => this.forget(stale));
  }

  /** The replies a swap made stale: those of the changed zones alone, or all (serving-set.ts, Stale). */
  private forget(stale: Stale): void {
    const zones = stale ? [...stale.zones, ...(stale.outside ? [''] : [])] : null;
    if (!zones || zones.length > CLEAR_ALL_ABOVE) {
      this.udpReplies = new Map();
      this.fast?.clear();
      return;
    }
    for (const z of zones) this.changes.set(z, (this.changes.get(z) ?? 0) + 1);
    this.fast?.clearZones(zones);
  }

  private answerUdp(msg: Buffer, address: string): UdpReply | undefined {
    if (msg.length < 12 || msg.length > 512) return this.answerOne(msg, address);
    const key = msg.toString('latin1', 2);
    const cached = this.udpReplies.get(key);
    if (cached && cached.changes === (this.changes.get(cached.zone) ?? 0)) {
      const copy = Buffer.from(cached.out);
      msg.copy(copy, 0, 0, 2); // the query's ID
      return { out: copy, rrl: cached.rrl, zone: cached.zone };
    }
    const reply = this.answerOne(msg, address);
    const standardQuery = (msg.readUInt16BE(2) & 0xf800) === 0; // QR=0, opcode QUERY
    if (reply && standardQuery && reply.out.length >= 12) {
      if (this.udpReplies.size >= MAX_CACHED) this.udpReplies.clear();
      this.udpReplies.set(key, { ...reply, changes: this.changes.get(reply.zone) ?? 0 });
    }
    return reply;
  }

  private answerOne(msg: Buffer, address: string): UdpReply | undefined {
    const facts: AnswerFacts = {};
    const [out] = this.safeAnswer(msg, 'udp', address, facts);
    return out ? { out, rrl: facts.rrl ?? responseKeyOf(out), zone: facts.zone ?? '' } : undefined;
  }

  private safeAnswer(message: Buffer, transport: 'udp' | 'tcp', client: string, facts?: AnswerFacts): Buffer[] {
    try {
      return answerMessage(this.zones, message, transport, client, facts);
    } catch (err) {
      this.logger.error({ err }, 'dns: answering failed');
      return message.length >= 12 ? [headerOnly(message, 'SERVFAIL')] : [];
    }
  }

  /**
   * Binds UDP and TCP; port 0 picks a free port (both on the same one). With `tcp` false only UDP is bound:
   * a DNS worker's TCP connections are accepted by the main process and handed in (serveTcp, workers.ts).
   */
  async listen(host: string, port: number, tcp = true): Promise<number> {
    const server = this.tcpServer();
    if (tcp) await new Promise<void>((res, rej) => server.once('error', rej).listen(port, host, () => res()));
    const bound = tcp ? (server.address() as { port: number }).port : port;
    this.tcp = server;
    return this.listenUdp(host, bound);
  }

  /** A DNS-over-TCP connection accepted elsewhere (a DNS worker's, from the main process): capped and served here. */
  serveTcp(socket: TcpSocket): void {
    this.tcp?.emit('connection', socket);
  }

  /** The DNS-over-TCP server with its caps (not listening yet). */
  private tcpServer(): Server {
    const tcp = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      serveDnsTcp(socket, this.limits, {
        answer: (message, peer) => this.answerTcp(message, peer),
        served: () => cap.served(socket),
      });
    });
    // At its total, DNS over TCP sheds as the HTTP listeners do (issue 28): refusing the newcomer let slow
    // connections from a few addresses keep every new client out until the 10 s idle timer (docs/security.md,
    // the bench's "DNS does not shed" row). Answers are written at once, so a connection still holding unsent
    // replies (a transfer to a slow reader) is the only one being served; idle and half-sent ones may go.
    const cap = capConnections(tcp, {
      perAddress: this.limits.maxConnectionsPerIp,
      total: defaultTotalCap(DESCRIPTOR_SHARES['dns-tcp']),
      shed: (socket) => socket.writableLength === 0,
      logger: this.logger,
      name: 'dns-tcp',
    });
    return tcp;
  }

  private async listenUdp(host: string, bound: number): Promise<number> {
    if (fastUdpAvailable()) {
      const fast = openFastUdp(host, bound, this.udpOptions, (msg, address, port) => {
        fast.tick(this.clock.now());
        const reply = this.answerUdp(msg, address);
        if (!reply) return;
        // The native limiter decides (and counts) for its cache hits and for these alike: one set of buckets.
        if (fast.send(reply.out, address, port, reply.rrl) !== 'drop') this.counters.reply(0, reply.out);
        if ((msg.readUInt16BE(2) & 0xf800) === 0 && reply.out.length >= 12)
          fast.store(msg, reply.out, reply.rrl, reply.zone);
      });
      fast.rateLimit(this.rrlRate, RRL_SLIP, this.rrlExempt);
      fast.tick(this.clock.now());
      // 100 ms: the granularity of the native buckets' refill (2 tokens at the default 20 a second).
      if (this.rrlRate > 0) this.ticker = setInterval(() => fast.tick(this.clock.now()), 100).unref();
      this.fast = fast;
      // Its cache hits are answered in C: counted there, read when scraped.
      this.counters.native = () => (this.fast ? fast.stats() : null);
      return bound;
    }
    const udp = createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4', recvBufferSize: 4 * 1024 * 1024 });
    udp.on('message', (msg, rinfo) => {
      const reply = this.answerUdp(msg, rinfo.address);
      if (!reply) return;
      let out = reply.out;
      const verdict = this.rrl?.check(rinfo.address, reply.rrl) ?? 'answer';
      if (verdict === 'drop') {
        this.counters.rrl.dropped++;
        return;
      }
      if (verdict === 'slip') {
        this.counters.rrl.slipped++;
        out = slipReply(out);
      }
      this.counters.reply(0, out);
      udp.send(out, rinfo.port, rinfo.address);
    });
    udp.on('error', (err) => this.logger.error({ err }, 'dns: udp socket error'));
    await new Promise<void>((res, rej) => udp.once('error', rej).bind(bound, host, () => res()));
    this.udp = udp;
    return bound;
  }

  /** One message over TCP: never rate limited (the handshake proves the source). */
  private answerTcp(message: Buffer, peer: string): Buffer[] {
    const facts: AnswerFacts = {};
    const replies = this.safeAnswer(message, 'tcp', peer, facts);
    if (replies[0]) this.counters.reply(1, replies[0]);
    if (facts.transfer) this.transferred(facts.transfer, peer);
    return replies;
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
    if (this.ticker) clearInterval(this.ticker);
    this.fast?.close();
    this.fast = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((res) => (this.tcp ? this.tcp.close(() => res()) : res()));
  }
}
