import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import dnsPacket from 'dns-packet';
import type { Logger } from 'pino';
import { type Clock, systemClock } from '../../clock.ts';
import { Gate } from '../../gate.ts';
import { peerText } from '../egress.ts';
import { parsePeer, type Peer } from './transfer.ts';
import type { ZoneIndex } from './zone-index.ts';
import { WIRE } from '../rr/wire-names.ts';

const OPCODE_NOTIFY = 4 << 11;
/**
 * Sends of one NOTIFY and the wait after each. RFC 1996 3.6 leaves both to
 * the operator ("reasonable defaults are a 60 second interval ... and a
 * maximum of 5 retransmissions"); a second apart tells a live secondary
 * within seconds, and notify-peers.ts bounds what a dead one costs.
 */
export const TRIES = 3;
export const WAIT_MS = 1000;
/**
 * The wait is measured on the service's clock (a test moves it instead of
 * sleeping); the timer looks at the clock this often at most, so a send
 * goes at most this late. A NOTIFY answered in time clears its timer; only
 * unanswered ones (NOTIFY_IN_FLIGHT at most) wake, 5 times a second.
 */
const RECHECK_MS = 200;

/**
 * Who hears of a new version (ARCHITECTURE.md): the configured secondaries
 * always; with notify `yes` (the default) also the zone's NS hosts that
 * resolve inside the zone, and with `yes` or `explicit` the alsonotify list.
 */
export function notifyTargets(zone: ZoneIndex, secondaries: readonly Peer[]): Peer[] {
  const targets = new Map<string, Peer>();
  const add = (p: Peer | null) => p && targets.set(`${p.address}#${p.port}`, p);
  secondaries.forEach(add);
  const mode = zone.options.notify || 'yes';
  if (mode === 'yes') {
    for (const ns of zone.nodes.get(zone.zone)?.get(WIRE.NS) ?? []) {
      const host = zone.nodes.get(String((ns as { data: string }).data).toLowerCase());
      for (const a of [...(host?.get(WIRE.A) ?? []), ...(host?.get(WIRE.AAAA) ?? [])])
        add(parsePeer(String((a as { data: string }).data)));
    }
  }
  if (mode === 'yes' || mode === 'explicit')
    zone.options.alsonotify
      .split(',')
      .filter(Boolean)
      .forEach((a) => add(parsePeer(a)));
  return [...targets.values()];
}

/** NOTIFY messages sent (a retry counts again) and acknowledged; plain numbers the metrics read. */
export interface NotifyStats {
  sent: number;
  acknowledged: number;
  unanswered: number;
  /** NOTIFYs held back from an unresponsive peer (notify-peers.ts), sent when it answers again. */
  deferred: number;
  /** Peers unresponsive now. */
  unresponsive: number;
}

/** What a NOTIFY says of a version: a queued one keeps this much alive, not the version's index. */
export type Notified = Pick<ZoneIndex, 'zone' | 'serial' | 'soa'>;

/**
 * Sends NOTIFY (RFC 1996) for the zone's SOA to one peer until it answers,
 * TRIES times WAIT_MS apart on `clock`, or until the peer's host says the
 * port is closed (ICMP port unreachable, heard on the connected socket as
 * an error: RFC 1996 3.6 names it as a reason to stop).
 */
export function sendNotify(
  zone: Notified,
  peer: Peer,
  logger: Logger,
  stats?: NotifyStats,
  clock: Clock = systemClock,
): Promise<boolean> {
  const facts = { zone: zone.zone, serial: zone.serial, peer: peerText(peer) };
  const id = Math.floor(Math.random() * 65536);
  const message = dnsPacket.encode({
    id,
    type: 'query',
    flags: OPCODE_NOTIFY | dnsPacket.AUTHORITATIVE_ANSWER,
    questions: [{ type: WIRE.SOA, name: zone.zone, class: 'IN' }],
    answers: [zone.soa],
  });
  return new Promise((resolve) => {
    const socket = createSocket(isIPv6(peer.address) ? 'udp6' : 'udp4');
    let tries = 0;
    let deadline = 0;
    let over = false;
    let timer: NodeJS.Timeout | undefined;
    /** `error`: the socket's code (ECONNREFUSED: the peer's host says the port is closed). */
    const done = (ok: boolean, error?: string) => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      socket.close();
      if (stats) stats[ok ? 'acknowledged' : 'unanswered']++;
      if (ok) logger.info({ ...facts, tries }, 'dns: NOTIFY acknowledged');
      else logger.warn({ ...facts, tries, error }, 'dns: NOTIFY not acknowledged');
      resolve(ok);
    };
    const wait = () => {
      const left = deadline - clock.now();
      if (left <= 0) return send();
      // Unref'd, as the socket: a NOTIFY still waiting never keeps a stopping process alive.
      timer = setTimeout(wait, Math.min(left, RECHECK_MS)).unref();
    };
    const send = () => {
      if (over) return;
      if (tries >= TRIES) return done(false);
      tries++;
      socket.send(message);
      if (stats) stats.sent++;
      // The first send only: retries show in the acknowledged or not-acknowledged line.
      if (tries === 1) logger.info(facts, 'dns: NOTIFY sent');
      deadline = clock.now() + WAIT_MS;
      wait();
    };
    socket.on('message', (msg) => {
      if (msg.length >= 2 && msg.readUInt16BE(0) === id) done(true);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => done(false, e.code));
    socket.unref();
    // Connected: only the peer's address and port are heard (RFC 1996 3.6), and its ICMP errors too.
    socket.connect(peer.port, peer.address, send);
  });
}

/**
 * NOTIFY sockets open at once in this process. Each NOTIFY has its own
 * socket while it waits for its answer (up to TRIES x WAIT_MS): a cycle
 * that served 100,000 zones opened 100,000 at once, past the 20,000 open
 * files allowed here (EMFILE, and the DNS listener's accepts failed with
 * it). The rest wait their turn, first come first served.
 */
export const NOTIFY_IN_FLIGHT = 256;

const line = new Gate(NOTIFY_IN_FLIGHT);

/** Runs `send` when fewer than NOTIFY_IN_FLIGHT others run (exported for its test). */
export const inTurn = <T>(send: () => Promise<T>): Promise<T> => line.run(send);
