/**
 * The scan loop, many hosts at once: which probe goes next, what an answer
 * or a silence means, when a host is finished. It opens nothing itself; a
 * `Probes` (probes.ts) does, so the same loop runs on the native addon in
 * a worker thread and on node:net anywhere else.
 *
 * - One global budget of probes in flight over all hosts (`budget`), and a
 *   window per host (`perHost`), taken round-robin so no host starves.
 * - Each host's timeout comes from its own RTT, or the group's while it has
 *   little of its own (timing.ts); a silent probe is retried, each time
 *   waiting twice as long, then counted filtered: once while the host never
 *   needed a retry, `retries` times once it did (host.ts, as nmap does).
 * - Back-off only when loss means congestion. A probe answered only on a
 *   retry was lost the first time; a retry that is never answered is a
 *   filtered port, not a loss. A host's window halves when more than 10%
 *   of its answers in a window of 64 needed a retry, and grows again when
 *   they do not. nmap halves on every drop (timing.cc, ultra_timing_vals::
 *   drop), which is why the issue saw it run 5× slower at 2% random loss:
 *   2% each way loses about 4% of first attempts, below the threshold.
 * - Last look: on a host that answers with RSTs, the few ports (at most a
 *   window) still silent after their retries are asked once more at the
 *   end of the whole scan (of the hosts discovery has let in), waiting
 *   4 timeouts, 0.5-2.5 s (host.ts). A
 *   path that stalls for a second (a loaded forwarder, a burst queued
 *   somewhere) made the bench/wan.ts run miss 3 of 103 open ports without
 *   it; all of a host's last looks run at once, so they cost one wait.
 * - A host that answered RSTs before and then goes silent for
 *   max(5 s, 20 timeouts) is dropped (it went away); a host that never sent
 *   a RST (a firewall dropping all but its open ports) is never dropped for
 *   silence, or its later open ports would be lost. Ports are probed in a
 *   random order (as nmap does), so a filtered range is no long silence.
 */
import {
  type EngineOptions,
  type HostSpec,
  type HostTally,
  OPEN,
  PENDING,
  type Probes,
  RESOURCE,
  UNREACHABLE,
} from './outcome.ts';
import { congested, type Host, lastAttempt, newHost, type Probe, probeWait } from './host.ts';
import { RttEstimator } from './timing.ts';

export { type EngineOptions, type HostSpec, type HostTally, OPEN, PENDING, type Probes, SELF } from './outcome.ts';

/** Probes in flight at the start, over all hosts (a TUN device queues 500 packets by default: bench/wan.ts). */
const START = 512;

export class ScanEngine {
  private readonly hosts: Host[];
  private readonly slots: (Probe | null)[];
  private readonly free: number[];
  private rr = 0;
  private limit: number;
  private pending: number;
  /** Every first-attempt answer of the scan, all hosts: the timing of hosts with little of their own. */
  private readonly group: RttEstimator;

  constructor(
    specs: readonly HostSpec[],
    private readonly ports: ArrayLike<number>,
    private readonly o: EngineOptions,
    private readonly probes: Probes,
    private readonly onHost: (i: number, t: HostTally) => void = () => {},
  ) {
    // Slow start over all hosts: the first burst is at most START probes, and every probe that ends
    // (answered or given up) lets one more out, so the window doubles per round trip up to the budget.
    this.limit = Math.min(o.budget, START);
    this.group = new RttEstimator(o);
    this.slots = new Array(o.budget).fill(null);
    this.free = Array.from({ length: o.budget }, (_, i) => o.budget - 1 - i);
    this.hosts = specs.map((s, i) => newHost(s, i, o));
    this.pending = this.hosts.length;
    if (ports.length === 0) for (const h of this.hosts) if (!h.held) this.finish(h);
  }

  /** Discovery found host `i` up: its scan starts, from the RTT discovery measured. */
  admit(i: number, seed: HostSpec['seed']): void {
    const h = this.hosts[i];
    if (!h?.held || h.done) return;
    h.held = false;
    if (seed) h.rtt.seed(seed.srtt, seed.rttvar);
    this.check(h);
  }

