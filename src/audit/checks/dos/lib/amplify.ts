import type { Target } from '../../kit.ts';
import type { Net } from '../../../engine/types.ts';
import { udpAsk } from '../../../proto/talk.ts';

/**
 * UDP amplification: a service that answers a small datagram with a much
 * larger one can be aimed at a third party with a spoofed source address.
 * Each check sends ONE request to the service's well-known port and
 * measures reply bytes / request bytes (only the first reply datagram
 * counts, so the figure is a lower bound). Factors US-CERT TA14-017A
 * measured in the wild: memcached 10,000–51,000, NTP monlist 556, mode 6
 * ~25, SSDP 30, DNS ANY 28–54. A factor of 10 or more is reported.
 */
export const AMPLIFICATION_MIN = 10;

/** Reply/request size factor of one request, or null when nothing (or no real answer) came back. */
export async function amplification(
  net: Net,
  port: number,
  request: Buffer,
  answers: (r: Buffer) => boolean,
): Promise<{ reply: number; factor: number } | null> {
  const reply = await udpAsk(net, port, request, { timeoutMs: 1500 });
  if (!reply || !answers(reply)) return null;
  return { reply: reply.length, factor: reply.length / request.length };
}

/** The finding's detail when one request is answered `minFactor` times its size or more. */
export async function amplified(
  { net, port }: Target,
  request: Buffer,
  answers: (r: Buffer) => boolean,
  minFactor = AMPLIFICATION_MIN,
): Promise<string | null> {
  const m = await amplification(net, port, request, answers);
  if (!m || m.factor < minFactor) return null;
  return `UDP ${port}: a ${request.length}-byte request was answered with ${m.reply} bytes in its first datagram alone (factor ${m.factor.toFixed(1)}).`;
}
