/** A bounded exchange on one fenced TCP connection, and the small readers line protocols share. */
import type { Net } from '../engine/types.ts';
import { Conv } from './conv.ts';

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

/** One UDP request through the fence, the first reply or null (timeouts and errors alike). */
export const udpAsk = (
  net: Net,
  port: number,
  payload: Buffer,
  opts: { timeoutMs?: number; anyPort?: boolean } = {},
): Promise<Buffer | null> => net.udpRequest(port, payload, opts).catch(() => null);
