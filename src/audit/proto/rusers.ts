/**
 * rusersd (RPC program 100002; rusers.x as Sun, netkit and the BSDs ship
 * it): RUSERSPROC_NAMES (procedure 2) lists who is logged in. Version 3
 * answers utmp_array<> of {string user, line, host; int type, time;
 * unsigned idle}; version 2 utmpidlearr of {char line[8], name[8],
 * host[16]; long time; unsigned idle}. The service's port is asked of the
 * portmapper (it has no well-known one).
 */
import type { Net } from '../engine/types.ts';
import { pmapGetPort, rpcCall, Xdr } from './rpc.ts';

export const RUSERS = 100002;

export interface Login {
  user: string;
  line: string;
  host: string;
}

/** RUSERSPROC_NAMES's array, or null when the reply does not parse as one. */
export function parseNames(vers: 2 | 3, body: Buffer): Login[] | null {
  try {
    const x = new Xdr(body);
    const n = x.u32();
    if (n > 10_000) return null;
    const out: Login[] = [];
    for (let i = 0; i < n; i++) {
      if (vers === 3) {
        const [user, line, host] = [x.string(256), x.string(256), x.string(256)];
        x.u32(), x.u32(), x.u32();
        out.push({ user, line, host });
      } else {
        const [line, user, host] = [x.fixed(8), x.fixed(8), x.fixed(16)];
        x.u32(), x.u32();
        out.push({ user, line, host });
      }
    }
    return out;
  } catch {
    return null;
  }
}

export interface RusersAnswer {
  port: number;
  proto: 'udp' | 'tcp';
  vers: 2 | 3;
  logins: Login[];
}

/** Asks the portmapper on `pmapPort` where rusersd is, then its NAMES; null when it is not registered or silent. */
export async function rusersNames(net: Net, pmapPort: number): Promise<RusersAnswer | null> {
  for (const vers of [3, 2] as const) {
    for (const proto of ['udp', 'tcp'] as const) {
      const port = await pmapGetPort(net, pmapPort, RUSERS, vers, proto);
      if (port === null) return null; // the portmapper itself refuses or is silent
      if (!port) continue;
      const r = await rpcCall(net, port, proto, RUSERS, vers, 2);
      const logins = r?.status === 'success' ? parseNames(vers, r.body) : null;
      if (logins) return { port, proto, vers, logins };
    }
  }
  return null;
}
