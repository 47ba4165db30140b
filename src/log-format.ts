import type { Logger } from 'pino';

export type LogFormat = 'json' | 'pretty';

/**
 * JSON for machines (journald, a log shipper, a pipe), readable lines for a
 * person at a terminal. VIGIL_LOG_FORMAT (or serve's --log-format) forces
 * either; otherwise a TTY on stderr decides.
 */
export function logFormat(explicit = process.env.VIGIL_LOG_FORMAT): LogFormat {
  if (explicit === 'json' || explicit === 'pretty') return explicit;
  if (explicit !== undefined && explicit !== '' && explicit !== 'auto')
    throw new Error(`must be json, pretty or auto, not '${explicit}'`);
  return process.stderr.isTTY ? 'pretty' : 'json';
}

// pino is loaded only when a logger is made: `--help` and the option parsing need none of it.

/**
 * Log lines wait at most this long in memory before they are written.
 * Under load they go out in batches of LOG_BATCH_BYTES instead.
 */
export const LOG_FLUSH_MS = 100;
/**
 * A write of the JSON stream carries at least this much (about 16 API
 * lines). Before, each line was its own asynchronous write: a round trip
 * through libuv's thread pool (two futex wake-ups, then the loop woken
 * again) that took 14% of the serve process's CPU under the cheap-call
 * benchmark, more than forming the line (bench/reads.ts --profile,
 * docs/performance.md, "API").
 */
export const LOG_BATCH_BYTES = 4096;

/**
 * The logger of a long-running process, on stderr. Pretty output (one
 * line per event, its facts after the message: pino-pretty's default puts
 * each fact on a line of its own, 9 lines for one distribution cycle) goes
 * through pino's transport, formatted in a worker thread, so that request
 * handlers only ever write the JSON line; the JSON stream is asynchronous
 * and batched (LOG_BATCH_BYTES, at most LOG_FLUSH_MS late; pino flushes
 * what is left at exit, an uncaught error's included; a SIGKILL loses at
 * most the last LOG_FLUSH_MS).
 */
export async function serverLogger(level: string, format: LogFormat = logFormat()): Promise<Logger> {
  const { pino } = await import('pino');
  if (format === 'pretty')
    return pino(
      { level },
      pino.transport({ target: 'pino-pretty', options: { destination: 2, colorize: true, singleLine: true } }),
    );
  const stream = pino.destination({ dest: 2, sync: false, minLength: LOG_BATCH_BYTES });
  // Not sonic-boom's own periodicFlush: that one writes even when nothing waits (an
  // empty write every tick of an idle server). `_len` is its count of bytes not yet
  // written (sonic-boom 4); a flush while a write is in flight does nothing, so the
  // next tick looks again. test/log-batching.test.ts fails if a lone line stays unwritten.
  const buffered = stream as unknown as { _len: number };
  setInterval(() => {
    if (buffered._len > 0) stream.flush();
  }, LOG_FLUSH_MS).unref();
  return pino({ level }, stream);
}

/**
 * The logger of a one-shot command (admin): synchronous writes, because
 * the process exits right after its one line, and no worker thread to
 * start for a single line.
 */
export async function commandLogger(
  level = process.env.VIGIL_LOG_LEVEL || 'info',
  format: LogFormat = logFormat(),
): Promise<Logger> {
  const { pino } = await import('pino');
  if (format === 'pretty') {
    const { default: pretty } = await import('pino-pretty');
    return pino({ level }, pretty({ destination: 2, sync: true, colorize: true, singleLine: true }));
  }
  return pino({ level }, pino.destination({ dest: 2, sync: true }));
}
