/**
 * A bounded conversation over one socket, shared by detection and the
 * checks: every read is capped in bytes and time, and no socket error ever
 * escapes (hostile peers may send anything or nothing).
 */
import type { Socket } from 'node:net';

export class Conv {
  private buf = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  closed = false;
  /** The last reply read by ask(), for the banner. */
  last: Buffer = Buffer.alloc(0);
  /** The request ask() sent for it: a report quotes what was sent beside what came back. */
  sent: Buffer = Buffer.alloc(0);

  /** `capMs` bounds every read, whatever a family asks for. */
  constructor(
    readonly socket: Socket,
    private readonly capMs = 3000,
    private readonly max = 65536,
  ) {
    socket.on('data', (d: Buffer) => {
      if (this.buf.length < max) this.buf = Buffer.concat([this.buf, d]).subarray(0, max);
      this.wake?.();
    });
    const end = () => {
      this.closed = true;
      this.wake?.();
    };
    socket.on('end', end);
    socket.on('close', end);
    socket.on('error', end);
  }

  /** Waits until `done(buffer)` holds, the peer closes, the cap is hit, or `ms` pass. */
  read(ms: number, done: (b: Buffer) => boolean = (b) => b.length > 0): Promise<Buffer> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const check = () => {
        let ok = this.closed || this.buf.length >= this.max;
        try {
          ok ||= done(this.buf);
        } catch {
          ok = true;
        }
        if (!ok) return false;
        clearTimeout(timer);
        this.wake = null;
        resolve(this.buf);
        return true;
      };
      if (check()) return;
      this.wake = check;
      timer = setTimeout(
        () => {
          this.wake = null;
          resolve(this.buf);
        },
        Math.min(ms, this.capMs),
      );
    });
  }

  /** Forgets what was read so far (the next read sees only new bytes). */
  take(): Buffer {
    const b = this.buf;
    this.buf = Buffer.alloc(0);
    return b;
  }

  send(data: string | Buffer): void {
    if (this.closed) return;
    try {
      this.socket.write(data);
    } catch {
      this.closed = true;
    }
  }

  /** Sends, then reads the reply (only the new bytes). */
  async ask(data: string | Buffer, ms: number, done?: (b: Buffer) => boolean): Promise<Buffer> {
    this.take();
    this.send(data);
    this.sent = Buffer.from(data);
    return (this.last = await this.read(ms, done));
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Printable text of a reply, ≤ 512 chars: what Service.banner holds. */
export function printable(b: Buffer): string | null {
  const t = b
    .subarray(0, 2048)
    .toString('latin1')
    .replace(/[^\x20-\x7e\r\n\t]+/g, '.')
    .trim()
    .slice(0, 512);
  return t || null;
}

export const firstLine = (b: Buffer) => b.toString('latin1').split(/\r?\n/, 1)[0]!.trim();
export const lineDone = (b: Buffer) => b.includes(10);

/** "Product/1.2.3" → [product, version]. */
export function productVersion(token: string): [string, string | null] {
  const m = /^([^/\s]+)(?:\/(\S+))?/.exec(token.trim());
  return m ? [m[1]!, m[2] ?? null] : [token.trim(), null];
}
