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