  /** Discovery found host `i` down: it is not scanned, and not reported (discovery did that). */
  skip(i: number): void {
    const h = this.hosts[i];
    if (!h?.held || h.done) return;
    h.held = false;
    h.done = true;
    this.pending--;
  }

  get finished(): boolean {
    return this.pending === 0;
  }

  get inflight(): number {
    return this.o.budget - this.free.length;
  }

  /** Starts what the budget, the windows and `burst` allow; returns how many started. */
  pump(now: number): number {
    let started = 0;
    let idle = 0;
    const n = this.hosts.length;
    while (started < this.o.burst && this.inflight < this.limit && idle < n) {
      const h = this.hosts[this.rr]!;
      this.rr = (this.rr + 1) % n;
      if (
        h.done ||
        h.held ||
        h.inflight >= h.cwnd ||
        (h.next >= this.ports.length && !h.retry.length && !this.lastLook(h))
      ) {
        idle++;
        continue;
      }
      idle = 0;
      const r = h.retry.pop();
      const probe: Probe = r
        ? { h, port: r.port, attempt: r.attempt, start: now }
        : { h, port: this.ports[h.next++]!, attempt: 0, start: now };
      const slot = this.free.pop()!;
      this.slots[slot] = probe;
      h.inflight++;
      if (probe.attempt === 0) h.fresh++;
      started++;
      const status = this.probes.connect(slot, h.i, probe.port);
      if (status !== PENDING) this.settle(slot, status, now);
      if (RESOURCE.has(status)) break;
    }
    return started;
  }

  /** A probe's outcome (from the poller). */
  complete(slot: number, status: number, now: number): void {
    if (this.slots[slot]) this.settle(slot, status, now);
  }

  /** An ICMP echo or timestamp reply from host `i`. */
  pinged(i: number, now: number): void {
    const h = this.hosts[i];
    if (!h || h.done) return;
    if (h.pingAt >= 0) {
      h.rtt.sample(now - h.pingAt);
      this.group.sample(now - h.pingAt);
    }
    h.t.answered = true;
    h.t.via ??= 'icmp';
    if (this.o.stopOnAnswer) this.finish(h);
  }

  /** Marks when pings went to host `i` (the RTT sample of its reply). */
  pingSent(i: number, now: number): void {
    const h = this.hosts[i];
    if (h && h.pingAt < 0) h.pingAt = now;
  }

  /** Ends probes past their timeout (retry or filtered), drops hosts gone silent, re-opens the budget. */
  expire(now: number): void {
    for (let slot = 0; slot < this.slots.length; slot++) {
      const p = this.slots[slot];
      if (!p) continue;
      if (now - p.start <= this.timeoutOf(p)) continue;
      this.release(slot);
      this.probes.cancel(slot);
      if (p.attempt < this.allowed(p.h)) p.h.retry.push({ port: p.port, attempt: p.attempt + 1 });
      else if (p.attempt <= this.o.retries && !this.o.stopOnAnswer) p.h.last.push(p.port);
      else p.h.t.filtered++;
      this.check(p.h);
    }
    for (const h of this.hosts) {
      if (h.done || !h.t.closed || !h.fresh) continue;
      if (now - h.lastAnswer > Math.max(5000, 20 * h.rtt.timeout())) {
        h.t.dropped = true;
        this.finish(h);
      }
    }
  }

  /** Ms until the earliest probe in flight times out (at most `cap`). */
  nextExpiry(now: number, cap: number): number {
    let wait = cap;
    for (const p of this.slots) if (p) wait = Math.min(wait, p.start + this.timeoutOf(p) - now);
    return Math.max(0, Math.ceil(wait));
  }

  /** Stops everything in flight; the hosts keep what they counted. */
  abort(): void {
    for (const h of this.hosts) if (h.held) this.skip(h.i);
    for (const h of this.hosts) if (!h.done) this.finish(h);
  }

