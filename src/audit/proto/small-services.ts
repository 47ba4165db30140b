/**
 * inetd's "small services", built into inetd and xinetd and into many
 * routers and printers: echo (RFC 862, port 7), discard (RFC 863, 9),
 * daytime (RFC 867, 13), qotd (RFC 865, 17), chargen (RFC 864, 19) and
 * time (RFC 868, 37), over TCP and UDP. What each answers has a shape of
 * its own, and only that shape proves the service (`recognise`).
 */
import { randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import { talk, udpAsk } from './talk.ts';

export type SmallService = 'echo' | 'daytime' | 'qotd' | 'chargen' | 'time';

export const SMALL_PORTS: Readonly<Record<number, SmallService>> = {
  7: 'echo',
  13: 'daytime',
  17: 'qotd',
  19: 'chargen',
  37: 'time',
};

/** The service a port carries: detection's name when it is one of these, else the usual port's. */
export const smallServiceOn = (port: number, name: string | undefined): SmallService | undefined =>
  (['echo', 'daytime', 'qotd', 'chargen', 'time'] as const).find((s) => s === name) ?? SMALL_PORTS[port];

const text = (b: Buffer) => /^[\x20-\x7e\t\r\n]+$/.test(b.toString('latin1'));
/** RFC 864: lines of consecutive printable ASCII ("!\"#$%&…"), each line starting one further: 20 in a row. */
const chargenRun = (b: Buffer) => /[\x20-\x7e]{20}/.test(b.toString('latin1')) && consecutive(b) >= 20;
function consecutive(b: Buffer): number {
  let best = 1;
  let run = 1;
  for (let i = 1; i < b.length; i++) {
    run = b[i] === b[i - 1]! + 1 || (b[i] === 0x20 && b[i - 1] === 0x7e) ? run + 1 : 1;
    best = Math.max(best, run);
  }
  return best;
}
/** RFC 868: 32-bit seconds since 1900; after 2020-01-01 (3786825600) and before the 2036 wrap. */
const seconds1900 = (b: Buffer) => b.length === 4 && b.readUInt32BE(0) > 3_786_825_600;

/** Whether `reply` has the shape `service` answers with (`sent`: what echo must return). */
export function recognise(service: SmallService, reply: Buffer, sent: Buffer): boolean {
  if (service === 'echo') return reply.equals(sent);
  if (service === 'time') return seconds1900(reply);
  if (service === 'chargen') return chargenRun(reply);
  // daytime: a date and time in any layout (RFC 867 prescribes none): digits and a clock; qotd: any text.
  if (service === 'daytime') return text(reply) && /\d{1,2}:\d\d/.test(reply.toString('latin1'));
  return text(reply) && reply.length >= 8;
}

/** What a client sends: echo a random token (so only a real echo returns it), the others one newline. */
export const request = (service: SmallService): Buffer =>
  service === 'echo' ? Buffer.from(`vigil-${randomBytes(6).toString('hex')}\n`) : Buffer.from('\n');

/** One datagram and its reply when it has the service's shape, else null. */
export async function smallUdp(net: Net, port: number, service: SmallService) {
  const sent = request(service);
  const reply = await udpAsk(net, port, sent, { timeoutMs: 1500 });
  return reply && recognise(service, reply, sent) ? { sent, reply } : null;
}

/**
 * TCP: echo is sent the token; the others speak first (chargen without end,
 * the rest one answer and a close). At most 4 KB is read.
 */
export function smallTcp(net: Net, port: number, service: SmallService) {
  return talk(net, port, async (c) => {
    const sent = service === 'echo' ? request(service) : Buffer.alloc(0);
    const reply =
      service === 'echo'
        ? await c.ask(sent, 2500, (b) => b.length >= sent.length)
        : await c.read(2500, (b) => b.length >= (service === 'chargen' ? 512 : 4096));
    return reply.length && recognise(service, service === 'echo' ? reply.subarray(0, sent.length) : reply, sent)
      ? { sent, reply: Buffer.from(reply) }
      : null;
  });
}

/** A reply for a finding's detail: time's seconds as a date, the others as text. */
export function describeReply(service: SmallService, reply: Buffer, max = 80): string {
  if (service === 'time' && reply.length === 4) {
    const s = reply.readUInt32BE(0);
    return `${s} s since 1900 (${new Date((s - 2_208_988_800) * 1000).toISOString()})`;
  }
  return `"${reply
    .toString('latin1')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim()
    .slice(0, max)}"`;
}
