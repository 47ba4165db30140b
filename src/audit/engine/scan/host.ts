/**
 * One host of the scan loop (engine.ts): its state, and the rules that
 * depend on it alone: how long a probe waits, how many tries a silent
 * port gets, when its window shrinks.
 */
import type { EngineOptions, HostSpec, HostTally } from './outcome.ts';
import { hostTimeout, RttEstimator } from './timing.ts';

export interface Host {
  i: number;
  t: HostTally;
  rtt: RttEstimator;
  next: number;
  retry: { port: number; attempt: number }[];
  /** Ports silent after every retry, for the last look. */
  last: number[];
  inflight: number;
  /** First attempts in flight: the host is only given up while new ports go unanswered, never over its retries. */
  fresh: number;
  cwnd: number;
  answers: number;
  late: number;
  lastAnswer: number;
  pingAt: number;
  /** Waiting for discovery (gate.ts): not scanned until admitted. */
  held: boolean;
  /** The highest attempt this host ever answered (nmap's max_successful_tryno). */
  tried: number;
  done: boolean;
}

export interface Probe {
  h: Host;
  port: number;
  attempt: number;
  start: number;
}

/** Answers per congestion verdict. */
const WINDOW = 64;

export function newHost(s: HostSpec, i: number, o: EngineOptions): Host {
  const rtt = new RttEstimator(o);
  if (s.seed) rtt.seed(s.seed.srtt, s.seed.rttvar);
  return {
    i,
    rtt,
    t: {
      address: s.address,
      open: [],
      closed: 0,
      filtered: 0,
      unreachable: 0,
      answered: false,
      via: null,
      srtt: null,
      rttvar: null,
      dropped: false,
      left: 0,
    },
    next: 0,
    retry: [],
    last: [],
    inflight: 0,
    fresh: 0,
    cwnd: o.perHost,
    answers: 0,
    late: 0,
    lastAnswer: 0,
    pingAt: -1,
    held: !!s.held,
    tried: 0,
    done: false,
  };
}

/**
 * Counts an answer (`late`: it came only on a retry); once per WINDOW
 * answers, halves the host's window if more than 10% were late, else grows
 * it. True when it halved: the caller shrinks the global window too.
 */
export function congested(h: Host, late: boolean, perHost: number): boolean {
  h.answers++;
  if (late) h.late++;
  if (h.answers < WINDOW) return false;
  const halve = h.late * 10 > h.answers;
  h.cwnd = halve ? Math.max(4, h.cwnd >> 1) : Math.min(perHost, h.cwnd + Math.max(1, h.cwnd >> 2));
  h.answers = 0;
  h.late = 0;
  return halve;
}

/**
 * The wait of a probe: the host's timeout (timing.ts), doubled per retry.
 * The last look (attempt `retries + 1`), sent once the stall that silenced
 * its port is likely over and little else is in flight, waits 4 timeouts,
 * at least 500 ms (10 round trips at 50 ms), at most 2.5 s (2 × the
 * maximum, its fixed wait before): that fixed 2.5 s was a third of the
 * 7.5 s a /24's `basic` scan took at 50 ms RTT (bench/wan.ts), every host
 * with one filtered port waiting for it.
 */
export function probeWait(h: Host, attempt: number, group: RttEstimator, o: EngineOptions): number {
  const t = hostTimeout(h.rtt, group, o);
  return attempt > o.retries ? Math.min(2 * o.maxTimeoutMs, Math.max(500, 4 * t)) : t * 2 ** attempt;
}

/**
 * The last attempt a silent port gets on this host: one more than the host
 * ever needed, at least one retry, at most `retries` (nmap's allowedTryno,
 * scan_engine.cc). A host that answered each port on its first try is not
 * losing packets: its silent ports are filtered, and a third try of each is
 * waste. A firewall dropping all but one of 65,535 ports cost 7 timeouts a
 * port, and set the `advanced` scan's time (bench/wan.ts, 200 ms RTT).
 */
export function lastAttempt(h: Host, o: EngineOptions): number {
  return Math.min(o.retries, Math.max(1, h.tried + 1));
}
