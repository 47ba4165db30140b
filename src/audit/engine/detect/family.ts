/** Shared shape of the detect/* families. */
import type { Conv } from '../../proto/conv.ts';
import type { Net, Service } from '../types.ts';

/** One protocol family: recognise a greeting, and/or probe a silent port. */
export interface Family {
  readonly id: string;
  /** Ports where this family is tried first among the probes. */
  readonly ports?: readonly number[];
  /**
   * Probed on `ports` only, never elsewhere: a service rare off its port whose probe would cost every other
   * port a connection (or that must not meet other services: raw printer ports print what they are sent).
   */
  readonly only?: true;
  /** A greeting the server sent unasked; fill `s` and return true if it is ours. */
  banner?(greeting: Buffer, s: Service, conv: Conv): Promise<boolean>;
  /** A client-first probe on a fresh plain connection. */
  probe?(conv: Conv, s: Service, net: Net): Promise<boolean>;
}
