import type { Logger } from 'pino';
import { type Clock, systemClock } from '../../clock.ts';
import { Gate } from '../../gate.ts';
import { type DnsEgress, peerText } from '../egress.ts';
import { inTurn, NOTIFY_IN_FLIGHT, type Notified, notifyTargets, type NotifyStats, sendNotify } from './notify.ts';
import type { Peer } from './transfer.ts';
import type { ZoneIndex } from './zone-index.ts';

/**
 * NOTIFYs in a row a peer leaves unanswered (each TRIES sends WAIT_MS
 * apart, notify.ts) before it counts as unresponsive: nine lost messages
 * in a row are a dead or unreachable server, not a lossy path.
 */
export const UNRESPONSIVE_AFTER = 3;

/**
 * NOTIFYs one peer may have waiting for their answers at once: half the
 * process's NOTIFY_IN_FLIGHT, so that a peer not found out yet (its first
 * NOTIFYs still waiting out their tries) never holds every slot, and the
 * other peers' NOTIFYs go out beside it. One live secondary still gets 128
 * at once: 100,000 zones at a 50 ms round trip take 40 s.
 */
export const PEER_IN_FLIGHT = NOTIFY_IN_FLIGHT / 2;

interface PeerState {
  /** NOTIFYs in a row that got no answer. */
  unanswered: number;
  /** Clock time it was found unresponsive; null while it answers. */
  since: number | null;
  /** Unresponsive: this round's one NOTIFY is still to go. */
  probe: boolean;
  /** Each zone's latest version this peer has not acknowledged (held back, or unanswered): sent when it answers. */
  owed: Map<string, Notified>;
  /** Its own line before the process's (PEER_IN_FLIGHT). */
  line: Gate;
}

/**
 * Each NOTIFY target's record of answering, so that one dead secondary
 * costs little. Before this, every NOTIFY to a peer that never answers
 * held one of the NOTIFY_IN_FLIGHT slots for its TRIES x WAIT_MS (3 s):
 * a mass change of 100,000 zones took 100,000 x 3 s / 256 slots, about
 * 20 minutes, to give up on it, and the live secondaries' NOTIFYs waited
 * in the same line.
 *
 * RFC 1996 3.6 has the primary retransmit until an answer, a timeout or an
 * ICMP port unreachable, with the interval and count the operator's to
 * set; 3.3 lets it drop a peer from its retry queue once it answers. Here,
 * after UNRESPONSIVE_AFTER NOTIFYs in a row without an answer a peer is
 * unresponsive: each round (a reload that changed zones) sends it one
 * NOTIFY, the first its turn comes to, and holds the rest back, keeping
 * each zone's latest version. Its first answer ends that: it is told of
 * every zone held back or left unanswered, and is a peer like the others
 * again. Until it is found out it holds at most PEER_IN_FLIGHT of the
 * slots, so the live peers' NOTIFYs go out beside its first ones. A
 * secondary also polls each zone at its SOA refresh (RFC 1996 1.1, RFC
 * 1035 4.3.5), so a NOTIFY held back delays, at worst, what the secondary
 * finds at its next refresh.
 *
 * The log says when a peer turns unresponsive and when it answers again;
 * the metrics count NOTIFYs held back and the peers unresponsive now
 * (docs/secondaries.md, "A secondary that does not answer").
 */
export class NotifyPeers {
  readonly stats: NotifyStats = { sent: 0, acknowledged: 0, unanswered: 0, deferred: 0, unresponsive: 0 };
  private readonly peers = new Map<string, PeerState>();

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  /** A new round: each unresponsive peer may take one NOTIFY in it. */
  round(): void {
    for (const st of this.peers.values()) if (st.since !== null) st.probe = true;
  }

  /** Whether `peer` is unresponsive now. */
  unresponsive(peer: Peer): boolean {
    return (this.peers.get(keyOf(peer))?.since ?? null) !== null;
  }

  /** NOTIFY of `version` to `peer` in its turn (the peer's line, then the process's); true once acknowledged. */
  send(version: Notified, peer: Peer): Promise<boolean> {
    return this.state(peer).line.run(() => inTurn(() => this.notify(version, peer)));
  }

  /** NOTIFY of `version` to `peer`, or held back if the peer is unresponsive and had its one this round. */
  private async notify(version: Notified, peer: Peer): Promise<boolean> {
    const st = this.state(peer);
    if (st.since !== null) {
      if (!st.probe) {
        st.owed.set(version.zone, version);
        this.stats.deferred++;
        return false;
      }
      st.probe = false;
    }
    st.owed.delete(version.zone);
    const ok = await sendNotify(version, peer, this.logger, this.stats, this.clock);
    if (ok) this.answered(st, peer, version);
    else this.missed(st, peer, version);
    return ok;
  }

  private state(peer: Peer): PeerState {
    const key = keyOf(peer);
    let st = this.peers.get(key);
    if (!st) {
      st = { unanswered: 0, since: null, probe: false, owed: new Map(), line: new Gate(PEER_IN_FLIGHT) };
      this.peers.set(key, st);
    }
    return st;
  }

  private missed(st: PeerState, peer: Peer, version: Notified): void {
    st.unanswered++;
    // A newer version held back meanwhile stays: the peer is owed the latest.
    if (!st.owed.has(version.zone)) st.owed.set(version.zone, version);
    if (st.since !== null || st.unanswered < UNRESPONSIVE_AFTER) return;
    st.since = this.clock.now();
    st.probe = false;
    this.stats.unresponsive++;
    this.logger.warn(
      { peer: peerText(peer), unanswered: st.unanswered, owed: st.owed.size },
      'dns: NOTIFY peer unresponsive: one NOTIFY a round until it answers',
    );
  }

  private answered(st: PeerState, peer: Peer, version: Notified): void {
    st.unanswered = 0;
    st.owed.delete(version.zone);
    if (st.since !== null) {
      this.stats.unresponsive--;
      this.logger.info(
        { peer: peerText(peer), unresponsiveMs: this.clock.now() - st.since, owed: st.owed.size },
        'dns: NOTIFY peer answers again',
      );
      st.since = null;
    }
    if (!st.owed.size) return;
    const owed = [...st.owed.values()];
    st.owed.clear();
    // In line like every other NOTIFY; each is held back again should the peer stop answering.
    for (const v of owed) void this.send(v, peer);
  }
}

const keyOf = (p: Peer) => `${p.address}#${p.port}`;

/**
 * NOTIFY every target of every changed zone that the egress fence allows,
 * each peer as `peers` allows (an unresponsive one gets one NOTIFY a round);
 * never throws.
 */
export async function notifyAll(
  changed: ZoneIndex[],
  secondaries: readonly Peer[],
  egress: DnsEgress,
  logger: Logger,
  peers: NotifyPeers,
): Promise<void> {
  peers.round();
  const sends = changed.flatMap((zone) => {
    const { allowed, refused } = egress.split(notifyTargets(zone, secondaries));
    if (refused.length)
      logger.warn(
        { zone: zone.zone, refused: refused.map(peerText) },
        'dns: NOTIFY not sent: outside --dns-peers-allow',
      );
    const version: Notified = { zone: zone.zone, serial: zone.serial, soa: zone.soa };
    return allowed.map((peer) => peers.send(version, peer));
  });
  await Promise.all(sends);
}