  results(): HostTally[] {
    return this.hosts.map((h) => h.t);
  }

  private settle(slot: number, status: number, now: number): void {
    const p = this.release(slot);
    const h = p.h;
    if (RESOURCE.has(status)) {
      // Not an answer: same attempt later, with fewer sockets at once.
      this.limit = Math.max(16, this.inflight >> 1);
      h.retry.push({ port: p.port, attempt: p.attempt });
      return;
    }
    if (UNREACHABLE.has(status)) {
      h.t.unreachable++;
      this.check(h);
      return;
    }
    if (p.attempt === 0) {
      h.rtt.sample(now - p.start);
      this.group.sample(now - p.start);
    }
    h.tried = Math.max(h.tried, p.attempt);
    h.lastAnswer = now;
    h.t.answered = true;
    h.t.via ??= 'tcp';
    if (status === OPEN) h.t.open.push(p.port);
    else h.t.closed++; // refused, a self-connect (SELF), or another error: final, not open
    this.congestion(h, p.attempt > 0);
    if (this.o.stopOnAnswer) this.finish(h);
    else this.check(h);
  }

  private congestion(h: Host, late: boolean): void {
    // Congestion on the way to this host is likely on the way to the others too (the scanner's own link).
    if (congested(h, late, this.o.perHost)) this.limit = Math.max(64, this.limit >> 1);
  }

  private timeoutOf(p: Probe): number {
    return probeWait(p.h, p.attempt, this.group, this.o);
  }

  private allowed(h: Host): number {
    return lastAttempt(h, this.o);
  }

  /** Once the host's ports and retries are all out, its silent ports go back for the last look; false if none. */
  private lastLook(h: Host): boolean {
    if (!h.last.length) return false;
    if (h.inflight) return false; // after every first pass and retry of this host has ended
    // ... and of every host: a stall that cost these ports their retries is likelier over by then, when
    // nothing else is in flight (bench/wan.ts at 200 ms RTT still lost 1 of 103 open ports otherwise).
    // (Not of the hosts still in discovery: its empty addresses would hold the last looks for their silence.)
    if (this.hosts.some((o) => !o.done && !o.held && (o.next < this.ports.length || o.retry.length))) return false;
    if (!h.t.closed || h.last.length > this.o.perHost) {
      // Silence is this host's rule, not an exception (a firewall, a filtered range): a last look would
      // cost a wait per window of ports and find nothing.
      h.t.filtered += h.last.length;
      h.last = [];
      this.check(h);
      return false;
    }
    for (const port of h.last) h.retry.push({ port, attempt: this.o.retries + 1 });
    h.last = [];
    return true;
  }

  private release(slot: number): Probe {
    const p = this.slots[slot]!;
    if (this.limit < this.o.budget) this.limit++;
    this.slots[slot] = null;
    this.free.push(slot);
    p.h.inflight--;
    if (p.attempt === 0) p.h.fresh--;
    return p;
  }

  private check(h: Host): void {
    if (!h.done && h.next >= this.ports.length && !h.retry.length && !h.last.length && !h.inflight) this.finish(h);
  }

  private finish(h: Host): void {
    if (h.done) return;
    h.done = true;
    let cancelled = 0;
    for (let slot = 0; slot < this.slots.length; slot++) {
      if (this.slots[slot]?.h !== h) continue;
      this.release(slot);
      this.probes.cancel(slot);
      cancelled++;
    }
    if (h.t.dropped) h.t.left = this.ports.length - h.next + h.retry.length + h.last.length + cancelled;
    h.retry = [];
    h.last = [];
    h.t.open.sort((a, b) => a - b);
    if (h.rtt.srtt >= 0) {
      h.t.srtt = h.rtt.srtt;
      h.t.rttvar = h.rtt.rttvar;
    }
    this.pending--;
    this.onHost(h.i, h.t);
  }
}
