/**
 * The scan loop's vocabulary (engine.ts): what a probe can come back with,
 * the options, what goes in per host and what comes out.
 */
import type { Timing } from './timing.ts';

/** Probe outcomes: 0 open, 1 in flight, negative errno (Linux numbering), or SELF. */
export const OPEN = 0;
export const PENDING = 1;
export const SELF = -4242;
/** Out of descriptors, buffers or local ports: not the target's answer; try again later. */
export const RESOURCE = new Set([-24, -23, -105, -99, -11]);
/** The path said the host is not there (an ICMP unreachable or no route). */
export const UNREACHABLE = new Set([-113, -101, -112]);

export interface EngineOptions extends Timing {
  budget: number;
  perHost: number;
  /** Probes started per pump at most. */
  burst: number;
  retries: number;
  /** Discovery: a host is finished by its first answer of any kind. */
  stopOnAnswer?: boolean;
}

export interface HostSpec {
  address: string;
  seed?: { srtt: number; rttvar: number } | null;
  /** Waits for discovery to admit it (ScanEngine.admit) or skip it. */
  held?: boolean;
}

export interface HostTally {
  address: string;
  open: number[];
  closed: number;
  filtered: number;
  unreachable: number;
  /** Anything came back: a SYN-ACK, a RST or an ICMP reply. */
  answered: boolean;
  via: 'icmp' | 'tcp' | null;
  srtt: number | null;
  rttvar: number | null;
  /** Went silent after answering, and was given up; `left` ports were not scanned. */
  dropped: boolean;
  left: number;
}

export interface Probes {
  /** Starts a probe: PENDING, or its outcome at once. */
  connect(slot: number, host: number, port: number): number;
  cancel(slot: number): void;
}
