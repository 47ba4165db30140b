import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import dnsPacket from 'dns-packet';
import type { Logger } from 'pino';
import { type DnsEgress, peerText } from '../egress.ts';
import { parsePeer, type Peer } from './transfer.ts';
import type { ZoneIndex } from './zone-index.ts';
import { WIRE } from '../rr/wire-names.ts';

const OPCODE_NOTIFY = 4 << 11;
const TRIES = 3;
const WAIT_MS = 1000;

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
}

/** What a NOTIFY says of a version: a queued one keeps this much alive, not the version's index. */
type Notified = Pick<ZoneIndex, 'zone' | 'serial' | 'soa'>;

/** Sends NOTIFY (RFC 1996) for the zone's SOA to one peer, retrying until it answers. */
export function sendNotify(zone: Notified, peer: Peer, logger: Logger, stats?: NotifyStats): Promise<boolean> {
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
    let timer: NodeJS.Timeout;
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      if (stats) stats[ok ? 'acknowledged' : 'unanswered']++;
      if (ok) logger.info({ ...facts, tries }, 'dns: NOTIFY acknowledged');
      else logger.warn({ ...facts, tries: TRIES }, 'dns: NOTIFY not acknowledged');
      resolve(ok);
    };
    const send = () => {
      if (tries++ >= TRIES) return done(false);
      socket.send(message, peer.port, peer.address);
      if (stats) stats.sent++;
      // The first send only: retries show in the acknowledged or not-acknowledged line.
      if (tries === 1) logger.info(facts, 'dns: NOTIFY sent');
      timer = setTimeout(send, WAIT_MS);
    };
    socket.on('message', (msg) => {
      if (msg.length >= 2 && msg.readUInt16BE(0) === id) done(true);
    });
    socket.on('error', () => done(false));
    send();
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
let inFlight = 0;
const waiting: (() => void)[] = [];

/** Runs `send` when fewer than NOTIFY_IN_FLIGHT others run (exported for its test). */
export async function inTurn<T>(send: () => Promise<T>): Promise<T> {
  if (inFlight < NOTIFY_IN_FLIGHT) inFlight++;
  else await new Promise<void>((turn) => waiting.push(turn));
  try {
    return await send();
  } finally {
    // The slot passes straight to the next in line; only an empty line frees it.
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  }
}

/** NOTIFY every target of every changed zone that the egress fence allows; never throws. */
export async function notifyAll(
  changed: ZoneIndex[],
  secondaries: readonly Peer[],
  egress: DnsEgress,
  logger: Logger,
  stats?: NotifyStats,
): Promise<void> {
  const sends = changed.flatMap((zone) => {
    const { allowed, refused } = egress.split(notifyTargets(zone, secondaries));
    if (refused.length)
      logger.warn(
        { zone: zone.zone, refused: refused.map(peerText) },
        'dns: NOTIFY not sent: outside --dns-peers-allow',
      );
    const version: Notified = { zone: zone.zone, serial: zone.serial, soa: zone.soa };
    return allowed.map((peer) => inTurn(() => sendNotify(version, peer, logger, stats)));
  });
  await Promise.all(sends);
}
