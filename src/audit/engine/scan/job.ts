/**
 * One scan job (hosts × ports) driven to its end over an `Io`: in a worker
 * thread on the native addon, whose poll blocks (worker.ts), or on the
 * event loop, polling without blocking and waiting between polls.
 */
import { type EngineOptions, type HostSpec, type HostTally, ScanEngine } from './engine.ts';
import { type Gate, gateReader } from './gate.ts';
import type { Io } from './probes.ts';

export interface ScanJob {
  hosts: HostSpec[];
  ports: number[];
  options: EngineOptions;
  /** Send ICMP echo and timestamp requests too (discovery), where the process may. */
  ping?: boolean;
  /** SYN probes where the process may (raw socket), else connects. */
  syn?: boolean;
  /** The hosts are `held` until discovery opens or closes them here (gate.ts). */
  gate?: Gate;
}

/** Longest wait for an answer between two looks at the timeouts (ms). */
const TICK = 5;

export async function runJob(
  job: ScanJob,
  io: Io,
  o: { blocking: boolean; stopped: () => boolean; onHost?: (i: number, t: HostTally) => void },
): Promise<HostTally[]> {
  const index = job.hosts.map((h) => io.host(h.address));
  const back = new Map(index.map((n, i) => [n, i]));
  const engine = new ScanEngine(
    job.hosts,
    job.ports,
    job.options,
    { connect: (slot, i, port) => io.connect(slot, index[i]!, port), cancel: (slot) => io.cancel(slot) },
    o.onHost,
  );
  try {
    if (job.ping) {
      const v6 = job.hosts.map((h) => h.address.includes(':'));
      const may = { 4: v6.includes(false) && !!io.icmp(4), 6: v6.includes(true) && !!io.icmp(6) };
      const now = performance.now();
      job.hosts.forEach((_, i) => {
        if (!may[v6[i] ? 6 : 4]) return;
        // Echo and timestamp, as nmap's default discovery (-PE -PP) sends them; IPv6 has no timestamp request.
        if (io.ping(index[i]!, 8) !== 0) return;
        if (!v6[i]) io.ping(index[i]!, 13);
        engine.pingSent(i, now);
      });
    }
    const out = new Int32Array(2048);
    let lastExpire = performance.now();
    const gate = job.gate ? gateReader(job.gate) : null;
    const admit = (i: number, seed: HostSpec['seed']) => engine.admit(i, seed);
    const skip = (i: number) => engine.skip(i);
    while (!engine.finished) {
      if (o.stopped()) {
        engine.abort();
        break;
      }
      gate?.read(admit, skip);
      engine.pump(performance.now());
      let n = io.poll(out, o.blocking && io.blocking ? TICK : 0);
      if (!n && !(o.blocking && io.blocking)) {
        await io.wait(TICK);
        n = io.poll(out, 0);
      }
      const now = performance.now();
      for (let k = 0; k < n; k++) {
        const slot = out[2 * k]!;
        if (slot >= 0) engine.complete(slot, out[2 * k + 1]!, now);
        else engine.pinged(back.get(-1 - slot) ?? -1, now);
      }
      if (!n || now - lastExpire >= TICK) {
        engine.expire(now);
        lastExpire = now;
      }
    }
  } finally {
    io.close();
  }
  return engine.results();
}
