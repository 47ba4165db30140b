import type { Logger } from 'pino';

export type LogFormat = 'json' | 'pretty';

/**
 * JSON for machines (journald, a log shipper, a pipe), readable lines for a
 * person at a terminal. VIGIL_LOG_FORMAT (or serve's --log-format) forces
 * either; otherwise a TTY on stderr decides.
 */
export function logFormat(explicit = process.env.VIGIL_LOG_FORMAT): LogFormat {
  if (explicit === 'json' || explicit === 'pretty') return explicit;
  if (explicit !== undefined && explicit !== '' && explicit !== 'auto') throw new Error(`must be json, pretty or auto, not '${explicit}'`);
  return process.stderr.isTTY ? 'pretty' : 'json';
}

// pino is loaded only when a logger is made: `--help` and the option parsing need none of it.

/**
 * The logger of a long-running process, on stderr. Pretty output goes
 * through pino's transport, formatted in a worker thread, so that request
 * handlers only ever write the JSON line; the JSON stream is asynchronous
 * (pino flushes it at exit).
 */
export async function serverLogger(level: string, format: LogFormat = logFormat()): Promise<Logger> {
  const { pino } = await import('pino');
  if (format === 'pretty') return pino({ level }, pino.transport({ target: 'pino-pretty', options: { destination: 2, colorize: true } }));
  return pino({ level }, pino.destination({ dest: 2, sync: false }));
}

/**
 * The logger of a one-shot command (admin): synchronous writes, because
 * the process exits right after its one line, and no worker thread to
 * start for a single line.
 */
export async function commandLogger(level = process.env.VIGIL_LOG_LEVEL || 'info', format: LogFormat = logFormat()): Promise<Logger> {
  const { pino } = await import('pino');
  if (format === 'pretty') {
    const { default: pretty } = await import('pino-pretty');
    return pino({ level }, pretty({ destination: 2, sync: true, colorize: true }));
  }
  return pino({ level }, pino.destination({ dest: 2, sync: true }));
}
