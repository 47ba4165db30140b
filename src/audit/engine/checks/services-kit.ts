/** What the service-level checks share: which ports to try, and a bounded conversation. */
import { Conv } from '../detect/io.ts';
import type { Check, Finding, HostFacts, Net, Service } from '../types.ts';

/**
 * Ports a check should try: those detection named `names`, plus the
 * service's usual ports when open and not named something else (detection
 * may miss a slow or odd server; the check probes for itself).
 */
export function portsOf(host: HostFacts, names: readonly string[], usual: readonly number[]): number[] {
  const named = host.services.filter((s) => names.includes(s.name)).map((s) => s.port);
  const byPort = usual.filter((p) => {
    if (!host.openPorts.includes(p)) return false;
    const s = host.services.find((x) => x.port === p);
    return !s || s.name === 'unknown' || names.includes(s.name);
  });
  return [...new Set([...named, ...byPort])].sort((a, b) => a - b);
}

export const serviceOn = (host: HostFacts, port: number): Service | undefined =>
  host.services.find((s) => s.port === port);

/** One connection, a few exchanges, always closed; null on any failure. */
export async function talk<T>(
  net: Net,
  port: number,
  steps: (conv: Conv) => Promise<T | null>,
  ms = 4000,
): Promise<T | null> {
  let conv: Conv | null = null;
  try {
    conv = new Conv(await net.connect(port, { timeoutMs: 3000 }), ms);
    return await steps(conv);
  } catch {
    return null;
  } finally {
    conv?.close();
  }
}

/** Waits for a full line-based reply (last line `NNN text`, no continuation dash). */
export const replyDone = (b: Buffer) => /(^|\n)\d{3}( [^\n]*)?\r?\n$/.test(b.toString('latin1'));
export const code = (b: Buffer) => Number(/(?:^|\n)(\d{3})(?: [^\n]*)?\r?\n$/.exec(b.toString('latin1'))?.[1] ?? 0);

/** Printable, short: what goes into a finding's detail. */
export const shown = (text: string, max = 160) =>
  text
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim()
    .slice(0, max);

type Meta = Omit<Check, 'run' | 'active' | 'intrusive' | 'dos'> & Partial<Pick<Check, 'active' | 'intrusive' | 'dos'>>;

/** A check that probes each candidate port; `probe` returns the detail when the weakness is there. */
export function portCheck(
  meta: Meta,
  ports: (host: HostFacts) => number[],
  probe: (net: Net, port: number, host: HostFacts) => Promise<string | null>,
): Check {
  return {
    active: true,
    intrusive: false,
    dos: false,
    ...meta,
    async run(host, net) {
      const out: Finding[] = [];
      for (const port of ports(host)) {
        const detail = await probe(net, port, host).catch(() => null);
        if (detail) out.push({ port, detail });
      }
      return out;
    },
  };
}
