/** Transports in the order of `DnsCounters.replies`. */
export const TRANSPORTS = ['udp', 'tcp'] as const;
/** Names of the RCODEs a reply header holds (RFC 1035, 2136); others are shown by number. */
export const RCODE_NAMES = [
  'NOERROR',
  'FORMERR',
  'SERVFAIL',
  'NXDOMAIN',
  'NOTIMP',
  'REFUSED',
  'YXDOMAIN',
  'YXRRSET',
  'NXRRSET',
  'NOTAUTH',
  'NOTZONE',
];

/** A copy of the counters, as a name-server worker sends it to the main process. */
export interface DnsCountsSnapshot {
  replies: number[];
  transfers: { served: number; refused: number };
  /** `cleared`: cached replies removed because their zone changed (clearZones, issue 32). */
  native: { hits: number; misses: number; dropped: number; cleared?: number };
  /** UDP responses response rate limiting dropped, or sent as an empty TC reply instead (the slip). */
  rrl: { dropped: number; slipped: number };
}

/** What the native UDP I/O counts (udp-fast.ts `stats`). */
type NativeCounts = DnsCountsSnapshot['native'] & {
  rrlDropped?: number;
  rrlSlipped?: number;
  /** Replies held. */
  entries?: number;
};

/**
 * What the name server answered, counted on its hot path in plain numbers
 * (one array increment per reply; nothing of the metrics library there):
 * the metrics collector reads them when scraped (src/metrics.ts).
 */
export class DnsCounters {
  /** Replies by transport (index in TRANSPORTS) * 16 + RCODE. */
  readonly replies = new Float64Array(TRANSPORTS.length * 16);
  readonly transfers = { served: 0, refused: 0 };
  /** node:dgram's rate limiting (the native I/O counts its own, in `native`). */
  readonly rrl = { dropped: 0, slipped: 0 };
  /** The native UDP I/O's counters (its cache hits never reach JavaScript), when it runs. */
  native: () => NativeCounts | null = () => null;
  /** Latest snapshot of each name-server worker process, by pid. */
  readonly workers = new Map<number, DnsCountsSnapshot>();

  reply(transport: 0 | 1, reply: Buffer): void {
    if (reply.length >= 4) this.replies[transport * 16 + (reply[3]! & 15)]!++;
  }

  snapshot(): DnsCountsSnapshot {
    const n = this.native();
    return {
      replies: Array.from(this.replies),
      transfers: { ...this.transfers },
      native: { hits: n?.hits ?? 0, misses: n?.misses ?? 0, dropped: n?.dropped ?? 0, cleared: n?.cleared ?? 0 },
      rrl: {
        dropped: this.rrl.dropped + (n?.rrlDropped ?? 0),
        slipped: this.rrl.slipped + (n?.rrlSlipped ?? 0),
      },
    };
  }

  /** This process's counts plus every worker's last report. */
  totals(): DnsCountsSnapshot {
    const total = this.snapshot();
    for (const w of this.workers.values()) {
      w.replies.forEach((n, i) => (total.replies[i]! += n));
      total.transfers.served += w.transfers.served;
      total.transfers.refused += w.transfers.refused;
      total.native.hits += w.native.hits;
      total.native.misses += w.native.misses;
      total.native.dropped += w.native.dropped;
      total.native.cleared = (total.native.cleared ?? 0) + (w.native.cleared ?? 0);
      total.rrl.dropped += w.rrl?.dropped ?? 0;
      total.rrl.slipped += w.rrl?.slipped ?? 0;
    }
    return total;
  }
}
