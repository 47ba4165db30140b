/**
 * Round-trip time and the timeout derived from it, per host, as RFC 6298
 * computes TCP's RTO and nmap its probe timeouts (timing.cc,
 * adjust_timeouts2):
 *   first sample R:  srtt = R, rttvar = R / 2
 *   then:            rttvar = 3/4 rttvar + 1/4 |srtt - R|,  srtt = 7/8 srtt + 1/8 R
 *   timeout = srtt + 4 rttvar, clamped to [min, max]
 * Only first attempts are sampled (Karn's rule, RFC 6298 §3): the answer
 * to a retried probe may belong to either attempt.
 */
export interface Timing {
  /** Timeout before any sample, and its floor and ceiling (ms). */
  initialTimeoutMs: number;
  minTimeoutMs: number;
  maxTimeoutMs: number;
}

export class RttEstimator {
  srtt = -1;
  rttvar = 0;
  samples = 0;

  constructor(private readonly t: Timing) {}

  /** A measured round trip (ms). */
  sample(r: number): void {
    const rtt = Math.max(0, r);
    if (this.srtt < 0) {
      this.srtt = rtt;
      this.rttvar = rtt / 2;
    } else {
      this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - rtt);
      this.srtt = 0.875 * this.srtt + 0.125 * rtt;
    }
    this.samples++;
  }

  /** Start from what discovery measured, so the first probes already wait the right time. */
  seed(srtt: number, rttvar: number): void {
    this.srtt = srtt;
    this.rttvar = rttvar;
  }

  /** How long a probe's first attempt may wait for an answer (ms). */
  timeout(): number {
    if (this.srtt < 0) return this.t.initialTimeoutMs;
    return Math.min(this.t.maxTimeoutMs, Math.max(this.t.minTimeoutMs, this.srtt + 4 * this.rttvar));
  }
}

/** Own samples below which a host's variance is taken from the group's (the other hosts, on the same path). */
const FEW = 4;

/**
 * A host's probe timeout, as nmap keeps group and host timing (timing.cc):
 * with nothing measured on the host, the group's (every answer of the scan:
 * an empty address waits as long as the live ones took, not the initial
 * 1 s); with a seed or a few samples only, its srtt with the group's
 * variance (one sample's rttvar is R/2, RFC 6298 §2.2: a firewalled host,
 * whose only answers are its open ports, kept a 2 × RTT timeout all scan
 * long, 600 ms at 200 ms RTT, and 65,534 ports of it took 365 s); then its
 * own.
 */
export function hostTimeout(own: RttEstimator, group: RttEstimator, t: Timing): number {
  if (own.srtt < 0) return group.timeout();
  if (own.samples < FEW && group.samples >= FEW)
    return Math.min(t.maxTimeoutMs, Math.max(t.minTimeoutMs, own.srtt + 4 * group.rttvar));
  return own.timeout();
}
